"""pytest set-up: the shared helper modules' asserts get pytest's detailed messages, as in a test file;
no test MQTT phone outlives its test."""

import sys
from collections.abc import Iterator
from typing import Any

import pytest

pytest.register_assert_rewrite("tests.kits.toolkit_script")


@pytest.fixture(autouse=True)
def _no_phone_left_open() -> Iterator[None]:
    """A test MQTT phone (tests/kits/phones_kit.py) still open when its test ends is closed: left open, its
    thread and sockets stay for the rest of the run (see `close_phones`)."""
    yield
    kit = sys.modules.get("tests.kits.phones_kit")
    if kit is not None:
        kit.close_phones()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Debian's headless Chromium, driven by Playwright, for one test module's phone pages."""
    from playwright.sync_api import sync_playwright

    from tests.kits.phone_page_kit import CHROMIUM, CHROMIUM_ARGS

    with sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield chromium
        finally:
            chromium.close()
