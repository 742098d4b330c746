"""A tap acts once, on the screen where it began (issue 28).

A touch counts only when the finger goes down and comes up on the same button of the same screen (the
same face of it: a booth's form, a menu's confirmation), and a screen that has just come up ignores
touches that go down during its first `SETTLE_MS`. So a double tap on "Next" does not also press what the
next screen has at that place, a booth that closes under a finger does not open the menu beneath, and a
finger that went down on one screen and comes up on the next does nothing.

The time is the kiosk's input clock (`InputClock`): the monotonic clock, plus what a test or a screenshot
scene lets pass with `advance` (a person who waits before the next touch), never a wall-clock sleep.
Keys and the GPIO buttons are not held back: each press of a physical button is deliberate and
debounced by its reader (docs/kiosk.md).
"""

from __future__ import annotations

import time
from collections.abc import Hashable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import pygame

if TYPE_CHECKING:
    from companion.kiosk.screens.base import Screen

SETTLE_MS = 350  # a new screen ignores touches this long (a double tap is two touches ~100-250 ms apart)


@dataclass
class InputClock:
    """Milliseconds for input timing: monotonic, plus what `advance` let pass (`monotonic=False`: only
    that, a clock a test moves by itself, however long the machine takes between two touches)."""

    offset: int = 0
    monotonic: bool = True

    def now_ms(self) -> int:
        return (time.monotonic_ns() // 1_000_000 if self.monotonic else 0) + self.offset

    def advance(self, ms: int) -> None:
        self.offset += max(0, ms)


def widget_at(screen: Screen, pos: tuple[int, int]) -> Hashable:
    """Which of `screen`'s buttons is at `pos` (its place in the list and its key or words), else None."""
    for i, b in enumerate(screen.buttons()):
        if b.rect.collidepoint(pos):
            return (i, b.key if b.key is not None else b.label)
    return None


@dataclass
class Presses:
    """The touch going on now and since when the screen on top has been up."""

    clock: InputClock = field(default_factory=InputClock)
    settle_ms: int = SETTLE_MS
    screen: Screen | None = None
    face: Hashable = None
    since: int = 0
    pressed: tuple[Screen, Hashable, Hashable] | None = None  # (screen, its face, the widget) at the press

    def look(self, top: Screen) -> None:
        """Note the screen on top: a new one (or a new face of it) starts its settle time now."""
        face = top.face()
        if top is not self.screen or face != self.face:
            self.screen, self.face, self.since = top, face, self.clock.now_ms()
            self.pressed = None

    def settling_ms(self, top: Screen) -> int:
        """How long `top` still ignores touches."""
        self.look(top)
        return max(0, self.since + self.settle_ms - self.clock.now_ms())

    def down(self, top: Screen, pos: tuple[int, int]) -> None:
        self.pressed = None if self.settling_ms(top) else (top, top.face(), widget_at(top, pos))

    def up(self, top: Screen, pos: tuple[int, int]) -> bool:
        """Whether the touch that ends here is a tap: down and up on the same widget of the same screen."""
        self.look(top)
        pressed, self.pressed = self.pressed, None
        return pressed is not None and pressed == (top, top.face(), widget_at(top, pos))

    def wait_out(self, top: Screen) -> None:
        """Let the settle time pass (a person looking at the new screen before touching it): tests and
        the screenshot scenes, on the input clock."""
        self.clock.advance(self.settling_ms(top))


def post_tap(pos: tuple[int, int]) -> None:
    """A finger down and up at `pos`, as SDL reports a touchscreen's tap (tests and screenshot scenes)."""
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=pos))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, button=1, pos=pos))
