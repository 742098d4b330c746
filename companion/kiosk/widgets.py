"""Buttons and regions: the pieces every screen is drawn from (colours and the canvas: `companion.drawing`).

A screen is a list of `Region`s: a rectangle, a key saying what it shows, and a draw function. The
kiosk redraws a region only when its key changed and tells the display to update only those
rectangles, so an idle table redraws nothing and a running timer redraws one rectangle a second.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass

import pygame

from companion.core.lines import clock_text
from companion.drawing.canvas import (
    ACCENT,
    BG,
    DANGER,
    DIM,
    FG,
    FOCUS,
    GOOD,
    PANEL,
    SEATS,
    WARN,
    Canvas,
    draw_lines,
    panel,
)
from companion.drawing.text import Color


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


def draw_button(surface: pygame.Surface, c: Canvas, b: Button, focused: bool) -> None:
    fill = {"primary": ACCENT, "danger": DANGER, "off": (50, 55, 66)}.get(b.style, (58, 66, 84))
    pygame.draw.rect(surface, fill, b.rect, border_radius=c.px(10))
    if focused:
        pygame.draw.rect(surface, FOCUS, b.rect, width=max(2, c.px(3)), border_radius=c.px(10))
    inner = b.rect.inflate(-c.px(12), -c.px(4))
    c.text.draw(surface, b.label, inner, c.font(20), DIM if b.style == "off" else FG, bold=True, align="center")


__all__ = ["ACCENT", "BG", "DANGER", "DIM", "FG", "FOCUS", "GOOD", "PANEL", "SEATS", "WARN", "Button", "Canvas",
           "Color", "Region", "clock_text", "draw_button", "draw_lines", "panel"]
