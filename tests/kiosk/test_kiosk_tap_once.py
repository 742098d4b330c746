"""A tap acts once, on the screen where it began (issue 28, companion/kiosk/presses.py): double taps on
the buttons that sit at the same place on consecutive screens, as a person's finger makes them (two
SDL presses 120 ms apart on the kiosk's input clock), and a finger that goes down on one screen and comes
up on the next. Every touch is at a button's centre as the screen draws it."""

from __future__ import annotations

from pathlib import Path

import pygame

from companion.drawing.text import TextCache
from companion.kiosk.feed import PublicView
from companion.kiosk.presses import SETTLE_MS
from companion.kiosk.scenes import make_scene, show_screen
from tests.kiosk.test_kiosk_new_game import lockdown_view, say, seating_for, sent
from tests.kits.kiosk_fixtures import shots_dir, surface, text, text_cache
from tests.kits.kiosk_touch import button, double_tap, slide, tap_at, touch

__all__ = ["shots_dir", "text", "text_cache"]


def test_a_double_tap_on_next_opens_the_options_and_starts_nothing(text: TextCache, shots_dir: Path) -> None:
    scene = make_scene(surface("800x480"), text, "en")
    k = seating_for(scene, "lockdown")
    pos = double_tap(k, key="next")
    assert k.top.name == "options"
    assert button(k, key="start").rect.collidepoint(pos), "Start sits where Next was: the test would be idle"
    assert sent(scene) == []  # the second touch fell in the options screen's settle time
    pygame.image.save(k.surface, str(shots_dir / "tap-once-options.png"))
    touch(k, key="start")  # a deliberate touch once the options were read
    assert [m["move"] for m in sent(scene)] == ["table.new_game"]
    scene.close()


def test_a_double_tap_on_start_does_not_skip_the_seats_codes(text: TextCache) -> None:
    scene = make_scene(surface("800x480"), text, "en")
    k = seating_for(scene, "lockdown")
    touch(k, key="next")
    pos = button(k, key="start").rect.center
    tap_at(k, pos)
    assert [m["move"] for m in sent(scene)] == ["table.new_game"]
    assert k.feed is not None
    k.feed.post(PublicView(lockdown_view({"items": "physical", "free_seconds": 300, "turn_seconds": 90})))
    k.process()  # the table began the new game: its setup screen with the seats' codes
    assert k.top.name == "setup"
    assert button(k, key="start").rect.collidepoint(pos)
    k.presses.clock.advance(120)  # the double tap's second touch
    tap_at_once(k, pos)
    assert k.top.name == "setup", "the seats' codes stay up"
    touch(k, key="start")
    assert k.top.name == "play"
    scene.close()


def tap_at_once(k: object, pos: tuple[int, int]) -> None:
    """A touch now, without waiting for the screen to settle (a finger already on its way)."""
    from companion.kiosk.kiosk import Kiosk
    from companion.kiosk.presses import post_tap
    assert isinstance(k, Kiosk)
    post_tap(pos)
    k.process()


def test_a_booths_done_does_not_open_the_menu_beneath(text: TextCache) -> None:
    scene = make_scene(surface("800x480"), text, "en")
    k = scene.kiosk
    show_screen(scene, "booth")
    assert k.top.name == "booth"
    pos = double_tap(k, key="done")
    assert k.top.name == "play", "the booth closed and the play screen stays"
    menu = button(k, say(k, "kiosk.button.menu"))
    assert menu.rect.collidepoint(pos), "the menu button sits where Done was"
    touch(k, say(k, "kiosk.button.menu"))  # a deliberate touch opens it
    assert k.top.name == "menu"
    scene.close()


def test_a_touch_that_began_on_another_screen_does_nothing(text: TextCache) -> None:
    scene = make_scene(surface("800x480"), text, "en")
    k = scene.kiosk
    show_screen(scene, "play")
    menu = button(k, say(k, "kiosk.button.menu")).rect.center
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=menu))
    k.process()
    scene.tap_token("ana")  # Ana's figure opens her booth under the finger
    assert k.top.name == "booth"
    done = button(k, key="done")
    assert done.rect.collidepoint(menu)
    k.presses.clock.advance(SETTLE_MS * 3)
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, button=1, pos=menu))
    k.process()
    assert k.top.name == "booth", "the finger lifted on the booth's Done did not close it"
    scene.close()


def test_a_finger_that_slides_off_its_button_does_nothing(text: TextCache) -> None:
    scene = make_scene(surface("800x480"), text, "en")
    k = scene.kiosk
    show_screen(scene, "play")
    menu = button(k, say(k, "kiosk.button.menu")).rect
    slide(k, menu.center, (menu.centerx, menu.top - k.layout.px(60)))
    assert k.top.name == "play"
    slide(k, menu.center, (menu.left + 2, menu.bottom - 2))  # still on the button when lifted: a tap
    assert k.top.name == "menu"
    scene.close()


def test_a_double_tap_on_end_or_release_asks_and_does_nothing_yet(text: TextCache) -> None:
    from companion.kiosk.screenshots import example_seats
    scene = make_scene(surface("800x480"), text, "th", seats=example_seats())
    k = scene.kiosk
    show_screen(scene, "menu")
    sent(scene)
    end = next(b for b in k.top.buttons() if str(b.key).startswith("end:"))
    double_tap(k, end.label)
    assert k.top.name == "confirm" and sent(scene) == []  # the second touch fell on the settling step
    touch(k, key="keep")
    assert k.top.name == "menu"
    touch(k, key="s")  # Phones and seats: Ben's phone holds his seat
    assert k.top.name == "phones"
    double_tap(k, key=("release", "ben"))
    assert k.top.name == "confirm"
    assert k.settings.seats is not None and k.settings.seats.bound("ben")  # nothing released yet
    touch(k, key="confirm")
    assert not k.settings.seats.bound("ben") and k.top.name == "phones"
    scene.close()
