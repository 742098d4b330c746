"""The play screen: phase and turn, a big timer with warning colours, the latest announcements, the
game's board picture (or its public summary), and the host's menu button."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pygame

from companion.games import registry
from companion.kiosk.screens.base import Screen
from companion.kiosk.widgets import ACCENT, DANGER, DIM, FG, WARN, Button, Region, clock_text, draw_lines, panel
from companion.naming import Namer
from companion.parts.timers import remaining

ANNOUNCEMENTS_SHOWN = 4
WARN_MS = 30_000
DANGER_MS = 10_000


def main_timer(public: dict[str, Any], now: int) -> tuple[str, dict[str, Any]] | None:
    """The timer to show big: the running one with the least time left, else a paused or run-out one."""
    timers = (public.get("table") or {}).get("timers") or {}
    if not timers:
        return None
    running = [(remaining(t, now), n) for n, t in timers.items() if t["running"]]
    name = min(running)[1] if running else next(iter(timers))
    return name, timers[name]


def timer_words(tr: Callable[..., str], game: str, name: str) -> str:
    """A timer's name as the table says it: a game's timer has its own message id, else it is as named."""
    timer_id = f"timer.{game}.{name}"
    said = tr(timer_id)
    return name if said == timer_id else said


def timer_color(t: dict[str, Any], left: int) -> tuple[int, int, int]:
    if t["expired"] or (t["running"] and left <= DANGER_MS):
        return DANGER
    warn_at = max([WARN_MS // 1000, *t.get("warnings", [])]) * 1000
    if t["running"] and left <= warn_at:
        return WARN
    return FG if t["running"] else DIM


def announcement_texts(lang: str, public: dict[str, Any], count: int) -> list[str]:
    recent = public.get("announcements", [])[-count:]
    namer = Namer.of(public)  # a view as the screens get it is said already; saying it again changes nothing
    return [namer.describe(lang, a) for a in reversed(recent)]


class PlayScreen(Screen):
    name = "play"

    def _areas(self) -> dict[str, pygame.Rect]:
        L = self.k.layout
        return {
            "header": L.rect(16, 40, 768, 48),
            "timer": L.rect(16, 96, 300, 140),
            "news": L.rect(16, 244, 300, 172),
            "board": L.rect(328, 96, 456, 320),
            "footer": L.footer(),
        }

    def buttons(self) -> list[Button]:
        footer = self._areas()["footer"]
        cols = self.k.layout.columns(footer, 4)
        out = [Button(cols[3], self.tr("kiosk.button.menu"), self.k.open_menu)]
        if self.k.public.get("players") and not self.k.public.get("ended"):  # a booth without a figure
            from companion.kiosk.screens.booth_pick import BoothPickScreen
            out.insert(0, Button(cols[0], self.tr("kiosk.play.my_booth"), lambda: self.k.push(BoothPickScreen(self.k)),
                                 key="my_booth"))
        if self.k.public.get("ended"):
            from companion.kiosk.screens.reveal import RevealScreen
            out.insert(0, Button(cols[2], self.tr("kiosk.button.results"), lambda: self.k.push(RevealScreen(self.k)),
                                 "primary"))
        return out

    def next_change_ms(self, now: int) -> int | None:
        found = main_timer(self.k.public, now)
        if found is None or not found[1]["running"]:
            return None
        left = remaining(found[1], now)
        return now + (left % 1000 or 1000) if left > 0 else None

    def _of_view(self, public: dict[str, Any], lang: str) -> tuple[Any, ...]:
        """What the regions say that only the public view and the language decide, made once per view
        (a timer's second redraws the timer, not the words of the rest; docs/performance.md)."""
        memo = getattr(self, "_memo", None)
        if memo is not None and memo[0] is public and memo[1] == lang:
            return memo[2]
        names = self.player_names()
        phase, turn = public.get("phase"), public.get("turn")
        head = []
        if phase:
            phase_id = f"phase.{public.get('game')}.{phase}"  # from the game's catalog, else as the game names it
            shown = self.tr(phase_id)
            head.append(self.tr("kiosk.play.phase", phase=phase if shown == phase_id else shown))
        if turn:
            head.append(self.tr("kiosk.play.turn", player=names.get(turn, turn)))
        if not head:
            head.append(self.tr(f"game.{public.get('game')}.title"))
        news = announcement_texts(lang, public, ANNOUNCEMENTS_SHOWN)
        game = registry().get(str(public.get("game")))
        draw_board = game.board() if game is not None else None
        namer = Namer.of(public)
        in_words = ([namer.text(lang, m, p) for m, p in game.public_lines(public)]  # no picture: words
                    if game is not None and draw_board is None else [])
        board_key = (lang, public.get("announced"), public.get("corrections"), repr(public.get("table")))
        made = ("   ·   ".join(head), news, draw_board, in_words, board_key)
        self._memo = (public, lang, made)
        return made

    def regions(self) -> list[Region]:
        k, a, lang = self.k, self._areas(), self.k.lang
        now = k.now_ms()
        public = k.public
        header_text, news, draw_board, in_words, board_key = self._of_view(public, lang)

        found = main_timer(public, now)
        if found is None:
            timer_key: Any = (lang, None)
        else:
            name, t = found
            left = remaining(t, now)
            timer_key = (lang, name, clock_text(left), timer_color(t, left), t["running"], t["expired"])

        def header(surface: pygame.Surface, rect: pygame.Rect) -> None:
            self.c.text.draw(surface, header_text, rect, self.c.font(30), FG, bold=True)

        def timer(surface: pygame.Surface, rect: pygame.Rect) -> None:
            panel(surface, rect)
            if found is None:
                self.c.text.draw(surface, self.tr("kiosk.play.no_timer"), rect, self.c.font(24), DIM, align="center")
                return
            label = self.tr("kiosk.play.timer_paused" if not timer_key[4] and not timer_key[5] else
                            "kiosk.play.timer_expired" if timer_key[5] else "kiosk.play.timer",
                            name=timer_words(self.tr, str(public.get("game")), timer_key[1]))
            top = pygame.Rect(rect.left, rect.top + self.c.px(8), rect.width, self.c.px(36))
            self.c.text.draw(surface, label, top.inflate(-self.c.px(24), 0), self.c.font(22), DIM, align="center")
            big = pygame.Rect(rect.left, top.bottom, rect.width, rect.bottom - top.bottom - self.c.px(8))
            self.c.text.draw_counter(surface, timer_key[2], big.inflate(-self.c.px(24), 0), self.c.font(104),
                                     timer_key[3])

        def announcements(surface: pygame.Surface, rect: pygame.Rect) -> None:
            title = pygame.Rect(rect.left, rect.top, rect.width, self.c.px(24))
            self.c.text.draw(surface, self.tr("kiosk.play.announcements"), title, self.c.font(16), ACCENT, bold=True)
            body = pygame.Rect(rect.left, title.bottom + self.c.px(4), rect.width, rect.bottom - title.bottom)
            draw_lines(surface, self.c, news or [self.tr("kiosk.play.quiet")], body, 18, whole=True)

        def board_picture(surface: pygame.Surface, rect: pygame.Rect) -> None:
            panel(surface, rect)
            inner = rect.inflate(-self.c.px(16), -self.c.px(16))
            if draw_board is not None:
                draw_board(surface, inner, self.c, lang, public, now)
            else:  # a game without a picture: its public view in words
                draw_lines(surface, self.c, in_words, inner, 18)

        return [
            Region("play.header", a["header"], (lang, header_text), header),
            Region("play.timer", a["timer"], timer_key, timer),
            Region("play.news", a["news"], (lang, tuple(news)), announcements),
            Region("play.board", a["board"], board_key, board_picture),
            self.button_region("play.footer", a["footer"]),
        ]

    def back(self) -> None:
        pass  # the play screen is the bottom of the stack during a game
