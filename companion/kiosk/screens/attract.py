"""The attract screen: a reel of the games (companion/kiosk/reel.py), each replaying a stretch of its
recorded demo game on its own board, with the game's box beside it (name, players, length, what the
companion does for it), its announcements large, and a steady "Touch to play" (issue 30).

Marked as a demo on every frame: a "DEMO" badge and "Demo: a recorded game of <title>" above the board,
and the recorded game's lines dimmed and starting "Demo ·", so no one takes them for the table's game.
Once the table's game has begun (`companion.kiosk.screens.started`) the kiosk never comes back here. A touch
anywhere opens the game list (one tap); Back there is the table's own game's setup screen.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import pygame

from companion.games import registry
from companion.kiosk.layout import Layout
from companion.kiosk.qr import qr_surface
from companion.kiosk.reel import Reel, chosen_games
from companion.kiosk.screens.base import Screen
from companion.kiosk.screens.game_list import box_line
from companion.kiosk.screens.play import announcement_texts
from companion.kiosk.widgets import ACCENT, BG, DIM, FG, Button, Canvas, Region, draw_lines, panel

if TYPE_CHECKING:
    from companion.kiosk.demo import Demo
    from companion.kiosk.kiosk import Kiosk

DEMO_STEP_MS = 2500  # one recorded input shown every 2.5 s: a passer-by reads each line
NEWS_SHOWN = 2


class AttractScreen(Screen):
    name = "attract"

    def __init__(self, kiosk: Kiosk) -> None:
        super().__init__(kiosk)
        self.reel = Reel(kiosk.games, self._chosen(), kiosk.settings.demo_script)
        self.next_step = kiosk.now_ms() + DEMO_STEP_MS
        self.games_shown = 0  # games the reel has moved on to: the spectators' credentials in turn

    def _chosen(self) -> list[str]:
        return chosen_games(self.k.games, self.k.settings.attract, str(self.k.public.get("game", "")))

    @property
    def demo(self) -> Demo:
        assert self.reel.demo is not None
        return self.reel.demo

    @property
    def look(self) -> Look:
        L = self.k.layout
        return tv_look(L, self.scan() is not None) if is_tv(L) else panel_look(L)

    def buttons(self) -> list[Button]:
        """The call to action, "Touch to play" (a touch anywhere else does the same)."""
        return [Button(self.look.call, self.tr("kiosk.attract.touch"), lambda: open_list(self.k), "primary",
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
        chosen = self._chosen()
        if chosen != self.reel.ids and self.k.settings.demo_script is None:  # the host's choice, or the game
            self.reel.close()
            self.reel = Reel(self.k.games, chosen)
            self.next_step = now + DEMO_STEP_MS
        if now >= self.next_step:
            if self.reel.advance():
                self.games_shown += 1
            self.next_step = now + DEMO_STEP_MS

    def next_change_ms(self, now: int) -> int | None:
        return self.next_step

    def scan(self) -> tuple[str, str] | None:
        """The QR code's link and the line saying what it opens: the host's page (`display.attract_url`),
        else the table's own spectator page when phones are served and spectators allowed; else none."""
        if self.k.settings.attract_url is not None:
            return self.k.settings.attract_url, self.tr("kiosk.attract.scan")
        seats = self.k.settings.seats
        watch = seats.watch_url(self.games_shown) if seats is not None else None
        return None if watch is None else (watch, self.tr("kiosk.attract.scan_watch"))

    def regions(self) -> list[Region]:
        look, lang, c = self.look, self.k.lang, self.c
        size = look.size
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
        scan = self.scan()

        def marked(surface: pygame.Surface, rect: pygame.Rect) -> None:
            badge = pygame.Rect(rect.left, rect.top, rect.height * 10 // 3, rect.height)
            pygame.draw.rect(surface, ACCENT, badge, border_radius=c.px(6))
            c.text.draw(surface, mark, badge.inflate(-c.px(8), 0), c.font(size["mark"]), BG, bold=True,
                        align="center")
            rest = pygame.Rect(badge.right + c.px(12), rect.top, rect.right - badge.right - c.px(12), rect.height)
            c.text.draw(surface, banner, rest, c.font(size["banner"]), DIM, bold=True)

        def board(surface: pygame.Surface, rect: pygame.Rect) -> None:
            panel(surface, rect)
            inner = rect.inflate(-c.px(16), -c.px(16))
            if draw_board is not None:
                draw_board(surface, inner, c, lang, public, at)
            else:
                c.text.draw(surface, title, inner, c.font(40), DIM, bold=True, align="center")

        def card(surface: pygame.Surface, rect: pygame.Rect) -> None:
            panel(surface, rect)
            inner = rect.inflate(-c.px(20), -c.px(12))
            high = [c.text.render(words, c.font(size[part]), FG, True).get_height()
                    for words, part in ((title, "title"), (players_length, "facts"))]
            name = pygame.Rect(inner.left, inner.top, inner.width, high[0])
            facts = pygame.Rect(inner.left, name.bottom + c.px(2), inner.width, high[1])
            c.text.draw(surface, title, name, c.font(size["title"]), FG, bold=True)
            c.text.draw(surface, players_length, facts, c.font(size["facts"]), ACCENT, bold=True)
            body = pygame.Rect(inner.left, facts.bottom + c.px(6), inner.width, inner.bottom - facts.bottom - c.px(6))
            draw_lines(surface, c, [pitch], body, size["pitch"])

        def announcements(surface: pygame.Surface, rect: pygame.Rect) -> None:
            fits = whole_size(c, news[:1], rect, size["news"])  # the latest whole, smaller if need be
            if fits is not None:
                draw_lines(surface, c, news, rect, fits, DIM, whole=True)

        def code(surface: pygame.Surface, rect: pygame.Rect) -> None:
            if scan is None:  # the panel without a code: the announcements in its place
                announcements(surface, rect)
                return
            url, what = scan
            shown = qr_surface(url, min(rect.height, rect.width * 2 // 3))  # a whole number of px a module
            surface.blit(shown, (rect.left, rect.top))
            gap = c.px(12)
            right = pygame.Rect(rect.left + shown.get_width() + gap, rect.top, rect.width - shown.get_width() - gap,
                                rect.height)
            said = draw_lines(surface, c, [what], right, size["scan"], ACCENT)
            if not look.tv:  # the panel: the latest announcement below the line, beside the code
                px = c.font(size["scan"])
                top = right.top + sum(c.text.render(part, px, ACCENT).get_height() + c.px(6)
                                      for part in c.text.wrap(what, px, right.width)[:said]) + c.px(6)
                beside = pygame.Rect(right.left, top, right.width, right.bottom - top)
                fits = whole_size(c, news[:1], beside, size["news_beside"])  # whole, or not at all: the board
                if fits is not None:  # shows the game, the announcements are its words
                    draw_lines(surface, c, news[:1], beside, fits, DIM)

        def call_to_action(surface: pygame.Surface, rect: pygame.Rect) -> None:
            pygame.draw.rect(surface, ACCENT, rect, border_radius=c.px(10))
            left, right = self.k.layout.columns(rect.inflate(-c.px(16), 0), 2)
            c.text.draw(surface, call, left, c.font(size["call"]), BG, bold=True)
            c.text.draw(surface, token, right, c.font(size["token"]), BG, align="right")

        out = [
            Region("attract.mark", look.mark, (lang, banner, mark), marked),
            Region("attract.board", look.board, board_key, board),
            Region("attract.card", look.card, (lang, title, players_length, pitch), card),
            Region("attract.call", look.call, (lang, call, token), call_to_action),
        ]
        if not look.tv:  # the panel: the code and the latest announcement, or the announcements, in one place
            out.append(Region("attract.demo", look.news, (lang, scan, tuple(news)), code))
            return out
        if scan is not None:
            out.append(Region("attract.code", look.code, (lang, scan), code))
        out.append(Region("attract.demo", look.news, (lang, tuple(news)), announcements))
        return out

    def close(self) -> None:
        self.reel.close()


@dataclass(frozen=True)
class Look:
    """Where the attract screen's parts go and their type sizes (design units, `Layout.font`)."""

    tv: bool
    mark: pygame.Rect
    board: pygame.Rect
    card: pygame.Rect  # the game's box
    code: pygame.Rect  # the QR code and its line (the panel: the same place as the announcements)
    news: pygame.Rect  # the recorded game's announcements (the panel: the code and the latest one, if a code)
    call: pygame.Rect
    size: dict[str, float]


PANEL_SIZES = {"mark": 22, "banner": 20, "title": 28, "facts": 18, "pitch": 16, "news": 20, "scan": 16,
               "news_beside": 18, "call": 26, "token": 16}
#: A TV's type in pixels at 1080 lines (the design's 16:9 grid; docs/kiosk.md says why): the announcements
#: 48 px (letters about 2 cm tall on a 55" set, 22 minutes of arc at 3 m), the game's name 64 px.
TV_PX = {"mark": 44, "banner": 40, "title": 64, "facts": 38, "pitch": 34, "news": 48, "scan": 36,
         "news_beside": 36, "call": 56, "token": 34}


def whole_size(c: Canvas, lines: list[str], rect: pygame.Rect, size: float, smallest: float = 14,
               gap: float = 6) -> float | None:
    """The largest size from `size` down to `smallest` (design units) at which `lines` fit `rect` whole,
    as `draw_lines` wraps them; None when they do not fit even at `smallest` (never cut mid-sentence:
    issue 28's "Action phase: go to the")."""
    while True:
        px = c.font(size)
        tall = sum(c.text.render(part, px, DIM).get_height() + c.px(gap)
                   for line in lines for part in c.text.wrap(line, px, rect.width)) - c.px(gap)
        if tall <= rect.height:
            return size
        if size <= smallest:
            return None
        size = max(smallest, size * 0.9)


def is_tv(layout: Layout) -> bool:
    """A 16:9 screen of 720 lines or more (1280x720, 1366x768, 1920x1080...): a TV, not the 7" panel."""
    return layout.height >= 720 and layout.width * 10 >= layout.height * 17


def panel_look(L: Layout) -> Look:
    """The 7" panel's design (800x480, scaled on other 5:3 screens)."""
    return Look(False, L.rect(16, 40, 768, 36), L.rect(16, 84, 456, 332), L.rect(484, 84, 300, 184),
                L.rect(484, 276, 300, 140), L.rect(484, 276, 300, 140), L.rect(16, 424, 768, 48), dict(PANEL_SIZES))


def tv_look(L: Layout, code: bool) -> Look:
    """A TV's own layout on a 1920x1080 grid (scaled to the screen's height, centred): the board on the
    left, the game's box at the top of the right column. With a QR code, the code below the box, 404 px
    tall (7 px a module for a spectator's link: about 23 cm on a 55" set, read from 2 m), and the latest
    announcement under the board (a line of 72 px: the board is 720 px tall, 320 design units, never
    shorter than the play screen's, whose pictures are laid out for it); without one, the board the whole
    height and the announcements below the box."""
    f = L.height / 1080
    ox = round((L.width - 1920 * f) / 2)

    def at(x: int, y: int, w: int, h: int) -> pygame.Rect:
        left, top = ox + round(x * f), round(y * f)
        return pygame.Rect(left, top, ox + round((x + w) * f) - left, round((y + h) * f) - top)

    units = f / L.scale  # a pixel at 1080 lines, in the design units `Layout.font` takes
    board, news = (at(40, 156, 1150, 720), at(40, 884, 1150, 72)) if code else (at(40, 156, 1150, 792),
                                                                                at(1220, 544, 660, 404))
    return Look(True, at(40, 84, 1840, 60), board, at(1220, 156, 660, 372), at(1220, 544, 660, 404), news,
                at(40, 960, 1840, 108), {part: px * units for part, px in TV_PX.items()})


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
