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

TWO_LINES_BELOW = 16  # a label that would shrink below this (design units) on one line takes two
TWO_LINE_SIZE = 17


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
    color = DIM if b.style == "off" else FG
    if c.text.fit(b.label, c.font(20), inner.width, True, height=inner.height) < c.font(TWO_LINES_BELOW):
        for two in (TWO_LINE_SIZE, 14):  # then the smallest readable size (issue 28: 14 px on the 7" panel)
            lines = c.text.wrap(b.label, c.font(two), inner.width, True)
            tall = sum(c.text.render(line, c.font(two), color, True).get_height() for line in lines)
            # a long label on a tall button: two lines, not tiny. Their boxes may take the button's whole
            # height (a Thai line at 14 px is 23 px tall, most of it room for marks above and below)
            if len(lines) == 2 and tall <= b.rect.height - c.px(2):
                y = inner.centery - tall // 2
                for line in lines:
                    h = c.text.render(line, c.font(two), color, True).get_height()
                    c.text.draw(surface, line, pygame.Rect(inner.left, y, inner.width, h), c.font(two), color,
                                bold=True, align="center")
                    y += h
                return
    c.text.draw(surface, b.label, inner, c.font(20), color, bold=True, align="center")


def label_height(c: Canvas, text: str, width: int, size: float, height: int, bold: bool = True,
                 smallest: float = 14) -> int:
    """How tall a box `draw_label` needs for `text`: `height`, or more when the text takes two lines at
    `smallest` (two Thai lines at 14 px are 46 px tall: a form's long title, issue 28)."""
    if c.text.fit(text, c.font(size), width, bold, height=height) >= c.font(smallest):
        return height
    lines = c.text.wrap(text, c.font(smallest), width, bold)
    if len(lines) != 2:
        return height
    return max(height, sum(c.text.render(line, c.font(smallest), FG, bold).get_height() for line in lines))


def draw_label(surface: pygame.Surface, c: Canvas, text: str, rect: pygame.Rect, size: float, color: Color = FG,
               bold: bool = True, smallest: float = 14) -> None:
    """`text` on one line in `rect`, shrunk no smaller than `smallest` (design units); past that, on two
    lines at `smallest` when they fit the height (a 24-letter name in a narrow row: issue 28)."""
    if c.text.fit(text, c.font(size), rect.width, bold, height=rect.height) < c.font(smallest):
        lines = c.text.wrap(text, c.font(smallest), rect.width, bold)
        heights = [c.text.render(line, c.font(smallest), color, bold).get_height() for line in lines]
        if len(lines) == 2 and sum(heights) <= rect.height:
            y = rect.centery - sum(heights) // 2
            for line, h in zip(lines, heights, strict=True):
                c.text.draw(surface, line, pygame.Rect(rect.left, y, rect.width, h), c.font(smallest), color, bold)
                y += h
            return
    c.text.draw(surface, text, rect, c.font(size), color, bold)


__all__ = ["ACCENT", "BG", "DANGER", "DIM", "FG", "FOCUS", "GOOD", "PANEL", "SEATS", "WARN", "Button", "Canvas",
           "Color", "Region", "clock_text", "draw_button", "draw_label", "draw_lines", "label_height", "panel"]
