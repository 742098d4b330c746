"""What the phone page says, in a real browser (headless Chromium) against a real broker and the table.

Timers by their translated names; a header that fits a 360-pixel phone in every language; who has
acted or is ready (never what); and a host's form whose words follow the view: "End Ana's turn now"
once Ana's turn has begun, and pressing it ends Ana's turn.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, sync_playwright

from companion import games
from tests.phone_page_kit import CHROMIUM, CHROMIUM_ARGS, WAIT_MS, PhonePage, running_game, serving


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield chromium
        finally:
            chromium.close()


def lockdown(upto: int, **options: object) -> list[str]:
    """The recorded Lockdown game's first `upto` lines, its options changed by `options`."""
    script = games.demo_script("lockdown")
    assert script is not None
    head = json.loads(script[2])
    head["options"] = {**head["options"], **options}
    return [*script[:2], json.dumps(head), *script[3:upto]]


def test_the_hosts_end_turn_form_names_the_current_player_and_ends_that_turn(
        tmp_path: Path, browser: Browser) -> None:
    with running_game(tmp_path, lockdown(43)) as run, serving(run) as (_, links):
        chief = PhonePage.open(browser, links["host"].url())
        try:
            chief.online()
            heading = chief.page.locator(chief.form("lockdown.force_end_turn")).locator("h3")
            assert heading.inner_text() == "End Ben's turn now"  # the player's name, not the id "ben"
            run.table.put({"by": "host", "move": "lockdown.force_end_turn", "args": {}})  # from the kiosk
            chief.page.wait_for_selector("#news-list:has-text(\"Time is up for Ben's turn.\")", timeout=WAIT_MS)
            chief.page.wait_for_selector("#status-line:has-text(\"Ana's turn\")", timeout=WAIT_MS)
            chief.page.wait_for_function(
                "() => document.querySelector(\"form[data-move='lockdown.force_end_turn'] h3\").textContent"
                " === \"End Ana's turn now\"", timeout=WAIT_MS)
            chief.page.locator(chief.form("lockdown.force_end_turn")).locator("button.send").click()
            chief.toast("Done.")
            chief.page.wait_for_selector("#news-list:has-text(\"Time is up for Ana's turn.\")", timeout=WAIT_MS)
        finally:
            chief.close()
