"""The kiosk as a person uses it in the game-night tests: the buttons on the screen on top (their
rectangles, keys and words), a finger at a button's centre (an SDL mouse event, as a touchscreen
reports it), and screenshots. Every touch is counted."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from pathlib import Path

import pygame

from companion import i18n
from companion.kiosk.widgets import Button
from tests.kits.night_table import Night


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
        """A finger on `button`'s centre; the kiosk handles it on its next turn."""
        pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=button.rect.center))
        self.touches += 1
        self.night.kiosk.process()
        self.night.settle()
        name = self.screen()
        if not self.seen or self.seen[-1] != name:
            self.seen.append(name)

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
    finger.press_words("kiosk.enroll.figure", player=name)
    assert finger.screen() != "enroll_choose"
