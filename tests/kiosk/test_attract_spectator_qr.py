"""The attract loop's QR code opens the table's own spectator page (issue 30), read as a passer-by would.

A real table with its phones (the managed Mosquitto, two spectators allowed, `mqtt.spectators = 2`), the
phone page served on loopback and the real kiosk drawing the loop on a 1080p TV (dummy SDL driver). The
code is read off the drawn frame by zxing-cpp, as a phone's camera reads it; its link is a spectator's
(the public view only), and opened in headless Chromium it is the table's page: "You are watching", the
table's players by name, online. Each module is at least 6 px on the TV (a 55" set: about 4 mm, the code
about 25 cm: read from 2 m). Without spectators the loop shows no code (there is no link anyone may open).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pygame
import zxingcpp
from playwright.sync_api import Browser

from companion import i18n, qr
from companion.core.contract import Player, Setup
from companion.core.eventlog import EventLog
from companion.core.referee import Referee
from companion.drawing.text import TextCache
from companion.games import registry
from companion.kiosk.engine import build
from companion.kiosk.kiosk import Kiosk, Settings
from companion.kiosk.screens.attract import AttractScreen
from companion.kiosk.widgets import BG
from companion.phones.join import JoinLink
from companion.phones.pageserver import PageServer
from companion.phones.runner import start_phones
from companion.phones.serve import KioskSeats, Served
from companion.phones.topics import parse_user
from companion.status import StatusBoard
from companion.table.loop import Table
from tests.kits.kiosk_fixtures import shots_dir, surface, text, text_cache, text_problems
from tests.kits.phone_page_kit import PhonePage
from tests.kits.phones_kit import WAIT_S

__all__ = ["shots_dir", "text", "text_cache"]
NAMES = ("Ana", "Ben", "Chai")


@contextlib.contextmanager
def loop_with_phones(tmp_path: Path, text: TextCache, spectators: int) -> Iterator[Kiosk]:
    """A Lockdown table of three with its phones and page, and the kiosk on its attract loop at 1920x1080."""
    setup = Setup("lockdown", tuple(Player(n.lower(), n) for n in NAMES), {}, seed=5)
    referee = Referee.start(registry(), EventLog(tmp_path / "game.sqlite3"), setup, created_at=0)
    table = Table(referee)
    status = StatusBoard()
    phones = start_phones(table, broker="mosquitto", status=status, state_dir=tmp_path, spectators=spectators)
    page = PageServer("127.0.0.1", 0, default_language="en", now_ms=table.clock.now_ms).start()
    served = Served(phones, page, f"http://127.0.0.1:{page.port}/")
    kiosk = build(surface("1920x1080"), table, registry(), Settings(seats=KioskSeats(served)), status, text=text)
    try:
        assert phones.mirror.connected.wait(WAIT_S)
        kiosk.process()
        yield kiosk
    finally:
        kiosk.close()
        page.stop()
        phones.stop()
        referee.log.close()


def drawn(k: Kiosk, text: TextCache) -> tuple[list[str], set[str]]:
    """The frame drawn whole: its texts, and every QR code a camera reads off it."""
    text.record = []
    k.surface.fill(BG)
    for region in k.regions():
        region.draw(k.surface, region.rect)
    grey = pygame.surfarray.array3d(k.surface).mean(axis=2).astype(np.uint8).T
    return [d.text for d in text.record], {str(c.text) for c in zxingcpp.read_barcodes(np.ascontiguousarray(grey))}


def test_the_loops_code_opens_the_tables_spectator_page(tmp_path: Path, text: TextCache, browser: Browser,
                                                        shots_dir: Path) -> None:
    with loop_with_phones(tmp_path, text, spectators=2) as k:
        assert isinstance(k.top, AttractScreen)
        texts, codes = drawn(k, text)
        pygame.image.save(k.surface, str(shots_dir / "attract-spectator-qr-en-1920x1080.png"))
        said = i18n.translate("en", "kiosk.attract.scan_watch")
        assert said.replace(" ", "") in "".join(texts).replace(" ", "")  # the line says what it opens (wrapped)
        assert not text_problems(text.record) and not text.missing
        assert len(codes) == 1
        url = codes.pop()
        link = JoinLink.parse(url)
        assert parse_user(link.user).kind == "spectator"  # the public view only: no seat, no secret
        # big enough for 2 m: whole pixels a module, at least 6 (the code's width over its modules)
        modules = len(qr.matrix(url, border=2))
        code = next(r.rect for r in k.regions() if r.name == "attract.code")
        assert min(code.width * 2 // 3, code.height) // modules >= 6, (code, modules)

        phone = PhonePage.open(browser, url)
        try:
            phone.online()
            phone.page.wait_for_function("() => document.body.innerText.includes('Chai')", timeout=15_000)
            page_text = phone.text()
            assert i18n.translate("en", "phone.spectator_seat") in page_text
            assert all(name in page_text for name in NAMES)  # the table's own game, its players by name
            # a spectator holds no seat: the page offers to stop watching, never to leave a seat
            assert i18n.translate("en", "phone.watch_stop") in page_text
            assert i18n.translate("en", "phone.leave") not in page_text
            phone.page.screenshot(path=str(shots_dir / "attract-spectator-page.png"))
        finally:
            phone.close()

        # the next game on the reel: the next spectator's link (each one is one phone at a time)
        k.top.games_shown += 1
        _, later = drawn(k, text)
        assert len(later) == 1 and later != {url}
        assert parse_user(JoinLink.parse(later.pop()).user).kind == "spectator"


def test_without_spectators_the_loop_shows_no_code(tmp_path: Path, text: TextCache) -> None:
    with loop_with_phones(tmp_path, text, spectators=0) as k:
        texts, codes = drawn(k, text)
        assert codes == set()
        assert "Scan" not in "".join(texts)
