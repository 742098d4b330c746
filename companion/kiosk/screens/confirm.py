"""The second, deliberate step of a destructive action (issue 28): End the game, New game while one is
under way, Release a seat. It says what will happen in the reader's words and what can take it back,
and offers "Go back" on the left and the red confirm button on the right of the footer: never where
the first step's button was (those sit in the menu's grid or the seat rows, above the footer), so a
double tap cannot confirm, and the screen ignores touches while it settles (companion/kiosk/presses.py)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import pygame

from companion.kiosk.screens.base import Screen
from companion.kiosk.widgets import DANGER, FG, Button, Region, draw_lines, panel

if TYPE_CHECKING:
    from companion.kiosk.kiosk import Kiosk


class ConfirmScreen(Screen):
    name = "confirm"

    def __init__(self, kiosk: Kiosk, title: str, consequence: str, confirm: str,
                 on_confirm: Callable[[], None]) -> None:
        """`title`, `consequence` and `confirm` are translated words."""
        super().__init__(kiosk)
        self.title, self.consequence, self.confirm = title, consequence, confirm
        self.on_confirm = on_confirm

    def _areas(self) -> dict[str, pygame.Rect]:
        L = self.k.layout
        return {"title": L.rect(16, 40, 768, 48), "body": L.rect(16, 96, 768, 316), "footer": L.footer()}

    def buttons(self) -> list[Button]:
        """"Go back" first (what the focus of a key or GPIO press starts on), the confirm button wide on
        the right of the footer."""
        cols = self.k.layout.columns(self._areas()["footer"], 4)
        return [Button(cols[0], self.tr("kiosk.confirm.back"), self.back, key="keep"),
                Button(cols[2].union(cols[3]), self.confirm, self._yes, "danger", key="confirm")]

    def _yes(self) -> None:
        if self in self.k.stack:
            self.k.stack.remove(self)
        self.on_confirm()

    def regions(self) -> list[Region]:
        a, lang = self._areas(), self.k.lang
        title, body = self.title, self.consequence

        def heading(surface: pygame.Surface, rect: pygame.Rect) -> None:
            self.c.text.draw(surface, title, rect, self.c.font(28), DANGER, bold=True)

        def words(surface: pygame.Surface, rect: pygame.Rect) -> None:
            panel(surface, rect)
            inner = rect.inflate(-self.c.px(32), -self.c.px(28))
            draw_lines(surface, self.c, [body], inner, 22, FG, gap=8)

        return [Region("confirm.title", a["title"], (lang, title), heading),
                Region("confirm.body", a["body"], (lang, body), words),
                self.button_region("confirm.footer", a["footer"])]
