"""The explorers on Betrayal's board, one row each in seat order (in two columns past four explorers):
their seat colour and name, and each of the four traits on its track (B1.1): a tick per value of the
track, filled up to the current one (when the column is wide enough), the current value as a number,
and the skull below the lowest value, red once reached. The explorer whose turn it is stands on a
lighter row; the dead are greyed and crossed out. Text at 14 px and up (issue 28): a trait's short name
(`gameboards.betrayal.trait_short.*`) where its full name does not fit the column."""

from __future__ import annotations

from typing import Any

import pygame

from companion import i18n
from companion.drawing.canvas import DANGER, DIM, FG, Canvas
from companion.drawing.marks import READABLE, fitted_name, label, names, seat_colors
from companion.drawing.text import Color

TRAITS = ("speed", "might", "sanity", "knowledge")  # the data's order (companion/games/betrayal/data.py)
CURRENT_ROW: Color = (48, 58, 78)
EMPTY_TICK: Color = (64, 72, 90)
SHARE = (6 / 25, 2 / 5)  # the name's part of a row: in one column (the tracks beside), in two (the values)


def columns(area: pygame.Rect, c: Canvas, share: float = 6 / 25) -> tuple[pygame.Rect, list[pygame.Rect]]:
    """The name column (`share` of the row) and the four trait columns of a row `area`."""
    name = pygame.Rect(area.left, area.top, int(area.width * share), area.height)
    width = (area.right - name.right) // len(TRAITS)
    return name, [pygame.Rect(name.right + i * width, area.top, width - c.px(3), area.height)
                  for i in range(len(TRAITS))]


def trait_name(c: Canvas, lang: str, trait: str, width: int) -> str:
    """A trait's name for its column: in full if it fits at 14 px, else its short name (cut if need be)."""
    size = c.font(READABLE)
    full = i18n.translate(lang, f"gameboards.betrayal.trait.{trait}")
    if c.text.width(full, size) <= width:
        return full
    return fitted_name(c, i18n.translate(lang, f"gameboards.betrayal.trait_short.{trait}"), size, width)


def draw_explorers(surface: pygame.Surface, area: pygame.Rect, c: Canvas, lang: str, public: dict[str, Any],
                   head: int, row: int, across: int = 1) -> None:
    table = public.get("table") or {}
    players = public.get("players", [])
    width = (area.width - (across - 1) * c.px(8)) // across
    per = (len(players) + across - 1) // across
    size = c.font(READABLE)
    for k in range(across):
        left = area.left + k * (width + c.px(8))
        _, cells = columns(pygame.Rect(left, area.top, width, head), c, SHARE[across > 1])
        for trait, cell in zip(TRAITS, cells, strict=True):
            c.text.draw(surface, trait_name(c, lang, trait, cell.width), cell, size, DIM, align="center")
    colors, shown = seat_colors(public), names(public)
    explorers = table.get("explorers") or {}
    actor = (table.get("turn") or {}).get("actor")
    for i, p in enumerate(players):
        k, line = divmod(i, max(1, per))
        box = pygame.Rect(area.left + k * (width + c.px(8)), area.top + head + line * row, width, row)
        if box.bottom > area.bottom:
            break
        _explorer(surface, box, c, lang, explorers.get(p["id"]) or {}, shown.get(p["id"], p["id"]),
                  colors[p["id"]], p["id"] == actor, SHARE[across > 1])


def _explorer(surface: pygame.Surface, box: pygame.Rect, c: Canvas, lang: str, e: dict[str, Any], name: str,
              color: Color, current: bool, share: float) -> None:
    alive = e.get("alive", True)
    if current and alive:
        pygame.draw.rect(surface, CURRENT_ROW, box, border_radius=c.px(3))
    name_box, cells = columns(box, c, share)
    radius = max(2, c.px(4))
    center = (name_box.left + radius + c.px(2), box.centery)
    pygame.draw.circle(surface, color if alive else DIM, center, radius)
    if not alive:
        d = radius
        pygame.draw.line(surface, DANGER, (center[0] - d, center[1] - d), (center[0] + d, center[1] + d), 2)
        pygame.draw.line(surface, DANGER, (center[0] - d, center[1] + d), (center[0] + d, center[1] - d), 2)
    words = pygame.Rect(center[0] + radius + c.px(4), box.top, name_box.right - center[0] - radius - c.px(6),
                        box.height)
    size = c.font(READABLE)
    c.text.draw(surface, fitted_name(c, name, size, words.width), words, size, FG if alive else DIM)
    traits = e.get("traits") or {}
    if not alive:
        rest = pygame.Rect(cells[0].left, box.top, cells[-1].right - cells[0].left, box.height)
        label(surface, c, i18n.translate(lang, "gameboards.betrayal.dead"), rest, READABLE, DANGER, align="left")
        return
    for trait, cell in zip(TRAITS, cells, strict=True):
        if trait in traits:
            _track(surface, cell, c, traits[trait], color)


def _track(surface: pygame.Surface, cell: pygame.Rect, c: Canvas, t: dict[str, Any], color: Color) -> None:
    """The value as a number on the right; on its left the skull and a tick per value of the track."""
    skull = bool(t.get("skull"))
    number = pygame.Rect(0, cell.top, c.px(18), cell.height)
    number.right = cell.right
    c.text.draw(surface, str(t.get("value", 0)), number, c.font(READABLE), DANGER if skull else FG, bold=True,
                align="right")
    values = t.get("track") or [t.get("value", 0)]
    index = int(t.get("index", 0))
    meter = pygame.Rect(cell.left, cell.top, number.left - cell.left - c.px(2), cell.height)
    step = meter.width // (len(values) + 1)  # the skull takes the first place
    if step < 2:  # a narrow column: the number alone
        return
    tall = max(3, min(c.px(9), cell.height - c.px(4)))
    short = max(2, tall * 2 // 3)
    mark = pygame.Rect(meter.left, meter.centery - short // 2, max(1, step - 1), short)
    pygame.draw.rect(surface, DANGER if skull else EMPTY_TICK, mark)
    for i in range(len(values)):
        h = tall if i == index else short
        tick = pygame.Rect(meter.left + (i + 1) * step, meter.centery - h // 2, max(1, step - 1), h)
        if tick.right > meter.right:
            break
        fill = FG if i == index else color if i < index else EMPTY_TICK
        pygame.draw.rect(surface, fill, tick)


__all__ = ["draw_explorers"]
