"""The host menu's "Demo loop" (issue 30): which games the attract loop shows, all of them or the table's
own game only, chosen by the host on the kiosk. The choice is kept like the menu's language and volume:
for as long as the kiosk runs (`display.attract` in the config file sets it at each start, and may also
name a list of games). The loop underneath takes the new choice when the menu closes
(`AttractScreen.update`). Back closes the menu, as its Close does."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

from companion.kiosk.reel import chosen_games
from companion.kiosk.screens.base import Screen
from companion.kiosk.widgets import ACCENT, DIM, FG, Button, Region, draw_lines

if TYPE_CHECKING:
    from companion.kiosk.kiosk import Kiosk


class AttractChoiceScreen(Screen):
    name = "attract_choice"

    def __init__(self, kiosk: Kiosk) -> None:
        super().__init__(kiosk)

    @property
    def table_game(self) -> str:
        return str(self.k.public.get("game", ""))

    def shown(self) -> list[str]:
        """The games the loop shows with the setting as it is now, in menu order."""
        return chosen_games(self.k.games, self.k.settings.attract, self.table_game)

    def _areas(self) -> dict[str, pygame.Rect]:
        L = self.k.layout
        return {"title": L.rect(16, 40, 768, 48), "about": L.rect(16, 92, 768, 148),
                "choices": L.rect(16, 252, 768, 80), "footer": L.footer()}

    def buttons(self) -> list[Button]:
        """"All games" on the left, "This game only: <its name>" on the right; the one in force highlighted."""
        shown = self.shown()
        every = shown == list(self.k.games)
        alone = shown == [self.table_game]
        game = self.tr(f"game.{self.table_game}.title")
        left, right = self.k.layout.columns(self._areas()["choices"], 2)
        cols = self.k.layout.columns(self._areas()["footer"], 4)
        return [Button(left, self.tr("kiosk.attract_choice.all"), self._all, "primary" if every else "normal",
                       key="all"),
                Button(right, self.tr("kiosk.attract_choice.this", game=game), self._this,
                       "primary" if alone and not every else "normal", key="this"),
                Button(cols[0], self.tr("kiosk.button.back"), self.k.pop, key="back")]

    def _all(self) -> None:
        self.k.settings.attract = "all"
        self.k.say("kiosk.attract_choice.chosen_all")

    def _this(self) -> None:
        self.k.settings.attract = "this game"
        self.k.say("kiosk.attract_choice.chosen_this", game=self.tr(f"game.{self.table_game}.title"))

    def face(self) -> object:
        return repr(self.k.settings.attract)

    def regions(self) -> list[Region]:
        a, lang = self._areas(), self.k.lang
        title = self.tr("kiosk.attract_choice.title")
        about = self.tr("kiosk.attract_choice.about")
        now = self.tr("kiosk.attract_choice.now", games="  ·  ".join(self.tr(f"game.{g}.title") for g in self.shown()))

        def heading(surface: pygame.Surface, rect: pygame.Rect) -> None:
            self.c.text.draw(surface, title, rect, self.c.font(28), FG, bold=True)

        def words(surface: pygame.Surface, rect: pygame.Rect) -> None:
            used = draw_lines(surface, self.c, [about], rect, 18, DIM)
            px = self.c.font(18)
            top = rect.top + sum(self.c.text.render(part, px, DIM).get_height() + self.c.px(6)
                                 for part in self.c.text.wrap(about, px, rect.width)[:used]) + self.c.px(4)
            draw_lines(surface, self.c, [now], pygame.Rect(rect.left, top, rect.width, rect.bottom - top), 18, ACCENT)

        return [Region("attract_choice.title", a["title"], (lang, title), heading),
                Region("attract_choice.about", a["about"], (lang, about, now), words),
                self.button_region("attract_choice.choices", a["choices"]),
                self.button_region("attract_choice.footer", a["footer"])]
