"""The marks Jailbreak's board is drawn with: a player's token (a star for a sheriff, a disc for a
prisoner), a face-down character card, a pair of handcuffs and a stack of hand cards. Shapes, not
only colours, so they read without colour too."""

from __future__ import annotations

import math

import pygame

from companion.drawing.canvas import BG, Canvas
from companion.drawing.marks import hatch
from companion.drawing.text import Color

CARD_BACK: Color = (40, 46, 60)
CARD_FACE: Color = (228, 232, 240)


def star(center: tuple[int, int], radius: int) -> list[tuple[float, float]]:
    """A five-pointed star (the sheriff's badge), point up."""
    x, y = center
    points = []
    for k in range(10):
        r = radius if k % 2 == 0 else radius * 0.48
        angle = -math.pi / 2 + k * math.pi / 5
        points.append((x + r * math.cos(angle), y + r * math.sin(angle)))
    return points


def token(surface: pygame.Surface, color: Color, center: tuple[int, int], radius: int, sheriff: bool,
          ring: int = 0) -> None:
    """A player's token: a star for a sheriff, a disc for a prisoner; `ring` outlines it against the cell."""
    if sheriff:
        if ring:
            pygame.draw.polygon(surface, BG, star(center, radius + ring), 0)
        pygame.draw.polygon(surface, color, star(center, radius))
    else:
        if ring:
            pygame.draw.circle(surface, BG, center, radius * 4 // 5 + ring)
        pygame.draw.circle(surface, color, center, radius * 4 // 5)


def face_down(surface: pygame.Surface, c: Canvas, color: Color, center: tuple[int, int], radius: int) -> None:
    """A character card lying face down (J2.5): a dark card, striped, edged in the player's colour."""
    back = pygame.Rect(0, 0, max(4, radius * 3 // 2), max(6, radius * 2))
    back.center = center
    pygame.draw.rect(surface, CARD_BACK, back, border_radius=max(1, c.px(2)))
    hatch(surface, color, back.inflate(-2, -2), max(3, radius // 2), 1)
    pygame.draw.rect(surface, color, back, width=max(1, c.px(2)), border_radius=max(1, c.px(2)))


def cuffs(surface: pygame.Surface, color: Color, center: tuple[int, int], size: int, width: int) -> None:
    """A pair of handcuffs: two rings joined by a short chain."""
    x, y = center
    r = max(2, size // 2)
    left, right = (x - r, y), (x + r, y)
    pygame.draw.circle(surface, BG, left, r + 1)
    pygame.draw.circle(surface, BG, right, r + 1)
    pygame.draw.circle(surface, color, left, r, width=min(width, r))
    pygame.draw.circle(surface, color, right, r, width=min(width, r))


def hand_cards(surface: pygame.Surface, c: Canvas, color: Color, center: tuple[int, int], height: int) -> None:
    """Two cards fanned out: the header of the hand-size column."""
    w = max(3, height * 2 // 3)
    for dx, fill in ((-w // 3, color), (w // 3, CARD_FACE)):
        face = pygame.Rect(0, 0, w, height)
        face.center = (center[0] + dx, center[1])
        pygame.draw.rect(surface, fill, face, border_radius=max(1, c.px(2)))
        pygame.draw.rect(surface, BG, face, width=1, border_radius=max(1, c.px(2)))
