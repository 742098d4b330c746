"""Who plays (issue 21): the known players as toggles, seated ones numbered in seat order; "Add a
player" types a new name on the on-screen keyboard; "Rename" then a player renames them; a figure
tapped on the reader while this screen is up seats its player (`KioskFeed.seating`). Next goes on
to the options only with a count the game takes; otherwise it says why, in words."""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING

import pygame

from companion.core.contract import GameBox
from companion.games import box
from companion.kiosk.newgame import NAME_MAX, Plan, count_problem
from companion.kiosk.screens.base import Screen
from companion.kiosk.screens.keyboard import KeyboardScreen
from companion.kiosk.screens.paging import Entry, paged
from companion.kiosk.widgets import DIM, FG, WARN, Button, Region

if TYPE_CHECKING:
    from companion.kiosk.kiosk import Kiosk


class SeatingScreen(Screen):
    name = "seating"

    def __init__(self, kiosk: Kiosk, plan: Plan) -> None:
        super().__init__(kiosk)
        self.plan = plan
        self.page = 0
        self.renaming = False
        if kiosk.feed is not None:
            kiosk.feed.seating(True)

    @property
    def game(self) -> GameBox:
        """The game's box (its player counts), not its rules: those are imported when it is played."""
        return box(self.k.games, self.plan.game)

    def problem(self) -> str | None:
        found = count_problem(self.game, len(self.plan.seated))
        return None if found is None else self.tr(found[0], **found[1])

    def _turn(self, page: int) -> None:
        self.page = page

    def _pressed(self, pid: str) -> None:
        if self.renaming:
            self.renaming = False
            self.k.push(KeyboardScreen(self.k, self.tr("kiosk.seating.rename_title", name=self.plan.name_of(pid)),
                                       self.plan.name_of(pid), partial(self.plan.rename, pid), NAME_MAX))
        else:
            self.plan.toggle(pid)

    def _add(self) -> None:
        self.k.push(KeyboardScreen(self.k, self.tr("kiosk.seating.add_title"), "", self._added, NAME_MAX))

    def _added(self, name: str) -> None:
        self.plan.add(name)

    def _rename(self) -> None:
        self.renaming = not self.renaming

    def _next(self) -> None:
        problem = self.problem()
        if problem is not None:
            self.k.notice = None
            self.k.say("kiosk.seating.cannot_start", why=problem)
            return
        from companion.kiosk.screens.options import OptionsScreen
        self.k.push(OptionsScreen(self.k, self.plan))

    def figure(self, pid: str, name: str) -> None:
        """A figure tapped while this screen is up: that player sits down (or stays seated)."""
        self.plan.seat(pid, name)
        self.k.say("kiosk.seating.seated", name=self.plan.name_of(pid))

    def _areas(self) -> dict[str, pygame.Rect]:
        L = self.k.layout
        return {"title": L.rect(16, 40, 768, 40), "list": L.rect(16, 84, 768, 296),
                "why": L.rect(16, 384, 768, 30), "footer": L.footer()}

    def buttons(self) -> list[Button]:
        a, plan = self._areas(), self.plan
        entries = []
        for pid, name in plan.known:
            seat = plan.seated.index(pid) + 1 if pid in plan.seated else None
            text = self.tr("kiosk.seating.seated_as", number=seat, name=name) if seat else name
            entries.append(Entry(text, partial(self._pressed, pid), "primary" if seat else "normal", ("player", pid)))
        out = paged(entries, a["list"], self.k.layout, self.k.lang, self.page, self._turn, columns=3)
        cols = self.k.layout.columns(a["footer"], 4)
        ok = self.problem() is None
        return [*out, Button(cols[0], self.tr("kiosk.button.back"), self.back, key="back"),
                Button(cols[1], self.tr("kiosk.seating.add"), self._add, key="add"),
                Button(cols[2], self.tr("kiosk.seating.rename"), self._rename, "primary" if self.renaming else "normal",
                       key="rename"),
                Button(cols[3], self.tr("kiosk.seating.next"), self._next, "primary" if ok else "off", key="next")]

    def regions(self) -> list[Region]:
        a, lang = self._areas(), self.k.lang
        title = self.tr("kiosk.seating.title", game=self.tr(f"game.{self.plan.game}.title"),
                        count=len(self.plan.seated))
        problem = self.problem()
        hint = self.tr("kiosk.seating.rename_hint") if self.renaming else (problem or self.tr("kiosk.seating.hint"))
        color = WARN if problem and not self.renaming else DIM

        def heading(surface: pygame.Surface, rect: pygame.Rect) -> None:
            self.c.text.draw(surface, title, rect, self.c.font(24), FG, bold=True)

        def why(surface: pygame.Surface, rect: pygame.Rect) -> None:
            self.c.text.draw(surface, hint, rect, self.c.font(16), color, bold=problem is not None)

        return [Region("seating.title", a["title"], (lang, title), heading),
                self.button_region("seating.list", a["list"]),
                Region("seating.why", a["why"], (lang, hint, color), why),
                self.button_region("seating.footer", a["footer"])]

    def back(self) -> None:
        self.leave()
        self.k.pop()

    def leave(self) -> None:
        if self.k.feed is not None:
            self.k.feed.seating(False)
