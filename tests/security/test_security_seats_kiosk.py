"""The kiosk shows a seat's code only while no phone holds the seat, and the host releases a seat there.

A real table, a real broker and the real seats (`KioskSeats` over `Seating`); the screen is read back as
a person (or a camera) would: the QR codes on the screenshot are decoded, the text drawn is checked.
Ana's phone takes her seat: the setup screen ticks her name and steps (Next) through the other
players' codes only (never the host's). In the host menu, by touches, the host opens "Phones and seats" (the
host's own code is there), releases Ana's seat: her phone is dropped and refused, and the setup screen
shows her seat's new code. Ana also gets her code in her own booth, and not once her seat is taken.
"""

from __future__ import annotations

import contextlib
import json
import secrets
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pygame
import pytest
import zxingcpp

from companion.core.contract import Player, Setup
from companion.core.eventlog import EventLog
from companion.core.referee import Referee
from companion.drawing.text import TextCache
from companion.games import registry
from companion.kiosk.engine import build
from companion.kiosk.kiosk import Kiosk, Settings
from companion.kiosk.screens.booth import BoothScreen
from companion.phones.join import JoinLink, seat_links
from companion.phones.runner import Phones, start_phones
from companion.phones.serve import KioskSeats, Served
from companion.status import StatusBoard
from companion.table.loop import Table
from tests.kits.kiosk_fixtures import shots_dir, surface, text, text_cache
from tests.kits.kiosk_touch import tap_at
from tests.kits.phones_kit import BROKERS, WAIT_S, Phone

__all__ = ["shots_dir", "text", "text_cache"]
PAGE = "http://192.168.1.20:8080/"


@contextlib.contextmanager
def kiosk_table(tmp_path: Path, broker: str, text: TextCache, size: str) -> Iterator[tuple[Kiosk, Phones]]:
    """A toolkit game of four with phones on a real broker and the kiosk on it. The table's part is played
    on this thread (nothing here is a game input): claims and releases go through the broker and seating."""
    setup = Setup("toolkit", tuple(Player(p, p.title()) for p in ("ana", "ben", "chai", "dao")), {}, seed=7)
    referee = Referee.start(registry(), EventLog(tmp_path / "game.sqlite3"), setup, created_at=0)
    table = Table(referee)
    status = StatusBoard()
    phones = start_phones(table, broker=broker, status=status, state_dir=tmp_path)
    served = Served(phones, None, PAGE)
    kiosk = build(surface(size), table, registry(), Settings(seats=KioskSeats(served)), status, text=text)
    try:
        assert phones.mirror.connected.wait(WAIT_S)
        kiosk.process()
        yield kiosk, phones
    finally:
        phones.stop()
        kiosk.close()
        referee.log.close()


def codes_on(screen: pygame.Surface, area: pygame.Rect | None = None) -> set[str]:
    """Every QR code a camera reads off the screen (or off `area` of it)."""
    shot = screen.subsurface(area) if area is not None else screen
    grey = pygame.surfarray.array3d(shot).mean(axis=2).astype(np.uint8).T
    return {str(found.text) for found in zxingcpp.read_barcodes(np.ascontiguousarray(grey))}


def urls(phones: Phones) -> dict[str, str]:
    return {who: link.url() for who, link in seat_links(phones, PAGE).items()}


def claim(phones: Phones, who: str) -> tuple[Phone, str]:
    """A phone that scanned `who`'s code takes the seat, and logs in as the seat with its own password."""
    link = JoinLink.parse(urls(phones)[who])
    password = secrets.token_urlsafe(18)
    p = Phone(phones.address.host, phones.address.port, link.user, link.password)
    assert not p.connect().is_failure
    reply = phones.topics.reply(link.user)
    p.subscribe(reply)
    p.publish(phones.topics.cmd(link.user),
              json.dumps({"id": "k1", "move": "seat.claim", "args": {"password": password}}))
    assert p.wait_for(lambda m: m.topic == reply).json()["ok"]
    p.close()
    seat = phones.game.host if who == "host" else phones.game.players[who]
    held = Phone(phones.address.host, phones.address.port, seat.user, password)
    assert not held.connect().is_failure
    return held, password


def touch(k: Kiosk, pos: tuple[int, int]) -> None:
    """A finger on the touchscreen, as SDL reports it."""
    tap_at(k, pos)


def button(k: Kiosk, key: object) -> pygame.Rect:
    return next(b for b in k.top.buttons() if b.key == key).rect


def setup_codes(k: Kiosk) -> set[str]:
    """Every code the setup screen shows, one at a time: the one up, then each after a touch on Next."""
    seen = codes_on(k.surface)
    for _ in k.top.free():  # type: ignore[attr-defined]
        touch(k, button(k, "next_seat").center)
        seen |= codes_on(k.surface)
    return seen


def drawn(text: TextCache) -> list[str]:
    assert text.record is not None
    return [d.text for d in text.record]


@pytest.mark.parametrize("broker", BROKERS)
def test_the_setup_screen_shows_only_free_seats_codes_and_the_host_releases_a_seat_by_touch(
        tmp_path: Path, broker: str, text: TextCache, shots_dir: Path) -> None:
    with kiosk_table(tmp_path, broker, text, "1920x1080") as (k, phones):
        touch(k, k.layout.rect(400, 300, 1, 1).center)  # a touch ends the attract loop: the game list
        assert k.top.name == "games"
        k.press("back")  # Back: this table's own game's setup screen
        k.process()
        assert k.top.name == "setup"
        before = urls(phones)
        assert len(codes_on(k.surface)) == 1  # one code at a time, large
        assert setup_codes(k) == {before[p] for p in ("ana", "ben", "chai", "dao")}  # never the host's

        ana, password = claim(phones, "ana")
        text.record = []
        k.process()  # the seat change woke the kiosk (the status board)
        pygame.image.save(k.surface, str(shots_dir / f"setup-ana-joined-{broker}.png"))
        assert setup_codes(k) == {before[p] for p in ("ben", "chai", "dao")}
        assert "Joined 1" in drawn(text)  # the status bar counts the seats a phone holds

        k.press("menu")  # the host's menu (both GPIO buttons, or the M key) ...
        k.process()
        touch(k, button(k, "s").center)  # ... "Phones and seats", by touch
        assert k.top.name == "phones"
        pygame.image.save(k.surface, str(shots_dir / f"phones-ana-joined-{broker}.png"))
        assert codes_on(k.surface) == {before["host"]}  # the host's own code is here, and only here
        assert [b.key for b in k.top.buttons() if b.style == "danger"] == [("release", "ana")]

        while not ana.acks.empty():
            ana.acks.get_nowait()
        touch(k, button(k, ("release", "ana")).center)
        assert k.top.name == "confirm" and phones.seating.holds("ana")  # the second step: nothing yet
        touch(k, button(k, "confirm").center)
        assert ana.acks.get(timeout=WAIT_S)[0] == "disconnect"  # Ana's phone is out ...
        assert Phone(phones.address.host, phones.address.port, phones.game.players["ana"].user,
                     password).connect().is_failure  # ... and stays out
        assert k.notice is not None and "Ana's seat is free" in k.notice[0]
        assert not phones.seating.holds("ana")
        assert not [b for b in k.top.buttons() if b.style == "danger"]

        touch(k, button(k, "back").center)  # back from the host's screens: the setup screen again
        assert k.top.name == "setup"
        after = urls(phones)
        assert after["ana"] != before["ana"]  # a new code: a photo of the old one opens nothing
        assert setup_codes(k) == {after[p] for p in ("ana", "ben", "chai", "dao")}


def test_a_player_gets_their_own_code_in_their_booth_and_only_while_the_seat_is_free(
        tmp_path: Path, text: TextCache, shots_dir: Path) -> None:
    with kiosk_table(tmp_path, "mosquitto", text, "1920x1080") as (k, phones):
        assert k.feed is not None
        k.feed.player_tapped("ana")  # Ana's token on the reader, in the booth
        k.process()
        booth = k.top
        assert isinstance(booth, BoothScreen)
        assert codes_on(k.surface) == set()  # her secrets first, no code
        touch(k, button(k, "code").center)
        pygame.image.save(k.surface, str(shots_dir / "booth-ana-code.png"))
        mine = next(r for r in k.regions() if r.name == "booth.mine")
        assert mine.audience == "player:ana"  # drawn as Ana's private region
        assert codes_on(k.surface, mine.rect) == {urls(phones)["ana"]}

        _held, _ = claim(phones, "ana")
        text.record = []
        k.process()
        booth.touch()
        k.render()
        assert codes_on(k.surface) == set()
        assert any("Your seat is already on a phone" in line for line in drawn(text))
