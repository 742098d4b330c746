"""A table without a screen seats a newcomer from the host's phone (issue 28, item 6): the host's page draws
each free seat's QR code (js/phone-seats.js, the npm `qrcode-generator` served as /vendor/qrcode.mjs), the
newcomer's phone camera reads it off the host's screen, and that phone takes the seat.

In headless Chromium on the managed Mosquitto. "The camera" is the screenshot of the host's screen decoded
by zxing-cpp, as tests/kits/phone_page_kit.py's `scan` reads the kiosk's codes; the code must say exactly
the link the page shows beside it and the kiosk would show. Only the host's page loads the encoder.
"""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
import zxingcpp
from playwright.sync_api import Browser

from companion import i18n
from companion.phones.join import JoinLink
from tests.kits.kiosk_fixtures import shots_dir
from tests.kits.phone_page_kit import WAIT_MS, PhonePage, serving
from tests.kits.phones_kit import running_table

__all__ = ["shots_dir"]


def camera(png: bytes) -> list[str]:
    """What a phone camera reads off a screen: every QR code in the picture."""
    import pygame
    picture = pygame.image.load(io.BytesIO(png))
    grey = pygame.surfarray.array3d(picture).mean(axis=2).T.astype(np.uint8)
    return sorted({str(code.text) for code in zxingcpp.read_barcodes(grey, formats=zxingcpp.BarcodeFormat.QRCode)})


def test_a_newcomer_scans_a_free_seats_code_off_the_hosts_phone_and_takes_the_seat(
        tmp_path: Path, browser: Browser, shots_dir: Path) -> None:
    with running_table(tmp_path, "mosquitto", players=["ana", "ben"]) as table, serving(table) as (_, links):
        chief = PhonePage.open(browser, links["host"].url())
        ana = PhonePage.open(browser, links["ana"].url())
        newcomer = None
        try:
            chief.online()
            ana.online()
            row = chief.page.locator(".item.seat[data-player='ben']")
            row.locator(".seat-qr[data-drawn='true']").wait_for(timeout=WAIT_MS)
            assert i18n.translate("en", "phone.seat.scan", {"name": "Ben"}) in row.inner_text()
            shown = JoinLink.parse(row.locator(".code-link").inner_text())
            assert shown == links["ben"]
            row.scroll_into_view_if_needed()
            seen = camera(chief.page.screenshot())  # the host holds the phone up; the newcomer's camera reads it
            assert [JoinLink.parse(text) for text in seen] == [links["ben"]]  # Ben's, the one free seat's
            row.screenshot(path=str(shots_dir / "host-page-free-seat-qr.png"))

            assert not any(b"qrcode" in f for f in ana.frames)
            loaded = ana.page.evaluate("() => performance.getEntriesByType('resource').map((r) => r.name)")
            assert not any("qrcode" in name for name in loaded)  # a player's page never downloads the encoder

            newcomer = PhonePage.open(browser, links["ben"].url())
            newcomer.online()
            assert table.phones.seating.holds("ben")
            chief.page.wait_for_selector(".seat-row[data-player='ben'][data-bound='true']", timeout=WAIT_MS)
            assert not row.locator(".seat-qr").count()  # a held seat's code is shown nowhere
        finally:
            for phone in (chief, ana, newcomer):
                if phone is not None:
                    phone.close()
