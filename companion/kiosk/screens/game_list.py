"""The games this table knows, a large card each, a page at a time (issue 21): touching one opens
the new-game flow for it (who plays, then its options, then Start). The host menu's "New game", the
reveal's "Another game" and a touch on the attract loop come here.

Each card is the game's box, from its own package (issue 30): its name, how many play and how long it
takes (`MIN_PLAYERS`, `MAX_PLAYERS`, `PLAY_MINUTES`), and one line on what the companion does for it
(its catalogs' ``game.<id>.companion``), and a small picture of its board (its package's
``box/board-<lang>.png``, companion/kiosk/box_pictures.py: read from a file, so listing the games imports
none of their rules); the game the table is set up for is highlighted."""

from __future__ import annotations

import functools
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

import pygame

from companion import i18n
from companion.games import box, box_picture, play_minutes
from companion.kiosk.screens.base import Screen
from companion.kiosk.screens.paging import Entry, paged
from companion.kiosk.widgets import ACCENT, BG, FG, FOCUS, Button, Region, draw_button, draw_lines

if TYPE_CHECKING:
    from companion.kiosk.kiosk import Kiosk


CARD_H = 104  # a game's card on the list, in design units: name, players and length, the one line
PICTURE_KEPT = (200, 146)  # a box picture's size in its file: larger than on a card on a 1080p TV (176x128)


@functools.lru_cache(maxsize=24)
def small_picture(path: Path, size: tuple[int, int]) -> pygame.Surface | None:
    """A game's box picture scaled to `size` (kept: a few small surfaces); None if it cannot be read."""
    try:
        loaded = pygame.image.load(str(path))
    except (pygame.error, OSError):
        return None
    return pygame.transform.smoothscale(loaded, size)


def box_line(k: Kiosk, game_id: str) -> str:
    """"3–6 players · 30–60 min" from the game's box (its package), in the kiosk's language."""
    b = box(k.games, game_id)
    parts = [i18n.translate(k.lang, "kiosk.box.players", {"low": b.min_players, "high": b.max_players})]
    minutes = play_minutes(k.games, game_id)
    if minutes is not None:
        parts.append(i18n.translate(k.lang, "kiosk.box.minutes", {"low": minutes[0], "high": minutes[1]}))
    return "  ·  ".join(parts)


def game_entries(k: Kiosk) -> list[Entry]:
    current = k.public.get("game")
    return [Entry(i18n.translate(k.lang, f"game.{gid}.title"), partial(choose, k, gid),
                  "primary" if gid == current else "normal", gid) for gid in k.games]


def choose(k: Kiosk, gid: str) -> None:
    """The game the table is set up for and nobody has played yet: its setup screen (its seats' QR codes,
    Start; "Players and options" there changes them). Any other game: the seating screen for it."""
    from companion.kiosk.screens import started
    from companion.kiosk.screens.setup import SetupScreen
    if gid == k.public.get("game") and not started(k.public):
        k.stack[:] = [SetupScreen(k)]
        return
    open_flow(k, gid)


def open_flow(k: Kiosk, gid: str) -> None:
    """The seating screen for `gid`, prefilled with who is known (then the options, then Start)."""
    from companion.games import box
    from companion.kiosk.newgame import plan_for
    from companion.kiosk.screens.seating import SeatingScreen
    figures = k.feed.figures() if k.feed is not None else []
    k.push(SeatingScreen(k, plan_for(box(k.games, gid), k.public, figures, k.settings.options)))


class GameListScreen(Screen):
    name = "games"

    def __init__(self, kiosk: Kiosk) -> None:
        super().__init__(kiosk)
        self.page = 0
        self.pictured: dict[str, pygame.Rect] = {}  # where each card's board picture was drawn last

    def _turn(self, page: int) -> None:
        self.page = page

    def _areas(self) -> dict[str, pygame.Rect]:
        L = self.k.layout
        return {"title": L.rect(16, 38, 768, 40), "list": L.rect(16, 82, 768, 334), "footer": L.footer()}

    def buttons(self) -> list[Button]:
        a = self._areas()
        out = paged(game_entries(self.k), a["list"], self.k.layout, self.k.lang, self.page, self._turn, columns=2,
                    row_h=CARD_H)
        cols = self.k.layout.columns(a["footer"], 4)
        return [*out, Button(cols[0], self.tr("kiosk.button.back"), self.back, key="back")]

    def regions(self) -> list[Region]:
        a, lang = self._areas(), self.k.lang
        title = self.tr("kiosk.newgame.choose")

        def heading(surface: pygame.Surface, rect: pygame.Rect) -> None:
            self.c.text.draw(surface, title, rect, self.c.font(28), FG, bold=True)

        buttons = self.buttons()
        focus = self.shown_focus()  # no ring until keys or GPIO buttons were used (issue 28)
        cards = [(b, b.key in self.k.games, box_line(self.k, str(b.key)) if b.key in self.k.games else "",
                  self.tr(f"game.{b.key}.companion") if b.key in self.k.games else "", i == focus)
                 for i, b in enumerate(buttons) if a["list"].contains(b.rect)]

        def listed(surface: pygame.Surface, rect: pygame.Rect) -> None:
            for b, is_game, facts, pitch, focused in cards:
                if is_game:
                    self._card(surface, b, facts, pitch, focused)
                else:  # "‹ Back", "More ›"
                    draw_button(surface, self.c, b, focused)

        key = (lang, tuple((b.label, b.style, tuple(b.rect), b.key, f) for b, _, _, _, f in cards))
        return [Region("games.title", a["title"], (lang, title), heading),
                Region("games.list", a["list"], key, listed),
                self.button_region("games.footer", a["footer"])]

    def _card(self, surface: pygame.Surface, b: Button, facts: str, pitch: str, focused: bool) -> None:
        """A game's box: its name, its players and length, what the companion does for it (two lines at
        most); the table's own game in the accent colour."""
        c = self.c
        fill = ACCENT if b.style == "primary" else (58, 66, 84)
        ink = BG if b.style == "primary" else FG
        pygame.draw.rect(surface, fill, b.rect, border_radius=c.px(10))
        if focused:
            pygame.draw.rect(surface, FOCUS, b.rect, width=max(2, c.px(3)), border_radius=c.px(10))
        inner = b.rect.inflate(-c.px(20), -c.px(8))
        high = [c.text.render(words, c.font(size), ink, True).get_height()
                for words, size in ((b.label, 20), (facts, 15))]
        found = box_picture(self.k.games, str(b.key), self.k.lang)
        tall = sum(high)  # as tall as the name and the numbers beside it
        shown = small_picture(found, (round(tall * PICTURE_KEPT[0] / PICTURE_KEPT[1]), tall)) if found else None
        beside = shown.get_width() + c.px(8) if shown is not None else 0  # the board's picture, top right
        if shown is not None:
            self.pictured[str(b.key)] = surface.blit(shown, (inner.right - shown.get_width(), inner.top))
        name = pygame.Rect(inner.left, inner.top, inner.width - beside, high[0])
        numbers = pygame.Rect(inner.left, name.bottom, inner.width - beside, high[1])
        c.text.draw(surface, b.label, name, c.font(20), ink, bold=True)
        c.text.draw(surface, facts, numbers, c.font(15), ink if b.style == "primary" else ACCENT, bold=True)
        body = pygame.Rect(inner.left, numbers.bottom + c.px(2), inner.width, inner.bottom - numbers.bottom - c.px(2))
        draw_lines(surface, c, [pitch], body, 15, ink, gap=2)
