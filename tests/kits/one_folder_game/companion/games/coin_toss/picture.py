"""Coin toss's board: every player's score, one line each."""

from __future__ import annotations

from typing import Any

import pygame

from companion import i18n
from companion.drawing.canvas import FG, Canvas
from companion.drawing.marks import label, names


def draw_board(surface: pygame.Surface, rect: pygame.Rect, c: Canvas, lang: str,
               public: dict[str, Any], now: int) -> None:
    table = public.get("table") or {}
    who = names(public)
    row = rect.height // max(1, len(who) + 1)
    label(surface, c, i18n.translate(lang, "coin_toss.board.title"), pygame.Rect(rect.left, rect.top, rect.width, row),
          20, FG, bold=True)
    for i, (pid, score) in enumerate(sorted((table.get("scores") or {}).items())):
        text = i18n.translate(lang, "coin_toss.board.score", {"name": who.get(pid, pid), "score": score})
        label(surface, c, text, pygame.Rect(rect.left, rect.top + (i + 1) * row, rect.width, row), 18, FG)
