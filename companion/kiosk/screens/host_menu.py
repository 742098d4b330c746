"""The host's menu: the game's host controls (pause or resume and extend each running timer, undo the
last input, end the game: `companion.core.host_controls`, declared by the game's contract), the
phones and their seats (when phones are served), and the screen's language and volume. Every game input
goes to the referee as the host's and its answer comes back as a notice."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

import pygame

from companion import i18n
from companion.core import host_controls
from companion.core.host_controls import Control
from companion.kiosk.screens import host_forms
from companion.kiosk.screens.base import Screen
from companion.kiosk.widgets import FG, Button, Region
from companion.naming import Namer

VOLUMES = (0.0, 0.25, 0.5, 0.8, 1.0)


class HostMenuScreen(Screen):
    name = "menu"

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
        L = self.k.layout
        out: list[tuple[str, Callable[[], None], str]] = [
            (self._words(c), partial(self._host, c.move, c.args), c.key) for c in self.controls()]
        out.append((self.tr("kiosk.menu.new_game"), self._new_game, "n"))
        out += host_forms.menu_entries(self)  # the game's host forms (the toolkit's new vote, timer, deal)
        if self.k.settings.seats is not None:
            out.append((self.tr("kiosk.menu.phones"), self._phones, "s"))
        if self.k.feed is not None and self.k.feed.can_enroll:
            out.append((self.tr("kiosk.menu.enroll"), self._enroll, "t"))
        out.append((self.tr("kiosk.menu.language", language=self.tr(f"kiosk.language.{self.k.lang}")),
                    self._language, "l"))
        out.append((self.tr("kiosk.menu.volume", percent=round(self.k.sound.volume * 100)), self._volume, "v"))
        out.append((self.tr("kiosk.menu.close"), self.k.pop, "c"))
        area = L.rect(16, 96, 768, 316)
        cells = [cell for row in L.rows(area, max(4, -(-len(out) // 2))) for cell in L.columns(row, 2)]
        return [Button(cell, text, fn, "danger" if key.startswith("end:") else "normal", key)
                for cell, (text, fn, key) in zip(cells, out, strict=False)]

    def _new_game(self) -> None:
        """The game list, unless a game is being played: the table would refuse a new game then
        (NEWGAME_IFACE.md, `reject.game_in_progress`), so say first how to end it."""
        from companion.kiosk.screens import started
        from companion.kiosk.screens.game_list import GameListScreen
        if started(self.k.public) and not self.k.public.get("ended"):
            self.k.say("kiosk.menu.end_first")
            return
        self.k.replace(GameListScreen(self.k))

    def _phones(self) -> None:
        from companion.kiosk.screens.phone_seats import PhoneSeatsScreen
        self.k.replace(PhoneSeatsScreen(self.k))

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
                self.button_region("menu.buttons", L.rect(16, 96, 768, 316))]
