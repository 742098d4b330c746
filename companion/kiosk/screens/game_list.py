"""The games this table knows, a large button each, a page at a time (issue 21): touching one opens
the new-game flow for it (who plays, then its options, then Start). The host menu's "New game" and the
reveal's "Another game" come here; the attract screen shows the same list beside its demo."""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING

import pygame

from companion import i18n
from companion.kiosk.screens.base import Screen
from companion.kiosk.screens.paging import Entry, paged
from companion.kiosk.widgets import FG, Button, Region

if TYPE_CHECKING:
    from companion.kiosk.kiosk import Kiosk


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

    def _turn(self, page: int) -> None:
        self.page = page

    def _areas(self) -> dict[str, pygame.Rect]:
        L = self.k.layout
        return {"title": L.rect(16, 40, 768, 44), "list": L.rect(16, 92, 768, 324), "footer": L.footer()}

    def buttons(self) -> list[Button]:
        a = self._areas()
        out = paged(game_entries(self.k), a["list"], self.k.layout, self.k.lang, self.page, self._turn, columns=2,
                    row_h=56)
        cols = self.k.layout.columns(a["footer"], 4)
        return [*out, Button(cols[0], self.tr("kiosk.button.back"), self.back, key="back")]

    def regions(self) -> list[Region]:
        a, lang = self._areas(), self.k.lang
        title = self.tr("kiosk.newgame.choose")

        def heading(surface: pygame.Surface, rect: pygame.Rect) -> None:
            self.c.text.draw(surface, title, rect, self.c.font(28), FG, bold=True)

        return [Region("games.title", a["title"], (lang, title), heading),
                self.button_region("games.list", a["list"]),
                self.button_region("games.footer", a["footer"])]
