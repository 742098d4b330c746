"""What every screen is: regions to draw, buttons to press, and answers to the four actions.

The actions are what every input device can say: ``next`` (move the focus), ``select`` (press the
focused button), ``back`` and ``menu``. Touch and mouse press buttons directly; the keyboard and the
GPIO buttons send actions.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import TYPE_CHECKING, Any

import pygame

from companion import i18n
from companion.kiosk.widgets import Button, Canvas, Region, draw_button

if TYPE_CHECKING:
    from companion.kiosk.kiosk import Kiosk


class Screen:
    name = "screen"
    audience = "public"  # whose view the screen draws from: "public", or "player:<id>" (the booth)

    def __init__(self, kiosk: Kiosk) -> None:
        self.k = kiosk
        self.focus = 0

    # -- what to draw -----------------------------------------------------------------------------------

    def regions(self) -> list[Region]:
        return []

    def buttons(self) -> list[Button]:
        return []

    def face(self) -> Hashable:
        """Which face of the screen is up (a booth's form, a menu's step): a new face is a new screen
        for touches (companion/kiosk/presses.py)."""
        return None

    def next_change_ms(self, now: int) -> int | None:
        """Table time at which a region will change by itself (a countdown's next second), if any."""
        return None

    # -- what happens -----------------------------------------------------------------------------------

    def update(self, now: int) -> None:
        """Called on every loop turn: time-outs, auto-advance."""

    def on_public(self) -> None:
        """The public view changed."""

    def back(self) -> None:
        self.k.pop()

    def action(self, name: str) -> None:
        self.k.touched()
        buttons = self.buttons()
        if name == "next" and buttons:
            self.focus = (self.focus + 1) % len(buttons)
        elif name == "prev" and buttons:
            self.focus = (self.focus - 1) % len(buttons)
        elif name == "select" and buttons:
            buttons[min(self.focus, len(buttons) - 1)].action()
        elif name == "back":
            self.back()
        elif name == "menu":
            self.k.open_menu()

    def tap(self, pos: tuple[int, int]) -> bool:
        self.k.touched()
        for i, b in enumerate(self.buttons()):
            if b.rect.collidepoint(pos):
                self.focus = i
                b.action()
                return True
        return False

    # -- helpers ----------------------------------------------------------------------------------------

    def tr(self, msgid: str, **params: Any) -> str:
        return i18n.translate(self.k.lang, msgid, params)

    @property
    def c(self) -> Canvas:
        return self.k.canvas

    def shown_focus(self) -> int:
        """The button whose focus ring shows: none until GPIO buttons or keys were used at this kiosk, so
        a ring never sits on a choice nobody touched, reading as a preselection (issue 28)."""
        return self.focus % max(1, len(self.buttons())) if self.k.keyed else -1

    def button_region(self, name: str, area: pygame.Rect) -> Region:
        """A region that draws the screen's buttons lying inside `area`."""
        inside = [(i, b) for i, b in enumerate(self.buttons()) if area.contains(b.rect)]
        focus = self.shown_focus()
        key: Hashable = tuple((b.label, b.style, tuple(b.rect), b.key, i == focus) for i, b in inside)

        def draw(surface: pygame.Surface, rect: pygame.Rect) -> None:
            for i, b in inside:
                draw_button(surface, self.c, b, i == focus)

        return Region(name, area, key, draw, self.audience)

    def player_names(self) -> dict[str, str]:
        return {p["id"]: p["name"] for p in self.k.public.get("players", [])}
