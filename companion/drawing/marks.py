"""Small drawing pieces the games' board pictures share: seat colours, labels in a box, arrows, dashed outlines."""

from __future__ import annotations

from typing import Any

import pygame

from companion.drawing import breaks
from companion.drawing.canvas import SEATS, Canvas
from companion.drawing.text import Align, Color

READABLE = 14  # the least text size (design units) on a board: 14 px on the 7" panel (issue 28)


def seat_colors(public: dict[str, Any]) -> dict[str, Color]:
    """Each player's seat colour, in seat order (as the setup screen and the reveal show them)."""
    return {p["id"]: SEATS[i % len(SEATS)] for i, p in enumerate(public.get("players", []))}


def names(public: dict[str, Any]) -> dict[str, str]:
    return {p["id"]: p["name"] for p in public.get("players", [])}


def label(surface: pygame.Surface, c: Canvas, text: str, box: pygame.Rect, size: float, color: Color,
          bold: bool = False, align: Align = "center") -> None:
    """`text` in `box`, shrunk to fit (never below 14 px on the 7" panel unless `size` is): in regular
    weight when bold is too wide, on two lines when one would be too small to read and two lines of
    whole words fit the box's height, else on one line cut with an ellipsis (`fitted_name`), never
    shrunk below that size (a room's name in Room 25's grid on the attract loop's board)."""
    px, least = c.font(size), c.font(size * 0.8 if size <= READABLE else max(size * 0.8, READABLE))
    for weight in dict.fromkeys((bold, False)):  # bold if it fits, else regular (narrower), else two lines
        fitted = c.text.fit(text, px, box.width, weight, smallest=least, height=box.height)
        if c.text.render(text, fitted, color, weight).get_width() <= box.width:
            c.text.draw(surface, text, box, fitted, color, bold=weight, align=align, shrink=False)  # (fitted)
            return
    lines = c.text.wrap(text, least, box.width, bold)
    half = box.height // 2
    words = breaks.pieces(text, c.text.dictionary)  # two lines only between words, never inside one
    if (len(lines) == 2 and c.text.render(text, least, color, bold).get_height() <= half
            and all(c.text.width(w.rstrip(), least, bold) <= box.width for w in words)):
        for i, line in enumerate(lines):
            part = pygame.Rect(box.left, box.top + i * half, box.width, half)
            c.text.draw(surface, line, part, least, color, bold=bold, align=align, shrink=False)
        return
    c.text.draw(surface, fitted_name(c, text, least, box.width), box, least, color, align=align, shrink=False)


def fitted_name(c: Canvas, name: str, size: int, width: int, bold: bool = False) -> str:
    """A player's name short enough for `width`: shrunk, but not under the readable size (14 px on the 7"
    panel) when asked at that size or more, and cut with an ellipsis past that."""
    least = c.font(READABLE) if size >= c.font(READABLE) else 10  # (10: the text cache's own least)
    smallest = c.text.fit(name, size, width, bold, smallest=least)
    if c.text.render(name, smallest, (0, 0, 0), bold).get_width() <= width:
        return name
    while len(name) > 1:
        name = name[:-1]
        short = name.rstrip() + "…"
        if c.text.render(short, c.text.fit(short, size, width, bold, smallest=least), (0, 0, 0),
                         bold).get_width() <= width:
            return short
    return name


def arrow(surface: pygame.Surface, color: Color, center: tuple[int, int], direction: str, size: int) -> None:
    """A filled triangle pointing up, down, left or right."""
    x, y = center
    tips = {
        "up": [(x, y - size), (x - size, y + size), (x + size, y + size)],
        "down": [(x, y + size), (x - size, y - size), (x + size, y - size)],
        "left": [(x - size, y), (x + size, y - size), (x + size, y + size)],
        "right": [(x + size, y), (x - size, y - size), (x - size, y + size)],
    }
    pygame.draw.polygon(surface, color, tips[direction])


def dashed_rect(surface: pygame.Surface, color: Color, rect: pygame.Rect, dash: int, width: int) -> None:
    for x in range(rect.left, rect.right, 2 * dash):
        end = min(x + dash, rect.right)
        pygame.draw.line(surface, color, (x, rect.top), (end, rect.top), width)
        pygame.draw.line(surface, color, (x, rect.bottom - 1), (end, rect.bottom - 1), width)
    for y in range(rect.top, rect.bottom, 2 * dash):
        end = min(y + dash, rect.bottom)
        pygame.draw.line(surface, color, (rect.left, y), (rect.left, end), width)
        pygame.draw.line(surface, color, (rect.right - 1, y), (rect.right - 1, end), width)


def hatch(surface: pygame.Surface, color: Color, rect: pygame.Rect, step: int, width: int) -> None:
    """Diagonal stripes inside `rect` (poison: readable without colour)."""
    clip = surface.get_clip()
    surface.set_clip(rect.clip(clip) if clip else rect)
    for x in range(rect.left - rect.height, rect.right, step):
        pygame.draw.line(surface, color, (x, rect.bottom), (x + rect.height, rect.top), width)
    surface.set_clip(clip)
