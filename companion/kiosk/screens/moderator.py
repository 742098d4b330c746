"""The moderator's screen (docs/game-night.md, "A moderator"): at a table whose host does not play, the
host menu's "Moderator's view" shows what a human moderator knows, from the host's view only (its
`moderator` part, `Game.view_moderator`): who has which role, each vote's voters and, once it is closed,
its votes as cast, every hidden counter; for other games each seat's own lines. It is opened by the host
on purpose, says it is for the moderator's eyes, and closes by itself when left untouched (as a booth)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import pygame

from companion import i18n
from companion.games import registry
from companion.kiosk.screens.base import Screen
from companion.kiosk.widgets import ACCENT, FG, Button, Region, draw_lines, panel

if TYPE_CHECKING:
    from companion.kiosk.kiosk import Kiosk

TEXT_SIZE = 18  # the lines' text, in design pixels (at 800x480)
GAP = 6  # between lines, as `draw_lines` leaves
HOST_AUDIENCE = "host"  # the regions draw the host's view: never a public region (companion/kiosk/kiosk.py)


def _role(lang: str, role: str) -> str:
    msgid = f"toolkit.role.{role}"
    return i18n.translate(lang, msgid) if msgid in i18n.msgids(lang) else role


def moderator_lines(lang: str, host_view: Mapping[str, Any]) -> list[str]:
    """What the moderator's screen says, line by line, in `lang`: players by name, roles translated."""
    m = host_view.get("moderator")
    if not isinstance(m, Mapping):
        return []
    names = {p["id"]: p["name"] for p in host_view.get("players", [])}

    def said(value: Any) -> str:
        return names.get(str(value), str(value))

    def tr(msgid: str, **params: Any) -> str:
        return i18n.translate(lang, msgid, params)

    out: list[str] = []
    for name, deal in m.get("deals", {}).items():
        out.append(tr("kiosk.moderator.deal", name=name))
        out += [tr("kiosk.moderator.role", player=said(pid), role=_role(lang, role))
                for pid, role in deal.get("assigned", {}).items()]
        if deal.get("unused"):
            out.append(tr("kiosk.moderator.unused", roles=", ".join(_role(lang, r) for r in deal["unused"])))
    for name, b in m.get("ballots", {}).items():
        out.append(tr("kiosk.moderator.ballot", name=name, voters=", ".join(said(v) for v in b.get("voters", []))))
        votes = b.get("votes")
        if votes is None:
            waiting = b.get("waiting_for", [])
            out.append(tr("kiosk.moderator.waiting", names=", ".join(said(v) for v in waiting)) if waiting
                       else tr("kiosk.moderator.all_voted"))
        elif not votes:
            out.append(tr("kiosk.moderator.no_votes"))
        else:
            out += [tr("kiosk.moderator.vote", player=said(pid), option=said(opt)) for pid, opt in votes.items()]
    for name, values in m.get("counters", {}).items():
        out.append(tr("kiosk.moderator.counter", name=name,
                      values=", ".join(f"{said(pid)} {v}" for pid, v in values.items())))
    game = host_view.get("game")
    found = registry().get(str(game)) if m.get("seats") else None  # a game without its own moderator view
    for pid, own in (m.get("seats") or {}).items():
        for msgid, params in (found.private_lines(own) if found is not None and own else []):
            out.append(f"{said(pid)}: {i18n.translate_line(lang, msgid, params)}")
    return out


class ModeratorScreen(Screen):
    name = "moderator"
    audience = HOST_AUDIENCE

    def __init__(self, kiosk: Kiosk) -> None:
        super().__init__(kiosk)
        self.page = 0
        self.touched_at = kiosk.now_ms()

    def lines(self) -> list[str]:
        feed = self.k.feed
        lines = moderator_lines(self.k.lang, {} if feed is None else feed.host_view())
        return lines or [self.tr("kiosk.moderator.nothing")]

    def _inner(self) -> pygame.Rect:
        return self._areas()["lines"].inflate(-self.c.px(24), -self.c.px(24))

    def pages(self) -> list[list[str]]:
        """The lines a page at a time, each page what fits the panel (a line wraps; Thai lines are taller)."""
        area, px, gap = self._inner(), self.c.font(TEXT_SIZE), self.c.px(GAP)
        pages: list[list[str]] = [[]]
        y = area.top
        for line in self.lines():
            tall = sum(self.c.text.render(part, px, FG).get_height() + gap
                       for part in self.c.text.wrap(line, px, area.width))
            if pages[-1] and y + tall - gap > area.bottom:
                pages.append([])
                y = area.top
            pages[-1].append(line)
            y += tall
        return pages

    def closes_at(self) -> int:
        return self.touched_at + int(self.k.settings.booth_timeout_s * 1000)

    def update(self, now: int) -> None:
        if now >= self.closes_at():
            self.k.pop()

    def next_change_ms(self, now: int) -> int | None:
        return self.closes_at()

    def tap(self, pos: tuple[int, int]) -> bool:
        self.touched_at = self.k.now_ms()
        return super().tap(pos)

    def action(self, name: str) -> None:
        self.touched_at = self.k.now_ms()
        super().action(name)

    def _turn(self) -> None:
        self.page = (self.page + 1) % len(self.pages())

    def _areas(self) -> dict[str, pygame.Rect]:
        L = self.k.layout
        return {"title": L.rect(16, 40, 768, 44), "lines": L.rect(16, 92, 768, 324), "footer": L.footer()}

    def buttons(self) -> list[Button]:
        cols = self.k.layout.columns(self._areas()["footer"], 4)
        out = [Button(cols[3], self.tr("kiosk.menu.close"), self.k.pop, "primary", key="close")]
        if len(self.pages()) > 1:
            out.append(Button(cols[2], self.tr("kiosk.form.more"), self._turn, key="more"))
        return out

    def regions(self) -> list[Region]:
        a, lang = self._areas(), self.k.lang
        title = self.tr("kiosk.moderator.title")
        pages = self.pages()
        shown = pages[min(self.page, len(pages) - 1)]

        def heading(surface: pygame.Surface, rect: pygame.Rect) -> None:
            self.c.text.draw(surface, title, rect, self.c.font(24), ACCENT, bold=True)

        def body(surface: pygame.Surface, rect: pygame.Rect) -> None:
            panel(surface, rect)
            draw_lines(surface, self.c, shown, self._inner(), TEXT_SIZE, gap=GAP)

        footer = self.button_region("moderator.footer", a["footer"])
        return [Region("moderator.title", a["title"], (lang, title), heading, HOST_AUDIENCE),
                Region("moderator.lines", a["lines"], (lang, tuple(shown)), body, HOST_AUDIENCE), footer]
