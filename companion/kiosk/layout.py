"""One layout for every screen size: designed on an 800x480 grid and scaled.

Sizes and positions are written in design units (the 7" screen's pixels); `Layout` scales them by
the smaller of the two ratios and centres the design on wider screens (1920x1080 is 16:9, 800x480
is 5:3), so a screen reads the same on the Pi's panel and on a TV. `COMMON_SIZES` are the screens
it is tested at (every screen, every language): 800x480, 1024x600, 1280x720, 1280x800, 1920x1080.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import pygame

from companion.config import DISPLAY_SIZES

DESIGN_W, DESIGN_H = 800, 480
STATUS_H = 32  # the status bar at the top
FOOTER_H = 56  # buttons at the bottom
MARGIN = 16
COMMON_SIZES = DISPLAY_SIZES  # what `display.size` accepts besides "auto"


@dataclass(frozen=True)
class Layout:
    width: int
    height: int

    @functools.cached_property  # computed once per layout (a frame asks thousands of times)
    def scale(self) -> float:
        return min(self.width / DESIGN_W, self.height / DESIGN_H)

    @functools.cached_property
    def origin(self) -> tuple[int, int]:
        """Where the scaled design's top-left corner is (the design is centred)."""
        return (round((self.width - DESIGN_W * self.scale) / 2), round((self.height - DESIGN_H * self.scale) / 2))

    def px(self, units: float) -> int:
        return max(1, round(units * self.scale))

    def font(self, units: float) -> int:
        """A font size in pixels for a size in design units."""
        return max(10, round(units * self.scale))

    def rect(self, x: float, y: float, w: float, h: float) -> pygame.Rect:
        """A rectangle in design units, as screen pixels."""
        ox, oy = self.origin
        s = self.scale
        left, top = ox + round(x * s), oy + round(y * s)
        return pygame.Rect(left, top, round((x + w) * s) + ox - left, round((y + h) * s) + oy - top)

    def full(self) -> pygame.Rect:
        return pygame.Rect(0, 0, self.width, self.height)

    def status_bar(self) -> pygame.Rect:
        """The whole width of the screen (not only the design's), at the top."""
        return pygame.Rect(0, 0, self.width, self.rect(0, 0, 1, STATUS_H).bottom)

    def body(self) -> pygame.Rect:
        return self.rect(MARGIN, STATUS_H + MARGIN / 2, DESIGN_W - 2 * MARGIN, DESIGN_H - STATUS_H - FOOTER_H - MARGIN)

    def footer(self) -> pygame.Rect:
        return self.rect(MARGIN, DESIGN_H - FOOTER_H, DESIGN_W - 2 * MARGIN, FOOTER_H - MARGIN / 2)

    def columns(self, area: pygame.Rect, count: int, gap: float = 12) -> list[pygame.Rect]:
        """`area` split into `count` equal columns with a gap (in design units) between them."""
        g = self.px(gap)
        w = (area.width - g * (count - 1)) // max(1, count)
        return [pygame.Rect(area.left + i * (w + g), area.top, w, area.height) for i in range(count)]

    def rows(self, area: pygame.Rect, count: int, gap: float = 8) -> list[pygame.Rect]:
        g = self.px(gap)
        h = (area.height - g * (count - 1)) // max(1, count)
        return [pygame.Rect(area.left, area.top + i * (h + g), area.width, h) for i in range(count)]


def parse_size(text: str) -> tuple[int, int]:
    w, _, h = text.partition("x")
    return int(w), int(h)
