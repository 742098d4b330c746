"""A booth without a figure (issue 28): "My booth" on the play screen lists the players by name; the one
touched types their own PIN (`PinPadScreen`, ``booth``) and their booth opens. A player without a PIN
chooses one, typed twice: with the host's leave first (the host's PIN) where the table has a host lock,
so nobody can choose a PIN for someone else and read their secrets; at a family table (no lock) at once."""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING

import pygame

from companion.kiosk.screens.base import Screen
from companion.kiosk.screens.paging import Entry, paged
from companion.kiosk.widgets import FG, Button, Region

if TYPE_CHECKING:
    from companion.kiosk.kiosk import Kiosk


class BoothPickScreen(Screen):
    name = "booth_pick"

    def __init__(self, kiosk: Kiosk) -> None:
        super().__init__(kiosk)
        self.page = 0

    def face(self) -> object:
        return self.page

    def _areas(self) -> dict[str, pygame.Rect]:
        L = self.k.layout
        return {"title": L.rect(16, 40, 768, 44), "list": L.rect(16, 92, 768, 324), "footer": L.footer()}

    def buttons(self) -> list[Button]:
        L, lock = self.k.layout, self.k.settings.host_lock
        entries = []
        for p in self.k.public.get("players", []):
            words = p["name"] if lock.booth_pin(p["id"]) else self.tr("kiosk.booth_pick.no_pin", player=p["name"])
            entries.append(Entry(words, partial(self._pick, p["id"]),
                                 key=("player", p["id"])))
        out = paged(entries, self._areas()["list"], L, self.k.lang, self.page, self._turn, columns=2, row_h=60)
        cols = L.columns(self._areas()["footer"], 4)
        return [*out, Button(cols[0], self.tr("kiosk.button.back"), self.back, key="back")]

    def _turn(self, page: int) -> None:
        self.page = page

    def _pick(self, pid: str) -> None:
        from companion.kiosk.screens.pin_pad import Kind, PinPadScreen
        lock = self.k.settings.host_lock
        kind: Kind = "booth" if lock.booth_pin(pid) else "host_for_booth" if lock.mode == "pin" else "booth_choose"
        self.k.replace(PinPadScreen(self.k, kind, pid))

    def regions(self) -> list[Region]:
        a, lang = self._areas(), self.k.lang
        title = self.tr("kiosk.booth_pick.title")

        def heading(surface: pygame.Surface, rect: pygame.Rect) -> None:
            self.c.text.draw(surface, title, rect, self.c.font(26), FG, bold=True)

        return [Region("booth_pick.title", a["title"], (lang, title), heading),
                self.button_region("booth_pick.list", a["list"]),
                self.button_region("booth_pick.footer", a["footer"])]
