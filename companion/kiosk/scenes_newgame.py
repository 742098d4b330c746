"""The new-game screens for screenshots and tests (issue 21), each reached by touching what a host
touches: the game list (host menu, "New game"), seating (Jailbreak chosen on the attract screen, two
players unseated so the screen says why it waits), the keyboard (a name half typed) and Lockdown's
options (one changed from its default)."""

from __future__ import annotations

from collections.abc import Hashable
from typing import TYPE_CHECKING

from companion.kiosk.presses import post_tap
from companion.kiosk.screens.keyboard import KeyboardScreen
from companion.taps.registry import PLAYER, Token

if TYPE_CHECKING:
    from companion.kiosk.kiosk import Kiosk
    from companion.kiosk.scenes import Scene

NEW_GAME_SCREENS = ("games", "seating", "keyboard", "options")
FIGURE = "04E0E0E0E0E001"  # Eve's figure, enrolled on an earlier night


def _touch(k: Kiosk, key: Hashable) -> None:
    b = next(b for b in k.top.buttons() if b.key == key)
    k.presses.wait_out(k.top)  # the person reads the new screen first
    post_tap(b.rect.center)
    k.process()


def show_new_game_screen(scene: Scene, name: str) -> None:
    k = scene.kiosk
    scene.tokens.enroll(Token(FIGURE, "toolkit", PLAYER, "eve", "Eve"))
    if name == "games":
        k.open_menu()
        k.process()
        _touch(k, "n")
        return
    _touch(k, "play")  # the attract loop's "Touch to play": the game list
    if name == "seating":
        _touch(k, "jailbreak")
        _touch(k, ("player", "chai"))
        _touch(k, ("player", "dao"))
        return
    _touch(k, "lockdown")
    if name == "keyboard":
        _touch(k, "add")
        keyboard = k.top
        assert isinstance(keyboard, KeyboardScreen)
        if keyboard.layout_name == "latin":
            _touch(k, "shift")  # a capital
        for ch in "Mi" if keyboard.layout_name == "latin" else "มิ":
            _touch(k, ("key", ch))
        return
    _touch(k, "next")
    _touch(k, ("choice", "items", "physical"))
