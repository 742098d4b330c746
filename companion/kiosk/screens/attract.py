"""The attract screen: the game picker and a demo loop (a recorded game replayed on screen) that runs
until someone touches the screen or taps a token (a token's input makes the kiosk show the game).

The demo is marked as one: its panel's banner says "Demo: a recorded game of <title>" and its lines are
dimmed and start with "Demo ·", so no one takes them for the table's game. Once that game has begun
(`companion.kiosk.screens.started`) the kiosk never comes back here."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

from companion.kiosk.demo import Demo
from companion.kiosk.screens.base import Screen
from companion.kiosk.screens.game_list import game_entries
from companion.kiosk.screens.paging import paged
from companion.kiosk.screens.play import announcement_texts, main_timer, timer_color
from companion.kiosk.widgets import ACCENT, BG, DIM, FG, Button, Region, clock_text, draw_lines, panel
from companion.parts.timers import remaining

if TYPE_CHECKING:
    from companion.kiosk.kiosk import Kiosk

DEMO_STEP_MS = 2500


class AttractScreen(Screen):
    name = "attract"

    def __init__(self, kiosk: Kiosk) -> None:
        super().__init__(kiosk)
        self.demo = Demo(kiosk.games, kiosk.settings.demo_script)
        self.next_step = kiosk.now_ms() + DEMO_STEP_MS
        self.page = 0

    def _areas(self) -> dict[str, pygame.Rect]:
        L = self.k.layout
        return {"title": L.rect(16, 40, 768, 56), "picker": L.rect(16, 104, 300, 312),
                "demo": L.rect(332, 104, 452, 312), "footer": L.footer()}

    def buttons(self) -> list[Button]:
        """The game list: touching a game opens the new-game flow for it (issue 21); the game the table
        is set up for now is highlighted. Paged when the games do not fit."""
        return paged(game_entries(self.k), self._areas()["picker"], self.k.layout, self.k.lang, self.page,
                     self._turn)

    def _turn(self, page: int) -> None:
        self.page = page

    def _setup(self) -> None:
        from companion.kiosk.screens.setup import SetupScreen
        self.k.stack[0] = SetupScreen(self.k)

    def tap(self, pos: tuple[int, int]) -> bool:
        if not super().tap(pos):
            self._setup()  # a touch anywhere else ends the demo
        return True

    def back(self) -> None:
        pass

    def update(self, now: int) -> None:
        if now >= self.next_step:
            self.demo.advance()
            self.next_step = now + DEMO_STEP_MS

    def next_change_ms(self, now: int) -> int | None:
        return self.next_step

    def regions(self) -> list[Region]:
        a, lang = self._areas(), self.k.lang
        public = self.demo.public()
        found = main_timer(public, self.demo.at)
        timer = None
        if found is not None:
            left = remaining(found[1], self.demo.at)
            timer = (found[0], clock_text(left), timer_color(found[1], left))
        news = [self.tr("kiosk.attract.demo_line", line=line) for line in announcement_texts(lang, public, 3)]
        banner = self.tr("kiosk.attract.demo_banner", title=self.tr(f"game.{public.get('game')}.title"))
        title = self.tr("kiosk.attract.title")
        hint = self.tr("kiosk.attract.hint")

        def heading(surface: pygame.Surface, rect: pygame.Rect) -> None:
            top, bottom = self.k.layout.rows(rect, 2, 2)
            self.c.text.draw(surface, title, top, self.c.font(30), FG, bold=True)
            self.c.text.draw(surface, hint, bottom, self.c.font(16), DIM)

        def demo(surface: pygame.Surface, rect: pygame.Rect) -> None:
            panel(surface, rect)
            inner = rect.inflate(-self.c.px(24), -self.c.px(20))
            label = pygame.Rect(inner.left, inner.top, inner.width, self.c.px(28))
            pygame.draw.rect(surface, ACCENT, label, border_radius=self.c.px(6))
            self.c.text.draw(surface, banner, label.inflate(-self.c.px(12), 0), self.c.font(16), BG, bold=True)
            y = label.bottom + self.c.px(4)
            if timer is not None:
                big = pygame.Rect(inner.left, y, inner.width, self.c.px(80))
                self.c.text.draw(surface, timer[1], big, self.c.font(64), DIM, bold=True, align="center")
                y = big.bottom + self.c.px(6)
            draw_lines(surface, self.c, news, pygame.Rect(inner.left, y, inner.width, inner.bottom - y), 16, DIM)

        return [
            Region("attract.title", a["title"], (lang, title, hint), heading),
            self.button_region("attract.picker", a["picker"]),
            Region("attract.demo", a["demo"], (lang, banner, timer, tuple(news)), demo),
        ]
