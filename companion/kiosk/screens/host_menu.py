"""The host's menu: the game's host controls (pause or resume and extend each running timer, undo the
last input, end the game: `companion.core.host_controls`, declared by the game's contract), the
phones and their seats (when phones are served), the screen's language and volume, and which games the
attract loop shows. Every game input
goes to the referee as the host's and its answer comes back as a notice. Each control keeps its place
whatever the timers do; End the game and New game while one is under way take a second step
(`ConfirmScreen`); after an end, Undo (in its same place) takes the end back until the next game starts."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Any

import pygame

from companion import i18n
from companion.core import host_controls
from companion.core.host_controls import Control
from companion.kiosk.screens import host_forms
from companion.kiosk.screens.base import Screen
from companion.kiosk.widgets import FG, Button, Region
from companion.naming import Namer

if TYPE_CHECKING:
    from companion.kiosk.kiosk import Kiosk

VOLUMES = (0.0, 0.25, 0.5, 0.8, 1.0)
TIMER_ROWS = 2  # timers shown at once (a page); more: "More timers" in the footer


class HostMenuScreen(Screen):
    name = "menu"

    def __init__(self, kiosk: Kiosk) -> None:
        super().__init__(kiosk)
        self.timer_page = 0

    def _host(self, move: str, args: dict[str, Any]) -> None:
        self.k.send({"by": "host", "move": move, "args": args})
        self.k.pop()

    def controls(self) -> list[Control]:
        """The game's host controls for the current public view (its contract declares them)."""
        game = self.k.games.get(str(self.k.public.get("game")))
        return [] if game is None else host_controls.now(game.host_controls, game.moves, self.k.public)

    def _words(self, c: Control) -> str:
        """What pressing `c` does, from the view it was made from (a timer by its own name)."""
        params = {**c.params, **({"timer": c.timer} if c.timer is not None else {})}
        return Namer.of(self.k.public).text(self.k.lang, c.label, params)  # companion/naming.py

    def buttons(self) -> list[Button]:
        """Every control in a place of its own, whatever the timers do (issue 28): a 3x4 grid where
        Undo, Game forms and End the game hold the first row, each timer a row of its own below them
        (start, pause or resume on the left, +30 s beside it; two timers a page), New game and Phones and
        seats on the right of those rows, Enroll, Language and Volume the last row; Close in the footer, and on
        a moderated table the moderator's view at the footer's left; the demo loop's choice in the footer's
        third place (issue 30: the grid is full; no other control moved for it).
        A control that is not offered now leaves its place empty."""
        L = self.k.layout
        grid = [L.columns(row, 3) for row in L.rows(L.rect(16, 96, 768, 316), 4)]
        footer = L.columns(L.footer(), 4)
        controls = self.controls()
        out: list[Button] = []

        def put(rect: pygame.Rect, text: str, fn: Callable[[], None], key: str, style: str = "normal") -> None:
            out.append(Button(rect, text, fn, style, key))

        for c in controls:
            if c.key == "undo":
                put(grid[0][0], self._words(c), partial(self._host, c.move, c.args), c.key)
        for label, fn, key in host_forms.menu_entries(self):  # the game's host forms (the toolkit's)
            put(grid[0][1], label, fn, key)
        ends = [c for c in controls if c.key.startswith("end:")]
        if ends:  # one end per game (the contract allows more: the first has the place)
            put(grid[0][2], self._words(ends[0]), partial(self._end, ends[0]), ends[0].key, "danger")
        timers = self._timers(controls)
        pages = max(1, -(-len(timers) // TIMER_ROWS))
        self.timer_page %= pages
        for row, (first, extend) in zip((1, 2), timers[self.timer_page * TIMER_ROWS:], strict=False):
            if first is not None:
                put(grid[row][0], self._words(first), partial(self._host, first.move, first.args), first.key)
            if extend is not None:
                put(grid[row][1], self._words(extend), partial(self._host, extend.move, extend.args), extend.key)
        put(grid[1][2], self.tr("kiosk.menu.new_game"), self._new_game, "n")
        if self.k.public.get("moderated") and self.k.feed is not None:  # the host moderates: the deal, the votes
            put(footer[0], self.tr("kiosk.menu.moderator"), self._moderator, "m")
        if self.k.settings.seats is not None:
            put(grid[2][2], self.tr("kiosk.menu.phones"), self._phones, "s")
        if self.k.feed is not None and self.k.feed.can_enroll:
            put(grid[3][0], self.tr("kiosk.menu.enroll"), self._enroll, "t")
        put(grid[3][1], self.tr("kiosk.menu.language", language=self.tr(f"kiosk.language.{self.k.lang}")),
            self._language, "l")
        put(grid[3][2], self.tr("kiosk.menu.volume", percent=round(self.k.sound.volume * 100)), self._volume, "v")
        if pages > 1:
            put(footer[1], self.tr("kiosk.menu.more_timers", page=self.timer_page + 1, pages=pages),
                self._more_timers, "timers")
        if self.k.settings.attract is not False:  # which games the attract loop shows (off in the config: none)
            put(footer[2], self.tr("kiosk.menu.attract"), self._attract, "a")
        put(footer[3], self.tr("kiosk.menu.close"), self.k.pop, "c")
        return out

    @staticmethod
    def _timers(controls: list[Control]) -> list[tuple[Control | None, Control | None]]:
        """Each timer's (start, pause or resume; extend), in the view's order of timers."""
        rows: dict[str, list[Control | None]] = {}
        for c in controls:
            if c.timer is not None:
                row = rows.setdefault(c.timer, [None, None])
                row[1 if c.key.startswith("extend:") else 0] = c
        return [(a, b) for a, b in rows.values()]

    def _more_timers(self) -> None:
        self.timer_page += 1

    def face(self) -> object:
        return self.timer_page

    def _end(self, c: Control) -> None:
        """End the game: its second step says what that does and what takes it back."""
        from companion.kiosk.screens.confirm import ConfirmScreen
        game = self.tr(f"game.{self.k.public.get('game')}.title")
        self.k.push(ConfirmScreen(self.k, self.tr("kiosk.confirm.end.title"),
                                  self.tr("kiosk.confirm.end.body", game=game),
                                  self.tr("kiosk.confirm.end.yes"), partial(self._host, c.move, c.args)))

    def _new_game(self) -> None:
        """The game list. While a game is being played the table would refuse a new game
        (NEWGAME_IFACE.md, `reject.game_in_progress`): a second step says that it ends this game first
        (by the game's own end, which the host's Undo takes back until the new game starts)."""
        from companion.kiosk.screens import started
        from companion.kiosk.screens.confirm import ConfirmScreen
        from companion.kiosk.screens.game_list import GameListScreen
        if not (started(self.k.public) and not self.k.public.get("ended")):
            self.k.replace(GameListScreen(self.k))
            return
        ends = [c for c in self.controls() if c.key.startswith("end:")]
        if not ends:
            self.k.say("kiosk.menu.end_first")
            return
        end = ends[0]

        def end_then_choose() -> None:
            self.k.send({"by": "host", "move": end.move, "args": end.args})
            self.k.replace(GameListScreen(self.k))

        game = self.tr(f"game.{self.k.public.get('game')}.title")
        self.k.push(ConfirmScreen(self.k, self.tr("kiosk.confirm.new_game.title"),
                                  self.tr("kiosk.confirm.new_game.body", game=game),
                                  self.tr("kiosk.confirm.new_game.yes"), end_then_choose))

    def _moderator(self) -> None:
        from companion.kiosk.screens.moderator import ModeratorScreen
        self.k.replace(ModeratorScreen(self.k))

    def _phones(self) -> None:
        from companion.kiosk.screens.phone_seats import PhoneSeatsScreen
        self.k.replace(PhoneSeatsScreen(self.k))

    def _attract(self) -> None:
        from companion.kiosk.screens.attract_choice import AttractChoiceScreen
        self.k.replace(AttractChoiceScreen(self.k))

    def _enroll(self) -> None:
        from companion.kiosk.screens.enroll import EnrollScreen
        self.k.replace(EnrollScreen(self.k, mode=True))

    def _language(self) -> None:
        langs = i18n.LANGUAGES
        self.k.set_language(langs[(langs.index(self.k.lang) + 1) % len(langs)])

    def _volume(self) -> None:
        louder = [v for v in VOLUMES if v > self.k.sound.volume + 1e-6]
        self.k.sound.set_volume(louder[0] if louder else VOLUMES[0])
        self.k.sound.play("tap")

    def regions(self) -> list[Region]:
        L, lang = self.k.layout, self.k.lang
        title = self.tr("kiosk.menu.title")

        def heading(surface: pygame.Surface, rect: pygame.Rect) -> None:
            self.c.text.draw(surface, title, rect, self.c.font(28), FG, bold=True)

        return [Region("menu.title", L.rect(16, 40, 768, 48), (lang, title), heading),
                self.button_region("menu.buttons", L.rect(16, 96, 768, 316)),
                self.button_region("menu.footer", L.footer())]
