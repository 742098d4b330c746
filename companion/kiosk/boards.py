"""Per-game pictures for the play screen and words for the booth, with generic defaults.

`board(game)` draws what the public view's `table` shows (a map, a board, a summary) into a rectangle;
`private_lines(game)` turns one player's `private` view into message ids for the booth. A game that
has a map registers its own here. The words themselves are pygame-free, in `companion.summaries`
(the phones show them too).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pygame

from companion import i18n
from companion.gameboards import lockdown, room25
from companion.kiosk.widgets import Canvas, draw_lines
from companion.summaries.lines import Lines
from companion.summaries.toolkit import private_lines as toolkit_private
from companion.summaries.toolkit import table_lines as toolkit_lines

BoardFn = Callable[[pygame.Surface, pygame.Rect, Canvas, str, dict[str, Any], int], None]
PrivateFn = Callable[[dict[str, Any]], Lines]


def summary_board(surface: pygame.Surface, rect: pygame.Rect, c: Canvas, lang: str,
                  public: dict[str, Any], now: int) -> None:
    lines = [i18n.translate(lang, msgid, params) for msgid, params in toolkit_lines(public, now)]
    draw_lines(surface, c, lines, rect, 17)


BOARDS: dict[str, BoardFn] = {"toolkit": summary_board, "room25": room25.draw_board,
                              "lockdown": lockdown.draw_board}
PRIVATE: dict[str, PrivateFn] = {"toolkit": toolkit_private, "room25": room25.private_lines,
                                 "lockdown": lockdown.private_lines}


def board(game: str) -> BoardFn | None:
    return BOARDS.get(game)


def private_lines(game: str, private: dict[str, Any]) -> Lines:
    fn = PRIVATE.get(game)
    return fn(private) if fn is not None else []
