"""The toolkit's board picture: its public table (timers, ballots, revealed counters and roles, rolls) as
lines on the play screen."""

from __future__ import annotations

from typing import Any

import pygame

from companion.drawing.canvas import Canvas, draw_lines
from companion.games.toolkit.lines import table_lines
from companion.naming import Namer


def draw_board(surface: pygame.Surface, rect: pygame.Rect, c: Canvas, lang: str,
               public: dict[str, Any], now: int) -> None:
    namer = Namer.of(public)  # the host's names for its timers and votes, roles in words: companion/naming.py
    lines = [namer.text(lang, msgid, params) for msgid, params in table_lines(public, now)]
    draw_lines(surface, c, lines, rect, 17)
