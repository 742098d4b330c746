"""Shared pieces of the game board tests: a full redraw of a scene with its texts recorded, the board's
rectangle, and the texts a booth drew."""

from __future__ import annotations

import pygame

from companion.drawing.text import Drawn
from companion.kiosk.scenes import Scene


def redraw(scene: Scene) -> list[Drawn]:
    """Everything on the screen drawn again, with what was drawn recorded."""
    k = scene.kiosk
    k._drawn = None  # a full redraw, so every text on the screen is recorded
    assert k.text.record is not None
    k.text.record.clear()
    k.process()
    return list(k.text.record)


def board_rect(scene: Scene) -> pygame.Rect:
    found = [r.rect for r in scene.kiosk.regions() if r.name == "play.board"]
    assert found, f"no board on the {scene.kiosk.top.name} screen"
    return found[0]


def texts_in(drawn: list[Drawn], area: pygame.Rect, audience: str = "public") -> list[str]:
    return [d.text for d in drawn if d.audience == audience and area.contains(d.region)]
