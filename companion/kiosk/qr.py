"""QR codes (companion.qr) as pygame surfaces, cached by URL: dark modules on white with the quiet zone."""

from __future__ import annotations

import functools

import pygame

from companion import qr

QUIET = 2  # modules of white border (the standard asks for 4; 2 scans fine on a lit screen)


@functools.lru_cache(maxsize=32)
def modules(url: str) -> pygame.Surface:
    """One pixel per module."""
    matrix = qr.matrix(url, border=QUIET)
    n = len(matrix)
    surf = pygame.Surface((n, n))
    surf.fill((255, 255, 255))
    for y, row in enumerate(matrix):
        for x, dark in enumerate(row):
            if dark:
                surf.set_at((x, y), (0, 0, 0))
    return surf


def qr_surface(url: str, size: int) -> pygame.Surface:
    """The code scaled to at most `size` pixels, by a whole number per module (sharp edges)."""
    base = modules(url)
    scale = max(1, size // base.get_width())
    return pygame.transform.scale(base, (base.get_width() * scale, base.get_height() * scale))
