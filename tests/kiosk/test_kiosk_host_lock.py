"""The host lock (issue 28; docs/kiosk.md, "The host lock"), by touch on the real kiosk: the host menu
opens only after the host's PIN on the PIN pad (a touch on Menu, the M key or the GPIO gesture alike),
the host's own QR code is never on the shared screen before it, wrong PINs make the pad wait, a PIN
chosen on the kiosk is kept (hashed) for the next start, and a player seated without a figure opens their
booth with a PIN of their own, chosen with the host's leave. Screens checked in zh, th and en at 800x480:
keys of 48 px and more, text of 14 px and more, nothing cut."""

from __future__ import annotations

import json
import stat
from pathlib import Path

import pygame
import pytest

from companion import i18n
from companion.config import load
from companion.drawing.text import TextCache
from companion.kiosk.engine import settings_from
from companion.kiosk.host_lock import PIN_FILE, TRIES, WAIT_MS, HostLock, Pin
from companion.kiosk.kiosk import Kiosk
from companion.kiosk.scenes import Scene, make_scene, show_screen
from companion.kiosk.seats import ShownSeats
from tests.kits.kiosk_fixtures import shots_dir, surface, text, text_cache, text_problems
from tests.kits.kiosk_touch import button, touch
from tests.security.test_security_seats_kiosk import codes_on

__all__ = ["shots_dir", "text", "text_cache"]
HOST_PIN = "2468"


def say(k: Kiosk, msgid: str, **params: object) -> str:
    return i18n.translate(k.lang, msgid, params)


def host_url(pid: str | None) -> str:
    return f"http://table.local:8080/#j=host-secret-{pid or 'host'}"


def locked_scene(text: TextCache, lang: str = "en") -> Scene:
    """A table whose host locked the menu with `HOST_PIN`, phones served (the host's code exists)."""
    scene = make_scene(surface("800x480"), text, lang, seats=ShownSeats(host_url))
    scene.kiosk.settings.host_lock = HostLock("pin", Pin.of(HOST_PIN))
    return scene


def shown(k: Kiosk, text: TextCache) -> str:
    """The screen's text, lines joined without spaces (a message wraps over several lines)."""
    return "".join(redraw(k, text)).replace(" ", "")


def type_pin(k: Kiosk, pin: str) -> None:
    for d in pin:
        touch(k, key=("digit", d))
    touch(k, key="ok")


def redraw(k: Kiosk, text: TextCache) -> list[str]:
    text.record = []
    k._drawn = None
    k.touched()
    k.process()
    return [d.text for d in text.record]


def check_screen(k: Kiosk, text: TextCache, shots: Path, name: str) -> None:
    redraw(k, text)
    pygame.image.save(k.surface, str(shots / f"{name}.png"))
    assert not text_problems(text.record)
    assert all(d.surface.get_height() >= 14 for d in text.record if d.text.strip()), name
    for b in k.top.buttons():
        assert b.rect.width >= 48 and b.rect.height >= 48, (name, b.label, tuple(b.rect))


@pytest.mark.parametrize("lang", ["en", "zh", "th"])
def test_the_host_menu_asks_for_the_host_pin_and_the_host_code_stays_hidden(lang: str, text: TextCache,
                                                                          shots_dir: Path) -> None:
    scene = locked_scene(text, lang)
    k = scene.kiosk
    show_screen(scene, "play")
    touch(k, say(k, "kiosk.button.menu"))
    assert k.top.name == "pin"
    check_screen(k, text, shots_dir, f"pin-host-{lang}")
    assert not codes_on(k.surface)  # nothing to scan before the PIN
    type_pin(k, "1111")
    assert k.top.name == "pin" and say(k, "kiosk.pin.wrong").replace(" ", "") in shown(k, text)
    check_screen(k, text, shots_dir, f"pin-host-wrong-{lang}")
    type_pin(k, HOST_PIN)
    assert k.top.name == "menu"
    touch(k, key="s")  # Phones and seats: the host's code, now that the host is at the screen
    assert host_url(None) in codes_on(k.surface)
    touch(k, key="back")
    assert k.top.name == "play"
    touch(k, say(k, "kiosk.button.menu"))
    assert k.top.name == "pin", "each opening asks again"
    scene.close()


def test_the_m_key_and_the_gpio_gesture_open_the_pin_pad_which_the_buttons_can_type(text: TextCache) -> None:
    scene = locked_scene(text)
    k = scene.kiosk
    show_screen(scene, "play")
    k.press("menu")  # the GPIO buttons' host gesture (and the M key) say "menu"
    k.process()
    assert k.top.name == "pin"
    k.press("menu")  # again: still the pad, never the menu behind it
    k.process()
    assert k.top.name == "pin"
    keys = [b.key for b in k.top.buttons()]
    for d in HOST_PIN:  # "next" moves the focus to the digit, "select" presses it
        while keys[k.top.focus % len(keys)] != ("digit", d):
            k.press("next")
            k.process()
        k.press("select")
        k.process()
    while keys[k.top.focus % len(keys)] != "ok":
        k.press("next")
        k.process()
    k.press("select")
    k.process()
    assert k.top.name == "menu"
    scene.close()


def test_wrong_pins_make_the_pad_wait(text: TextCache) -> None:
    scene = locked_scene(text)
    k = scene.kiosk
    show_screen(scene, "play")
    touch(k, say(k, "kiosk.button.menu"))
    for _ in range(TRIES):
        type_pin(k, "0000")
    type_pin(k, HOST_PIN)  # the right one, too soon: not even checked
    assert k.top.name == "pin"
    assert say(k, "kiosk.pin.wait", seconds=WAIT_MS // 1000).replace(" ", "") in shown(k, text)
    k.presses.clock.advance(WAIT_MS)
    type_pin(k, HOST_PIN)
    assert k.top.name == "menu"
    scene.close()


def test_the_host_chooses_the_pin_on_the_kiosk_and_it_is_kept_hashed(tmp_path: Path, text: TextCache,
                                                                    shots_dir: Path) -> None:
    scene = make_scene(surface("800x480"), text, "th")
    k = scene.kiosk
    cfg = load(flags={"storage.path": str(tmp_path / "companion.sqlite3")}, env={}, system_path=None,
               user_path=None)
    k.settings.host_lock = settings_from(cfg).host_lock
    assert k.settings.host_lock.mode == "unset"
    show_screen(scene, "play")
    touch(k, say(k, "kiosk.button.menu"))
    assert k.top.name == "pin" and button(k, key="no_lock")
    check_screen(k, text, shots_dir, "pin-choose-th")
    type_pin(k, "1357")
    type_pin(k, "7531")  # a slip: typed again, differently
    assert k.top.name == "pin"
    assert say(k, "kiosk.pin.mismatch").replace(" ", "") in shown(k, text)
    type_pin(k, "1357")
    type_pin(k, "1357")
    assert k.top.name == "menu"
    kept = tmp_path / PIN_FILE
    assert stat.S_IMODE(kept.stat().st_mode) == 0o600
    assert "1357" not in kept.read_text() and set(json.loads(kept.read_text())) == {"salt", "digest"}
    again = settings_from(cfg).host_lock  # the next start
    assert again.mode == "pin" and again.pin is not None and again.pin.matches("1357")
    off = load(flags={"storage.path": str(tmp_path / "companion.sqlite3"), "kiosk.host_pin": "off"}, env={},
               system_path=None, user_path=None)
    assert not settings_from(off).host_lock.locked  # the config wins: a family table
    scene.close()


def test_no_lock_for_a_family_table(tmp_path: Path, text: TextCache) -> None:
    scene = make_scene(surface("800x480"), text, "zh")
    k = scene.kiosk
    k.settings.host_lock = HostLock.load("", tmp_path)
    show_screen(scene, "play")
    touch(k, say(k, "kiosk.button.menu"))
    touch(k, key="no_lock")
    assert k.top.name == "menu"
    assert HostLock.load("", tmp_path).mode == "off"
    scene.close()


@pytest.mark.parametrize("lang", ["en", "zh", "th"])
def test_a_player_without_a_figure_opens_their_booth_by_their_own_pin(lang: str, text: TextCache,
                                                                     shots_dir: Path) -> None:
    scene = locked_scene(text, lang)
    k = scene.kiosk
    show_screen(scene, "play")
    ana = k.public["players"][0]["name"]
    touch(k, key="my_booth")
    assert k.top.name == "booth_pick"
    check_screen(k, text, shots_dir, f"booth-pick-{lang}")
    touch(k, key=("player", "ana"))
    assert k.top.name == "pin" and k.top.kind == "host_for_booth"  # type: ignore[attr-defined]
    type_pin(k, "9999")  # not the host: no PIN for Ana
    assert k.top.kind == "host_for_booth"  # type: ignore[attr-defined]
    type_pin(k, HOST_PIN)
    assert k.top.kind == "booth_choose"  # type: ignore[attr-defined]
    check_screen(k, text, shots_dir, f"pin-booth-choose-{lang}")
    type_pin(k, "4321")
    type_pin(k, "4321")
    scene.pump()  # the table's loop reads Ana's view and the booth opens
    assert k.top.name == "booth" and k.top.player == "ana"  # type: ignore[attr-defined]
    touch(k, key="done")
    assert k.top.name == "play"
    touch(k, key="my_booth")
    assert button(k, key=("player", "ana")).label == ana  # her PIN is set: her name alone
    touch(k, key=("player", "ana"))
    assert k.top.kind == "booth"  # type: ignore[attr-defined]
    type_pin(k, "1234")
    assert k.top.name == "pin"
    scene.pump()
    assert k.top.name == "pin"  # a wrong PIN opens nothing
    type_pin(k, "4321")
    scene.pump()
    assert k.top.name == "booth" and k.top.player == "ana"  # type: ignore[attr-defined]
    scene.close()


@pytest.mark.parametrize(("size", "private"), [("800x480", True), ("1024x600", True), ("1280x800", True),
                                               ("1280x720", False), ("1920x1080", False)])
def test_the_booth_says_only_you_see_this_only_on_a_panel(size: str, private: bool, text: TextCache) -> None:
    scene = make_scene(surface(size), text, "en")
    k = scene.kiosk
    show_screen(scene, "booth")
    drawn = redraw(k, text)
    panel = say(k, "kiosk.booth.title", player="Ana")
    shared = say(k, "kiosk.booth.title_shared", player="Ana")
    assert (panel in drawn, shared in drawn) == (private, not private)
    scene.close()


def test_only_the_host_says_what_a_new_tag_is(text: TextCache) -> None:
    scene = locked_scene(text)
    k = scene.kiosk
    show_screen(scene, "play")
    scene.tap_unknown()  # a new tag on the reader: the prompt, for anyone to see
    assert k.top.name == "enroll"
    touch(k, key="start")  # "enroll it": a figure would open its player's booth, so the host's PIN first
    assert k.top.name == "pin"
    type_pin(k, "1111")
    assert k.top.name == "pin"
    type_pin(k, HOST_PIN)
    assert k.top.name == "enroll_choose"
    scene.close()


def test_a_booth_pin_stays_with_its_person_not_with_a_seat_id(text: TextCache) -> None:
    from companion.kiosk.feed import PublicView
    scene = locked_scene(text)
    k = scene.kiosk
    k.settings.host_lock.set_booth_pin("ana", "Ana", "4321")
    k.settings.host_lock.set_booth_pin("ben", "Ben", "8765")
    assert k.feed is not None
    players = [{"id": "ana", "name": "Ana"}, {"id": "ben", "name": "Mia"}]  # Ben left; Mia got his id
    k.feed.post(PublicView({**k.public, "number": 1}))
    k.process()
    k.feed.post(PublicView({**k.public, "number": 2, "players": players}))
    k.process()
    assert k.top.name == "setup"
    lock = k.settings.host_lock
    assert lock.booth_pin("ana") is not None and lock.booth_pin("ben") is None
    scene.close()
