"""Colours, buttons and regions: the pieces every screen is drawn from.

A screen is a list of `Region`s: a rectangle, a key saying what it shows, and a draw function. The
kiosk redraws a region only when its key changed and tells the display to update only those
rectangles, so an idle table redraws nothing and a running timer redraws one rectangle a second.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass, field

import pygame

from companion.kiosk.text import Color, TextCache

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
class Button:
    rect: pygame.Rect
    label: str  # translated text
    action: Callable[[], None]
    style: str = "normal"  # normal, primary, danger, off
    key: Hashable = None  # what identifies it for redraws (defaults to the label)


@dataclass
class Region:
    name: str
    rect: pygame.Rect
    key: Hashable
    draw: Callable[[pygame.Surface, pygame.Rect], None]
    audience: str = "public"


@dataclass
class Canvas:
    """What draw functions get besides the surface: the text cache and the layout's scale."""

    text: TextCache
    px: Callable[[float], int]
    font: Callable[[float], int]
    extra: dict[str, object] = field(default_factory=dict)


def panel(surface: pygame.Surface, rect: pygame.Rect, color: Color = PANEL, radius: int = 10) -> None:
    pygame.draw.rect(surface, color, rect, border_radius=radius)


def draw_button(surface: pygame.Surface, c: Canvas, b: Button, focused: bool) -> None:
    fill = {"primary": ACCENT, "danger": DANGER, "off": (50, 55, 66)}.get(b.style, (58, 66, 84))
    pygame.draw.rect(surface, fill, b.rect, border_radius=c.px(10))
    if focused:
        pygame.draw.rect(surface, FOCUS, b.rect, width=max(2, c.px(3)), border_radius=c.px(10))
    inner = b.rect.inflate(-c.px(12), -c.px(4))
    c.text.draw(surface, b.label, inner, c.font(20), DIM if b.style == "off" else FG, bold=True, align="center")


def draw_lines(surface: pygame.Surface, c: Canvas, lines: list[str], area: pygame.Rect, size: float,
               color: Color = FG, gap: float = 6) -> int:
    """Lines wrapped to `area`, top-down, as many as fit; returns how many lines were drawn.

    Each line is as tall as its own fonts need (a Thai or Chinese run is taller than Latin text), so
    mixed lines keep their size instead of shrinking to a Latin line's height.
    """
    y, drawn = area.top, 0
    px = c.font(size)
    for line in lines:
        for part in c.text.wrap(line, px, area.width):
            height = c.text.render(part, px, color).get_height()
            if y + height > area.bottom:
                return drawn
            c.text.draw(surface, part, pygame.Rect(area.left, y, area.width, height), px, color)
            y += height + c.px(gap)
            drawn += 1
    return drawn


def clock_text(ms: int) -> str:
    """Remaining time as m:ss (h:mm:ss past an hour), rounded up so 0:00 means "ran out"."""
    seconds = -(-max(0, ms) // 1000)
    h, rest = divmod(seconds, 3600)
    m, s = divmod(rest, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"
