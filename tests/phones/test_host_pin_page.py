"""The kiosk's host PIN set from the host's phone page (issue 28, item 4: "set on the kiosk or the host's
phone at setup"; companion/phones/host_pin.py, docs/phones.md).

A toolkit table with its kiosk (SDL's dummy driver, the host lock not chosen yet), its phones on the managed
Mosquitto and the phone page in headless Chromium. The host types PINs as a host would: letters and a
PIN typed differently twice are refused on the page in words and nothing is sent; the right PIN twice is
sent once (a double tap), the page says it is set, and the kiosk's host menu then asks for it on its PIN
pad, where the host types it by touch. A hostile phone's `kiosk.host_pin` commands (a player's, bad PINs,
odd args) are refused in words and never reach the referee; the digits are in no public topic, no other
seat's topic, no event log, no log line and nothing the page keeps.
"""

from __future__ import annotations

import contextlib
import json
import logging
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pygame
import pytest
from playwright.sync_api import Browser

from companion import i18n
from companion.core.contract import Player, Setup
from companion.core.eventlog import EventLog
from companion.core.referee import Referee
from companion.drawing.text import TextCache
from companion.games import registry
from companion.kiosk.engine import build
from companion.kiosk.feed import HostPinSet, KioskFeed
from companion.kiosk.host_lock import HostLock
from companion.kiosk.kiosk import Kiosk, Settings
from companion.kiosk.screens.host_menu import HostMenuScreen
from companion.kiosk.wake import Waker
from companion.phones.runner import start_phones
from companion.status import StatusBoard
from companion.table.loop import Table
from companion.wiring import lock_to_phones
from tests.kits.kiosk_fixtures import shots_dir, surface, text, text_cache
from tests.kits.kiosk_touch import touch
from tests.kits.phone_page_kit import WAIT_MS, PhonePage, serving
from tests.kits.phones_kit import WAIT_S, Phone, Running, close_phones, command, joined, running_table

__all__ = ["shots_dir", "text", "text_cache"]

PIN = "73915286"  # eight digits no random password or id holds by chance
PLAYERS = (Player("ana", "Ana"), Player("ben", "Ben"))


def say(msgid: str, **params: object) -> str:
    return i18n.translate("en", msgid, params)


@contextlib.contextmanager
def kiosk_table(tmp_path: Path, text: TextCache) -> Iterator[tuple[Kiosk, Running]]:
    """A toolkit table with its kiosk (no host PIN chosen yet: `HostLock.load("")`) and its phones, as
    `companion run` wires them (companion/wiring.py: `lock_to_phones`); the table's loop on a thread, the
    kiosk's on the test's."""
    referee = Referee.start(registry(), EventLog(tmp_path / "game.sqlite3"), Setup("toolkit", PLAYERS, {}, seed=7),
                            created_at=0)
    table = Table(referee)
    status = StatusBoard()
    settings = Settings(lang="en", attract=False, host_lock=HostLock.load("", tmp_path))
    kiosk = build(surface("800x480"), table, registry(), settings, status, text=text)
    phones = start_phones(table, broker="mosquitto", status=status, state_dir=tmp_path)
    assert kiosk.feed is not None
    lock_to_phones(kiosk.feed, phones.mirror)
    thread = threading.Thread(target=table.run, name="table", daemon=True)
    thread.start()
    try:
        assert phones.mirror.connected.wait(WAIT_S), "the mirror did not connect"
        yield kiosk, Running(table, phones, status, thread)
    finally:
        table.stop()
        thread.join(WAIT_S)
        close_phones(phones.address.port)
        phones.stop()
        kiosk.close()
        referee.log.close()


def kiosk_until(kiosk: Kiosk, done: Callable[[], bool], what: str) -> None:
    """Turn the kiosk's loop (it sleeps until woken or due) until `done`, within an overall deadline."""
    deadline = time.monotonic() + WAIT_S
    while not done():
        assert time.monotonic() < deadline, f"the kiosk never got to: {what}"
        kiosk.step(0.05)


def type_pins(host: PhonePage, first: str, again: str) -> None:
    form = host.page.locator("#host-pin form")
    form.locator("input[name='pin']").fill(first)
    form.locator("input[name='again']").fill(again)


def pin_commands(host: PhonePage) -> int:
    return sum(1 for f in host.frames if b'"kiosk.host_pin"' in f)


def test_the_host_sets_the_kiosks_pin_on_the_phone_and_the_kiosk_asks_for_it(
        tmp_path: Path, text: TextCache, browser: Browser, shots_dir: Path, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    with kiosk_table(tmp_path, text) as (kiosk, run), serving(run) as (_, links):
        kiosk_until(kiosk, lambda: kiosk.feed is not None and kiosk.feed.lock_mode() == "unset", "its lock said")
        host = PhonePage.open(browser, links["host"].url())
        try:
            host.online()
            mode = host.page.locator("#host-pin .host-pin-mode")
            mode.filter(has_text=say("phone.host_pin.state_unset")).wait_for(timeout=WAIT_MS)
            state = host.page.locator("#host-pin .form-state")
            button = host.page.locator("#host-pin button.send")

            type_pins(host, "12a4", "12a4")  # letters: refused in words, nothing sent
            button.click()
            digits = say("phone.host_pin.refused", reason=say("reject.host_pin_digits", low=4, high=8))
            state.filter(has_text=digits).wait_for(timeout=WAIT_MS)
            host.page.locator("#host-pin").screenshot(path=str(shots_dir / "host-pin-page-refused.png"))
            type_pins(host, PIN, PIN[:-1] + "0")  # typed differently twice
            button.click()
            state.filter(has_text=say("phone.host_pin.refused", reason=say("reject.host_pin_mismatch"))
                         ).wait_for(timeout=WAIT_MS)
            assert pin_commands(host) == 0 and kiosk.settings.host_lock.mode == "unset"

            type_pins(host, PIN, PIN)
            button.dblclick()  # an impatient double tap: one command
            state.filter(has_text=say("phone.host_pin.done")).wait_for(timeout=WAIT_MS)
            assert pin_commands(host) == 1
            kiosk_until(kiosk, lambda: kiosk.settings.host_lock.mode == "pin", "the PIN from the phone")
            mode.filter(has_text=say("phone.host_pin.state_pin")).wait_for(timeout=WAIT_MS)
            assert host.page.locator("#host-pin input[name='pin']").input_value() == ""  # not left in the form
            host.page.locator("#host-pin").screenshot(path=str(shots_dir / "host-pin-page-set.png"))
            assert kiosk.notice is not None and kiosk.notice[0] == i18n.translate(
                "en", "kiosk.notice.host_pin_set")  # the table is told that the host changed it

            # at the kiosk: Menu asks for the PIN; the host types it by touch
            touch(kiosk, i18n.translate("en", "kiosk.button.menu"))
            assert kiosk.top.name == "pin"
            for digit in PIN:
                touch(kiosk, key=("digit", digit))
            touch(kiosk, key="ok")
            assert isinstance(kiosk.top, HostMenuScreen)
            pygame.image.save(kiosk.surface, str(shots_dir / "host-pin-kiosk-menu.png"))

            # kept: the next start of the kiosk asks for the same PIN (a hash in the state directory)
            again = HostLock.load("", tmp_path)
            assert again.mode == "pin" and again.pin is not None and again.pin.matches(PIN)
            secret = PIN.encode()
            assert secret not in (tmp_path / "game.sqlite3").read_bytes()
            assert secret not in json.dumps(host.page.evaluate("() => ({...localStorage})")).encode()
            assert not any(PIN in line for line in host.console)
            assert not any(PIN in r.getMessage() for r in caplog.records)
            assert all(PIN not in f.read_text(errors="replace") for f in tmp_path.iterdir() if f.is_file())
        finally:
            host.close()


def test_pin_commands_are_refused_in_words_never_reach_the_referee_and_stay_off_every_other_topic(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    with running_table(tmp_path, players=["ana", "ben"]) as run:
        feed = KioskFeed(Waker())  # the kiosk's side of the hook: what it is handed is its inbox's
        lock_to_phones(feed, run.phones.mirror)
        topics = run.phones.topics
        host, ana, ben = joined(run, "host"), joined(run, "ana"), joined(run, "ben")  # every public topic, two seats
        before = run.events()

        def refused(who: Phone, name: str, cid: str, **args: object) -> str:
            answer = command(who, run, name, cid, "kiosk.host_pin", **args)
            assert answer["ok"] is False, answer
            return str(answer["reason"]["code"])

        assert refused(ana, "ana", "a1", pin=PIN, again=PIN) == "reject.host_pin_host_only"
        assert refused(host, "host", "h1", pin="123", again="123") == "reject.host_pin_digits"
        assert refused(host, "host", "h2", pin="123456789", again="123456789") == "reject.host_pin_digits"
        assert refused(host, "host", "h3", pin="１２３４", again="１２３４") == "reject.host_pin_digits"  # wide digits
        assert refused(host, "host", "h4", pin=7391, again=7391) == "reject.host_pin_digits"
        assert refused(host, "host", "h5", pin=PIN) == "reject.host_pin_digits"
        assert refused(host, "host", "h6", pin=PIN, again=PIN, also="x") == "reject.host_pin_digits"
        assert refused(host, "host", "h7", pin=PIN, again=PIN[::-1]) == "reject.host_pin_mismatch"
        assert feed.inbox.empty()
        answer = command(host, run, "host", "h8", "kiosk.host_pin", pin=PIN, again=PIN)
        assert answer["ok"] is True
        given = feed.inbox.get_nowait()
        assert isinstance(given, HostPinSet) and given.pin.matches(PIN)
        assert PIN not in repr(given)

        assert run.events() == before  # no PIN command is a game input: nothing in the event log
        mode = run.phones.mirror.kiosk_lock
        assert mode is not None and mode() == "off"
        views = [m for m in host.seen if m.topic == topics.view(run.cred("host").user)]
        assert views and views[-1].json().get("kiosk_lock") == {"mode": "off"}  # its mode, never a PIN
        for seen in (ana.seen, ben.seen, host.seen):  # what the table published: status, public, events, seats
            assert seen and all(PIN.encode() not in m.payload for m in seen)
        assert PIN.encode() not in (tmp_path / "game.sqlite3").read_bytes()
        assert not any(PIN in r.getMessage() for r in caplog.records)
