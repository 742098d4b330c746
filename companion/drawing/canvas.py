"""The pieces every picture is drawn with: the palette, the canvas a draw function gets, wrapped lines.

Shared by the kiosk's screens and the games' board pictures (`companion/games/<game>/picture.py`);
it imports neither, so both can build on it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import pygame

from companion.drawing.text import Color, TextCache

BG: Color = (18, 22, 30)
PANEL: Color = (32, 38, 50)
FG: Color = (236, 239, 244)
DIM: Color = (150, 158, 172)
ACCENT: Color = (94, 168, 255)
GOOD: Color = (88, 200, 120)
WARN: Color = (255, 184, 56)
DANGER: Color = (240, 84, 84)
FOCUS: Color = (255, 255, 255)
#: Seat colours, in seat order (distinct for colour-blind players: blue, orange, green, pink...).
SEATS: tuple[Color, ...] = (
    (66, 133, 244), (244, 140, 36), (52, 168, 83), (234, 96, 160), (171, 71, 188), (0, 172, 193),
    (205, 220, 57), (141, 110, 99), (158, 158, 158), (255, 112, 67), (92, 107, 192), (38, 166, 154),
)



@dataclass
class Canvas:
    """What draw functions get besides the surface: the text cache and the layout's scale."""

    text: TextCache
    px: Callable[[float], int]
    font: Callable[[float], int]
    extra: dict[str, object] = field(default_factory=dict)


def drawn_once(surface: pygame.Surface, rect: pygame.Rect, c: Canvas, key: object,
               draw: Callable[[], None], slot: str = "") -> None:
    """`draw()` into `rect` of `surface`, or the pixels it left there the last time it was asked with
    the same `key` (one picture kept per `slot` of the canvas). For a picture that depends on less of
    the public view than its region's key (issue 20: Lockdown's board changes a few times a round, the
    view at every input), or a part of one. `draw` must draw only inside `rect` and over the same
    background each time.

    Spread over frames: when the frame's budget is spent (`c.extra["late"]()`, set by the kiosk's
    loop) and this slot holds an older picture of the same place, that one is shown for one more frame
    and `c.extra["pending"]` tells the loop to draw the region again next turn."""
    rect = rect.clip(surface.get_rect())
    kept = c.extra.setdefault("drawn_once", {})
    assert isinstance(kept, dict)
    mine = kept.get(slot)
    if mine is not None and mine[0] == (key, tuple(rect)):
        surface.blit(mine[1], rect)
        return
    late = c.extra.get("late")
    if mine is not None and mine[0][1] == tuple(rect) and callable(late) and late():
        surface.blit(mine[1], rect)
        c.extra["pending"] = True
        return
    draw()
    c.extra["drew"] = True
    kept[slot] = ((key, tuple(rect)), surface.subsurface(rect).copy())


def forget_drawn(c: Canvas) -> None:
    """Drop the pictures `drawn_once` keeps: the next ones are drawn anew (a full redraw of the screen)."""
    c.extra.pop("drawn_once", None)


def panel(surface: pygame.Surface, rect: pygame.Rect, color: Color = PANEL, radius: int = 10) -> None:
    pygame.draw.rect(surface, color, rect, border_radius=radius)


def draw_lines(surface: pygame.Surface, c: Canvas, lines: list[str], area: pygame.Rect, size: float,
               color: Color = FG, gap: float = 6, whole: bool = False) -> int:
    """Lines wrapped to `area`, top-down, as many as fit; returns how many lines were drawn.

    Each line is as tall as its own fonts need (a Thai or Chinese run is taller than Latin text), so
    mixed lines keep their size instead of shrinking to a Latin line's height. With `whole`, a line
    is drawn with all its wrapped parts or not at all (never cut mid-sentence).
    """
    y, drawn = area.top, 0
    px = c.font(size)
    for line in lines:
        parts = c.text.wrap(line, px, area.width)
        if whole and drawn:  # a line that does not fit whole is left out with the rest (news: the older ones)
            tall = sum(c.text.render(part, px, color).get_height() + c.px(gap) for part in parts) - c.px(gap)
            if y + tall > area.bottom:
                return drawn
        for i, part in enumerate(parts):
            height = c.text.render(part, px, color).get_height()
            if y + height > area.bottom:
                if i:  # a line cut in the middle (whole lines left out are a list's choice: the oldest news)
                    c.text.note_cut(part)
                return drawn
            c.text.draw(surface, part, pygame.Rect(area.left, y, area.width, height), px, color)
            y += height + c.px(gap)
            drawn += 1
    return drawn
