"""The attract screen: a reel of the games (companion/kiosk/reel.py), each replaying a stretch of its
recorded demo game on its own board, with the game's box beside it (name, players, length, what the
companion does for it), its announcements large, and a steady "Touch to play" (issue 30).

Marked as a demo on every frame: a "DEMO" badge and "Demo: a recorded game of <title>" above the board,
and the recorded game's lines dimmed and starting "Demo ·", so no one takes them for the table's game.
Once the table's game has begun (`companion.kiosk.screens.started`) the kiosk never comes back here. A touch
anywhere opens the game list (one tap); Back there is the table's own game's setup screen.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pygame

from companion.games import registry
from companion.kiosk.qr import qr_surface
from companion.kiosk.reel import Reel, chosen_games
from companion.kiosk.screens.base import Screen
from companion.kiosk.screens.game_list import box_line
from companion.kiosk.screens.play import announcement_texts
from companion.kiosk.widgets import ACCENT, BG, DIM, FG, Button, Region, draw_lines, panel

if TYPE_CHECKING:
    from companion.kiosk.demo import Demo
    from companion.kiosk.kiosk import Kiosk

DEMO_STEP_MS = 2500  # one recorded input shown every 2.5 s: a passer-by reads each line
NEWS_SHOWN = 2


class AttractScreen(Screen):
    name = "attract"

    def __init__(self, kiosk: Kiosk) -> None:
        super().__init__(kiosk)
        ids = chosen_games(kiosk.games, kiosk.settings.attract, str(kiosk.public.get("game", "")))
        self.reel = Reel(kiosk.games, ids, kiosk.settings.demo_script)
        self.next_step = kiosk.now_ms() + DEMO_STEP_MS

    @property
    def demo(self) -> Demo:
        assert self.reel.demo is not None
        return self.reel.demo

    def _areas(self) -> dict[str, pygame.Rect]:
        L = self.k.layout
        return {"mark": L.rect(16, 40, 768, 36), "board": L.rect(16, 84, 456, 332),
                "card": L.rect(484, 84, 300, 184), "news": L.rect(484, 276, 300, 140),
                "call": L.rect(16, 424, 768, 48)}

    def buttons(self) -> list[Button]:
        """The call to action, "Touch to play" (a touch anywhere else does the same)."""
        return [Button(self._areas()["call"], self.tr("kiosk.attract.touch"), lambda: open_list(self.k), "primary",
                       key="play")]

    def tap(self, pos: tuple[int, int]) -> bool:
        self.k.touched()
        open_list(self.k)  # a touch anywhere: the game list, in one tap
        return True

    def action(self, name: str) -> None:
        if name == "menu":
            super().action(name)
        else:  # a GPIO button or a key: the same as a touch
            self.k.touched()
            open_list(self.k)

    def back(self) -> None:
        pass

    def update(self, now: int) -> None:
        if now >= self.next_step:
            self.reel.advance()
            self.next_step = now + DEMO_STEP_MS

    def next_change_ms(self, now: int) -> int | None:
        return self.next_step

    def regions(self) -> list[Region]:
        a, lang = self._areas(), self.k.lang
        public = self.demo.public()
        game = str(public.get("game"))
        title = self.tr(f"game.{game}.title")
        banner = self.tr("kiosk.attract.demo_banner", title=title)
        mark = self.tr("kiosk.attract.mark")
        news = [self.tr("kiosk.attract.demo_line", line=line) for line in announcement_texts(lang, public, NEWS_SHOWN)]
        players_length = box_line(self.k, game)
        pitch = self.tr(f"game.{game}.companion")
        call, token = self.tr("kiosk.attract.touch"), self.tr("kiosk.attract.token")
        found = registry().get(game) if game in self.k.games else None
        draw_board = found.board() if found is not None else None
        at = self.demo.at
        board_key: Any = (lang, game, self.reel.index, public.get("announced"), repr(public.get("table")),
                          self.demo.index)

        def marked(surface: pygame.Surface, rect: pygame.Rect) -> None:
            badge = pygame.Rect(rect.left, rect.top, self.c.px(120), rect.height)
            pygame.draw.rect(surface, ACCENT, badge, border_radius=self.c.px(6))
            self.c.text.draw(surface, mark, badge.inflate(-self.c.px(8), 0), self.c.font(22), BG, bold=True,
                             align="center")
            rest = pygame.Rect(badge.right + self.c.px(12), rect.top, rect.right - badge.right - self.c.px(12),
                               rect.height)
            self.c.text.draw(surface, banner, rest, self.c.font(20), DIM, bold=True)

        def board(surface: pygame.Surface, rect: pygame.Rect) -> None:
            panel(surface, rect)
            inner = rect.inflate(-self.c.px(16), -self.c.px(16))
            if draw_board is not None:
                draw_board(surface, inner, self.c, lang, public, at)
            else:
                self.c.text.draw(surface, title, inner, self.c.font(40), DIM, bold=True, align="center")

        def card(surface: pygame.Surface, rect: pygame.Rect) -> None:
            panel(surface, rect)
            inner = rect.inflate(-self.c.px(20), -self.c.px(12))
            name, facts = self.k.layout.rows(pygame.Rect(inner.left, inner.top, inner.width, self.c.px(62)), 2, 2)
            self.c.text.draw(surface, title, name, self.c.font(28), FG, bold=True)
            self.c.text.draw(surface, players_length, facts, self.c.font(18), ACCENT, bold=True)
            body = pygame.Rect(inner.left, facts.bottom + self.c.px(6), inner.width, inner.bottom - facts.bottom)
            draw_lines(surface, self.c, [pitch], body, 16)

        url = self.k.settings.attract_url
        scan = self.tr("kiosk.attract.scan")

        def lines(surface: pygame.Surface, rect: pygame.Rect) -> None:
            if url is None:
                draw_lines(surface, self.c, news, rect, 20, DIM)
                return
            code = qr_surface(url, rect.height)  # the region's height: about 14 cm on a 55" TV
            surface.blit(code, (rect.left, rect.top))
            right = pygame.Rect(rect.left + code.get_width() + self.c.px(12), rect.top,
                                rect.width - code.get_width() - self.c.px(12), rect.height)
            draw_lines(surface, self.c, [scan], right, 16, ACCENT)
            top = right.top + sum(self.c.text.render(part, self.c.font(16), ACCENT).get_height() + self.c.px(6)
                                  for part in self.c.text.wrap(scan, self.c.font(16), right.width)) + self.c.px(6)
            draw_lines(surface, self.c, news[:1], pygame.Rect(right.left, top, right.width, right.bottom - top), 18,
                       DIM)

        def call_to_action(surface: pygame.Surface, rect: pygame.Rect) -> None:
            pygame.draw.rect(surface, ACCENT, rect, border_radius=self.c.px(10))
            left, right = self.k.layout.columns(rect.inflate(-self.c.px(16), 0), 2)
            self.c.text.draw(surface, call, left, self.c.font(26), BG, bold=True)
            self.c.text.draw(surface, token, right, self.c.font(16), BG, align="right")

        return [
            Region("attract.mark", a["mark"], (lang, banner, mark), marked),
            Region("attract.board", a["board"], board_key, board),
            Region("attract.card", a["card"], (lang, title, players_length, pitch), card),
            Region("attract.demo", a["news"], (lang, tuple(news), url), lines),
            Region("attract.call", a["call"], (lang, call, token), call_to_action),
        ]

    def close(self) -> None:
        self.reel.close()


def open_list(k: Kiosk) -> None:
    """The game list over the table's own game's setup screen, or over the results of the game that ended
    (Back there: that screen)."""
    from companion.kiosk.screens.game_list import GameListScreen
    from companion.kiosk.screens.reveal import RevealScreen
    from companion.kiosk.screens.setup import SetupScreen
    k.stack[:] = [RevealScreen(k) if k.public.get("ended") else SetupScreen(k), GameListScreen(k)]


def idle_due(k: Kiosk) -> int | None:
    """When the table goes back to the attract loop by itself: a game has ended and nobody has touched the
    screen (nor has the game changed) for `Settings.idle_return_s`. Never while a game is under way, nor
    when the attract loop is off; None when not due."""
    if not k.settings.idle_return_s or not k.settings.attract or not k.public.get("ended"):
        return None
    if isinstance(k.stack[0], AttractScreen):
        return None
    return k.last_touch_ms + round(k.settings.idle_return_s * 1000)


def back_to_the_loop(k: Kiosk, now: int) -> None:
    due = idle_due(k)
    if due is not None and now >= due:
        from companion.kiosk.screens.booth import BoothScreen
        for screen in k.stack:
            if isinstance(screen, BoothScreen):  # an open booth: its player's view is no longer computed
                screen.forget()
        k.stack[:] = [AttractScreen(k)]
