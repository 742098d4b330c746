"""The status bar: the game's title, a notice when there is one, and the devices (reader, broker,
phones, buttons) from the `StatusBoard`, each a coloured dot and a word. With no Mosquitto installed
(the broker `missing`), the notice's place says how to install it for phones while no other notice shows.

A notice is never smaller than 14 px (issue 28: readable on the 7" panel) and never runs over a device's
word: it takes the middle; one too long for it takes the title's place too; one too long for that takes
the whole bar while it shows (the devices come back when it goes), on two lines when one is not enough."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

from companion import i18n
from companion.kiosk.widgets import DANGER, DIM, FG, GOOD, PANEL, WARN, Canvas, Region
from companion.status import MOSQUITTO_INSTALL_COMMAND

if TYPE_CHECKING:
    from companion.kiosk.kiosk import Kiosk

STATE_COLORS = {"ok": GOOD, "searching": WARN, "missing": DANGER, "error": DANGER, "off": DIM}


def status_region(k: Kiosk) -> Region:
    devices = tuple((s.kind, s.name, s.state, s.count) for s in k.status.snapshot())
    notice = k.notice[0] if k.notice else ""
    if not notice and any(s.kind == "broker" and s.state == "missing" for s in k.status.snapshot()):
        notice = i18n.translate(k.lang, "kiosk.device.broker_missing", {"command": MOSQUITTO_INSTALL_COMMAND})
    game = str(k.public.get("game", ""))
    key = (k.lang, game, notice, devices)

    def draw(surface: pygame.Surface, rect: pygame.Rect) -> None:
        c = k.canvas
        surface.fill(PANEL, rect)
        pad = c.px(10)
        inner = rect.inflate(-2 * pad, 0)
        size = c.font(15)
        title = i18n.translate(k.lang, f"game.{game}.title") if game else ""
        wide = c.text.render(title, size, DIM, True).get_width() if title else 0  # as wide as it needs, up to a third
        left = pygame.Rect(inner.left, inner.top, min(max(wide, inner.width // 4), inner.width // 3), inner.height)
        x = inner.right
        words = []
        for kind, _name, state, count in reversed(devices):
            word = i18n.translate(k.lang, f"kiosk.device.{kind}", {"count": count if count is not None else ""})
            w = min(c.text.render(word, size, FG).get_width(), inner.width // 6)
            x -= w
            words.append((word, pygame.Rect(x, inner.top, w, inner.height), state, (x - c.px(7), rect.centery)))
            x -= c.px(26)
        need = c.text.render(notice, c.font(14), WARN).get_width() if notice else 0
        middle = pygame.Rect(left.right + pad, inner.top, max(1, x - left.right - 2 * pad), inner.height)
        if need > middle.width:  # the title's place too
            middle = pygame.Rect(inner.left, inner.top, max(1, x - inner.left - pad), inner.height)
        whole = need > middle.width  # the whole bar, the devices back when the notice goes
        if not whole:
            if middle.left > inner.left:
                c.text.draw(surface, title, left, size, DIM, bold=True)
            for word, where, state, dot in words:
                c.text.draw(surface, word, where, size, FG)
                pygame.draw.circle(surface, STATE_COLORS.get(state, DIM), dot, c.px(5))
        if notice:
            _notice(c, surface, notice, inner if whole else middle, size)

    return Region("status", k.layout.status_bar(), key, draw)


def _notice(c: Canvas, surface: pygame.Surface, notice: str, where: pygame.Rect, size: int) -> None:
    """The notice in `where`: on one line down to 14 px, else on two lines at 14 px."""
    smallest = c.font(14)
    fitted = c.text.fit(notice, size, where.width, smallest=smallest)
    if c.text.width(notice, fitted) <= where.width:  # drawn at the size fitted: `draw`'s
        c.text.draw(surface, notice, where, fitted, WARN, align="center", shrink=False)  # own 0.9 steps went
        return  # under 14 px (a Thai notice at 30 px on a 1080p TV, where 14 px is 31.5)
    lines = c.text.wrap(notice, smallest, where.width)
    heights = [c.text.render(line, smallest, WARN).get_height() for line in lines[:2]]
    y = where.centery - sum(heights) // 2
    for line, h in zip(lines[:2], heights, strict=True):
        c.text.draw(surface, line, pygame.Rect(where.left, y, where.width, h), smallest, WARN, align="center")
        y += h
