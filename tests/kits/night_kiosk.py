"""The kiosk as a person uses it in the game-night tests: the buttons on the screen on top (their
rectangles, keys and words), a finger at a button's centre (an SDL mouse event, as a touchscreen
reports it), and screenshots. Every touch is counted."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from pathlib import Path

import pygame

from companion import i18n
from companion.kiosk.presses import post_tap
from companion.kiosk.widgets import Button
from tests.kits.night_table import Night

DOUBLE_TAP_MS = 120  # between a double tap's two touches


@dataclass
class Finger:
    """Touches on the kiosk's screen; `touches` counts them all."""

    night: Night
    shots: Path
    touches: int = 0
    seen: list[str] = field(default_factory=list)  # the screens on top, in order (each once in a row)

    def buttons(self) -> list[Button]:
        """What the screen on top offers, as it draws it."""
        return list(self.night.kiosk.top.buttons())

    def screen(self) -> str:
        return self.night.kiosk.top.name

    def touch(self, button: Button) -> None:
        """A finger on `button`'s centre, once the screen settled; the kiosk handles it on its next turn.
        A touch that brings up another screen (or another face of it) is a double tap: the finger comes
        down again at the same place 120 ms later, as an impatient host's does, and must change nothing
        (issue 28: no screen skipped, nothing sent twice)."""
        k = self.night.kiosk
        k.presses.wait_out(k.top)
        before = (k.top, k.top.face())
        post_tap(button.rect.center)
        self.touches += 1
        k.process()
        self.night.settle()
        if (k.top, k.top.face()) != before:
            self.night.sync()  # what the first touch sent is handled, and what it brought up is up
            after = (k.top, k.top.face())
            sent = len(self.night.table.referee.events)
            k.presses.clock.advance(DOUBLE_TAP_MS)
            post_tap(button.rect.center)
            k.process()
            self.night.sync()
            assert (k.top, k.top.face()) == after, f"a double tap went through to {self.screen()}"
            assert len(self.night.table.referee.events) == sent, "the double tap's second touch sent an input"
        name = self.screen()
        if not self.seen or self.seen[-1] != name:
            self.seen.append(name)

    def open_menu(self) -> None:
        """Menu, then the host's PIN on the PIN pad (the night's `[kiosk] host_pin`), as the host does:
        the host menu is up after it."""
        self.press_words("kiosk.button.menu")
        self.host_pin()
        assert self.screen() == "menu", self.screen()

    def host_pin(self) -> None:
        """The host types the night's PIN on the PIN pad (a locked table shows it before the host's screens)."""
        pin = self.night.cfg.kiosk.host_pin
        if pin not in ("", "off"):
            assert self.screen() == "pin", f"the host's screen opened without the host's PIN: {self.screen()}"
            for digit in pin:
                self.press_key(("digit", digit))
            self.press_key("ok")

    def find(self, pick: Callable[[Button], bool], what: str) -> Button:
        found = [b for b in self.buttons() if pick(b)]
        assert found, f"no {what} on {self.screen()}: {[b.label for b in self.buttons()]}"
        return found[0]

    def press_key(self, key: Hashable) -> None:
        self.touch(self.find(lambda b: b.key == key, f"button {key!r}"))

    def press_words(self, msgid: str, **params: object) -> None:
        words = i18n.translate(self.night.kiosk.lang, msgid, params)
        self.touch(self.find(lambda b: b.label == words, f"button {words!r}"))

    def shot(self, name: str) -> Path:
        """The screen as it is now, redrawn whole, saved as a PNG."""
        k = self.night.kiosk
        k.touched()
        k._drawn = None  # the next render draws every region afresh
        k.process()
        path = self.shots / f"{self.night.game}-{name}.png"
        pygame.image.save(k.surface, str(path))
        return path


def begin_game(finger: Finger) -> None:
    """From the first screen to the game being played, as a host does it: the game's title on the
    attract screen's list (paged on to it; its setup screen), "Players and options", the seating screen (the table's
    players, seated in their seats: checked, then Next), the options screen (the table's options), and
    Start, which starts the game anew by the host's `table.new_game` (the night's seed: tests/kits/
    night_table.py); then Start on the new game's setup screen."""
    night = finger.night
    k = night.kiosk
    players = [(p["id"], p["name"]) for p in k.public["players"]]
    number = k.public.get("number")
    if finger.screen() == "attract":
        finger.press_key("play")  # "Touch to play": the game list (issue 30)
    if finger.screen() == "games":
        title = i18n.translate(k.lang, f"game.{k.public['game']}.title")
        while not any(b.label == title for b in finger.buttons()):  # the list's next page ("More ›")
            finger.touch(finger.find(lambda b: isinstance(b.key, tuple) and b.key[0] == "page_more",
                                     f"{title!r} or the list's next page"))
        finger.press_words(f"game.{k.public['game']}.title")
    assert finger.screen() == "setup", finger.screen()
    finger.press_key("change")
    assert finger.screen() == "seating", finger.screen()
    seated = [i18n.translate(k.lang, "kiosk.seating.seated_as", {"number": n, "name": name})
              for n, (_, name) in enumerate(players, start=1)]
    assert [b.label for b in finger.buttons()][:len(seated)] == seated, [b.label for b in finger.buttons()]
    finger.press_key("next")
    assert finger.screen() == "options", finger.screen()
    finger.press_key("start")
    night.until(lambda: k.public.get("number") != number, "the new game started")
    assert [(p["id"], p["name"]) for p in k.public["players"]] == players
    if finger.screen() == "setup":  # a game that announces at its start (its deal) shows play at once
        finger.shot("setup")
        finger.press_key("start")
    assert finger.screen() == "play", finger.screen()


def enroll_figure(finger: Finger, uid: str, name: str) -> None:
    """A new tag tapped on the reader, and enrolled on the kiosk as `name`'s figure, by touch."""
    finger.night.tap_tag(uid)
    assert finger.screen() == "enroll", finger.screen()
    finger.press_key("start")
    finger.host_pin()  # what a tag is, the host says
    finger.press_words("kiosk.enroll.figure", player=name)
    assert finger.screen() != "enroll_choose"
