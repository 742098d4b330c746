"""The players' part of Escape the Lab's picture: a row per player in seat order with their disc and
name, their stamina die (1..6, E1.3/E5) and the items they hold as their tokens with their names
(cubes square, circles round, in the colours the data file gives them, E3.3)."""

from __future__ import annotations

from typing import Any

import pygame

from companion import i18n
from companion.drawing.canvas import BG, FG, GOOD, Canvas
from companion.drawing.marks import READABLE, fitted_name, names, seat_colors
from companion.drawing.text import Color
from companion.games.lab_escape import data

INK: Color = (20, 24, 30)
CURRENT: Color = (44, 54, 74)
#: The colours the data file names for its tokens (E1.2's red and white cubes, the rooms' yellow cats...).
TOKEN: dict[str, Color] = {
    "yellow": (242, 200, 60), "red": (226, 76, 66), "black": (24, 24, 28), "green": (70, 186, 98),
    "blue": (74, 132, 232), "white": (240, 240, 240),
}


def token(surface: pygame.Surface, c: Canvas, item: str, center: tuple[int, int], radius: int) -> None:
    """An item as its token: a square for a cube, a disc for a circle, outlined so black shows."""
    spec = data.bundled().items.get(item)
    fill = TOKEN.get(spec.colour, FG) if spec is not None else FG
    edge = FG if fill == TOKEN["black"] else BG
    if spec is not None and spec.shape == "circle":
        pygame.draw.circle(surface, fill, center, radius)
        pygame.draw.circle(surface, edge, center, radius, width=1)
    else:
        box = pygame.Rect(0, 0, radius * 2 - 1, radius * 2 - 1)
        box.center = center
        pygame.draw.rect(surface, fill, box)
        pygame.draw.rect(surface, edge, box, width=1)


def draw_people(surface: pygame.Surface, area: pygame.Rect, c: Canvas, lang: str, public: dict[str, Any],
                table: dict[str, Any], row_h: int) -> None:
    colors, shown = seat_colors(public), names(public)
    people = table.get("people") or {}
    current, winner = public.get("turn"), table.get("winner")
    radius = max(3, c.px(5))
    for i, p in enumerate(public.get("players", [])):
        row = pygame.Rect(area.left, area.top + i * row_h, area.width, row_h)
        me = people.get(p["id"]) or {}
        if p["id"] == winner:
            pygame.draw.rect(surface, GOOD, row, width=max(1, c.px(2)), border_radius=c.px(4))
        elif p["id"] == current:
            pygame.draw.rect(surface, CURRENT, row, border_radius=c.px(4))
        center = (row.left + c.px(3) + radius, row.centery)
        pygame.draw.circle(surface, colors[p["id"]], center, radius)
        name = pygame.Rect(center[0] + radius + c.px(4), row.top, row.width * 3 // 10, row.height)
        bold = p["id"] == current  # whose turn: in bold, cut to fit as drawn (a long name stays in its box)
        size = c.font(READABLE)
        c.text.draw(surface, fitted_name(c, shown.get(p["id"], p["id"]), size, name.width, bold), name,
                    size, FG, bold=bold)
        die = pygame.Rect(name.right + c.px(4), 0, row.height - c.px(4), row.height - c.px(4))
        die.centery = row.centery
        if me.get("stamina") is not None:
            pygame.draw.rect(surface, FG, die, border_radius=c.px(3))
            c.text.draw(surface, str(me["stamina"]), die, c.font(READABLE), INK, bold=True, align="center")
        held = pygame.Rect(die.right + c.px(6), row.top, row.right - die.right - c.px(8), row.height)
        _items(surface, held, c, lang, list(me.get("items") or []))


def _items(surface: pygame.Surface, area: pygame.Rect, c: Canvas, lang: str, items: list[str]) -> None:
    """Each item as its token and its name, left to right; when the names do not all fit, each gets an
    equal share (cut with an ellipsis), and the tokens alone when even that is too narrow."""
    if not items:
        return
    size = c.font(READABLE)
    words = [i18n.translate(lang, data.item_word(i)) for i in items]
    radius = max(2, c.px(5))
    mark, gap = radius * 2 + c.px(3), c.px(7)
    natural = [mark + c.text.render(w, c.text.fit(w, size, area.width), FG).get_width() for w in words]
    share = (area.width - gap * (len(items) - 1)) // len(items)
    fits = sum(natural) + gap * (len(items) - 1) <= area.width
    with_names = fits or share - mark >= c.px(24)
    x = area.left
    for item, w, wide in zip(items, words, natural, strict=True):
        width = wide if fits else share if with_names else mark
        if x + mark > area.right:
            break
        token(surface, c, item, (x + radius, area.centery), radius)
        if with_names:
            box = pygame.Rect(x + mark, area.top, max(1, min(width, area.right - x) - mark), area.height)
            c.text.draw(surface, fitted_name(c, w, size, box.width), box, size,
                        GOOD if item == data.USB_KEY else FG)
        x += width + gap
