"""Room 25 on the play screen: the 5x5 complex as everyone at the table sees it, and a player's secrets
for the booth.

Drawn from the public view only: face-up rooms in their danger colour with their (short) translated
name, closed rooms face down, the living players as seat-coloured markers on their room, the turn
track, each locked slide as an arrow outside its row or column (R2.6), and the gap the exit left
(R4.2). Nothing about a closed room, a role or a programmed action is in the public view, so nothing
of it can be drawn.
"""

from __future__ import annotations

from typing import Any

import pygame

from companion import i18n
from companion.drawing.canvas import ACCENT, BG, DIM, FG, WARN, Canvas
from companion.drawing.marks import arrow, dashed_rect, fitted_name, label, names, seat_colors
from companion.drawing.text import Color
from companion.games.room25 import data

SIZE = 5
SIDE = 120  # the least width (design units) beside the grid for the turns and the names
WIDEST = 13  # a room at most 1.3 times as wide as tall (tenths), where the board has width to spare: a name
# such as "Passage" or "Flooded" whole at 14 px on a TV's attract loop, not cut
LEGEND_ROW = 26  # a name's row beside the grid: a Thai name at 14 px
INK: Color = (20, 24, 30)
FACE_DOWN: Color = (52, 60, 78)
FACE_DOWN_EDGE: Color = (78, 88, 110)
#: Danger levels as the tiles' colours (green, yellow, red), plus the start room and the exit.
FILL: dict[str, Color] = {
    "safe": (126, 204, 146), "low": (242, 200, 96), "high": (238, 116, 104),
    data.START: (156, 184, 232), data.EXIT: (250, 250, 250),
}


def fill_of(kind: str) -> Color:
    if kind in (data.START, data.EXIT):
        return FILL[kind]
    return FILL[data.bundled().kinds.get(kind, "safe")]


def draw_board(surface: pygame.Surface, rect: pygame.Rect, c: Canvas, lang: str,
               public: dict[str, Any], now: int) -> None:
    table = public.get("table") or {}
    if not table.get("grid"):
        return
    if rect.width - rect.height >= c.px(SIDE):  # the grid as tall as the board, the rest beside it
        wide = min(rect.height * WIDEST // 10, rect.width - c.px(SIDE) - c.px(8))  # rooms wider with room to spare
        middle = pygame.Rect(rect.left, rect.top, wide, rect.height).inflate(0, -c.px(4))  # arrows inside
        side = pygame.Rect(middle.right + c.px(8), rect.top, rect.right - middle.right - c.px(8), rect.height)
        top = pygame.Rect(side.left, side.top, side.width, c.px(48))
        legend = pygame.Rect(side.left, top.bottom + c.px(8), side.width, side.bottom - top.bottom - c.px(8))
    else:  # a narrow board (the attract loop's): the turns above the grid, who is who below
        top = pygame.Rect(rect.left, rect.top, rect.width, c.px(24))
        legend = pygame.Rect(rect.left, rect.bottom - c.px(20), rect.width, c.px(20))
        middle = pygame.Rect(rect.left, top.bottom + c.px(4), rect.width, legend.top - top.bottom - c.px(8))
    _turn_track(surface, top, c, lang, table)
    _grid(surface, middle, c, lang, public, table)
    _legend(surface, legend, c, public, table)


def _turn_track(surface: pygame.Surface, area: pygame.Rect, c: Canvas, lang: str, table: dict[str, Any]) -> None:
    turn, last = int(table["turn"]), int(table["last_turn"])
    stacked = area.height >= c.px(48)  # the words above the track, beside the grid
    words = pygame.Rect(area.left, area.top, area.width if stacked else area.width * 2 // 5,
                        area.height // 2 if stacked else area.height)
    c.text.draw(surface, i18n.translate(lang, "gameboards.room25.turn", {"turn": turn, "last": last}),
                words, c.font(16), FG, bold=True)
    track = (pygame.Rect(area.left, words.bottom, area.width, area.bottom - words.bottom) if stacked else
             pygame.Rect(words.right + c.px(6), area.top, area.right - words.right - c.px(6), area.height))
    step = track.width // max(1, last)
    box = max(4, min(c.px(14), step - c.px(3)))
    for n in range(1, last + 1):
        cell = pygame.Rect(track.left + (n - 1) * step, track.centery - box // 2, box, box)
        if n < turn:
            pygame.draw.rect(surface, DIM, cell, border_radius=c.px(2))
        elif n == turn:
            pygame.draw.rect(surface, ACCENT, cell, border_radius=c.px(2))
        else:
            pygame.draw.rect(surface, DIM, cell, width=max(1, c.px(1)), border_radius=c.px(2))


def _grid(surface: pygame.Surface, area: pygame.Rect, c: Canvas, lang: str, public: dict[str, Any],
          table: dict[str, Any]) -> None:
    margin = c.px(12)  # room for the lock arrows
    tall = (min(area.width, area.height) - 2 * margin) // SIZE
    cell = min((area.width - 2 * margin) // SIZE, tall * WIDEST // 10)  # a room's width
    grid_rect = pygame.Rect(0, 0, cell * SIZE, tall * SIZE)
    grid_rect.center = area.center
    rooms = {r["tile"]: r["room"] for r in table["rooms"]}
    colors = seat_colors(public)
    current = (table.get("current") or {}).get("player")
    here: dict[tuple[int, int], list[str]] = {}
    for pid in (p["id"] for p in public.get("players", [])):
        person = table["people"].get(pid) or {}
        if person.get("status") == "alive" and person.get("cell") is not None:
            here.setdefault((person["cell"][0], person["cell"][1]), []).append(pid)
    gap = max(1, c.px(2))
    for r, row in enumerate(table["grid"]):
        for col, tile in enumerate(row):
            box = pygame.Rect(grid_rect.left + col * cell, grid_rect.top + r * tall, cell, tall).inflate(-gap, -gap)
            if tile is None:
                dashed_rect(surface, DIM, box, c.px(4), max(1, c.px(1)))
                if table.get("exit_left"):
                    label(surface, c, i18n.translate(lang, "gameboards.room25.exit_gone"), box.inflate(-c.px(2), 0),
                          15, DIM)
                continue
            kind = rooms.get(tile)
            if kind is None:
                pygame.draw.rect(surface, FACE_DOWN, box, border_radius=c.px(4))
                pygame.draw.rect(surface, FACE_DOWN_EDGE, box.inflate(-c.px(8), -c.px(8)), width=max(1, c.px(1)),
                                 border_radius=c.px(3))
            else:
                pygame.draw.rect(surface, fill_of(kind), box, border_radius=c.px(4))
                name = pygame.Rect(box.left, box.top + c.px(2), box.width, box.height * 11 // 20)  # the
                # tile's whole width: "Passage" whole at 14 px on the attract loop's board (the glyphs' side
                # bearings keep its ink off the tile's edge)
                label(surface, c, i18n.translate(lang, f"gameboards.room25.short.{kind}"), name, 15, INK, bold=True)
            _markers(surface, c, box, here.get((r, col), []), colors, current)
    for line, direction in sorted((table.get("locks") or {}).items()):
        index = int(line[3:])
        size = c.px(6)
        if line.startswith("row"):
            y = grid_rect.top + index * tall + tall // 2
            x = grid_rect.left - margin // 2 if direction == "left" else grid_rect.right + margin // 2
            arrow(surface, WARN, (x, y), direction, size)
        else:
            x = grid_rect.left + index * cell + cell // 2
            y = grid_rect.top - margin // 2 if direction == "up" else grid_rect.bottom + margin // 2
            arrow(surface, WARN, (x, y), direction, size)


def _markers(surface: pygame.Surface, c: Canvas, box: pygame.Rect, pids: list[str],
             colors: dict[str, Color], current: str | None) -> None:
    """Seat-coloured discs in the lower part of a room, three to a row."""
    if not pids:
        return
    radius = max(3, min(box.width, box.height) // 10)
    step = radius * 2 + max(1, c.px(2))
    per_row = 3
    for i, pid in enumerate(pids):
        row, col = divmod(i, per_row)
        in_row = min(per_row, len(pids) - row * per_row)
        x = box.centerx + (col - (in_row - 1) / 2) * step
        y = box.bottom - radius - c.px(3) - row * step
        center = (round(x), round(y))
        pygame.draw.circle(surface, BG, center, radius + max(1, c.px(1)))
        pygame.draw.circle(surface, colors.get(pid, FG), center, radius)
        if pid == current:
            pygame.draw.circle(surface, FG, center, radius + max(1, c.px(1)), width=max(1, c.px(2)))


def _legend(surface: pygame.Surface, area: pygame.Rect, c: Canvas, public: dict[str, Any],
            table: dict[str, Any]) -> None:
    """Who is which colour: a disc and a name per player; hollow once out, crossed once dead."""
    players = public.get("players", [])
    if not players:
        return
    colors, shown = seat_colors(public), names(public)
    row_h = c.px(LEGEND_ROW)
    across = area.height < 2 * row_h  # one row under the grid, else a name a row beside it
    width = area.width // len(players) if across else area.width
    radius = max(3, c.px(5))
    for i, p in enumerate(players):
        slot = (pygame.Rect(area.left + i * width, area.top, width, area.height) if across else
                pygame.Rect(area.left, area.top + i * row_h, width, row_h))
        if slot.bottom > area.bottom:
            break
        center = (slot.left + radius + 1, slot.centery)
        status = (table["people"].get(p["id"]) or {}).get("status")
        color = colors[p["id"]]
        if status == "escaped":
            pygame.draw.circle(surface, color, center, radius, width=max(1, c.px(2)))
        elif status == "dead":
            pygame.draw.circle(surface, DIM, center, radius)
            d = radius - 1
            pygame.draw.line(surface, BG, (center[0] - d, center[1] - d), (center[0] + d, center[1] + d), 2)
            pygame.draw.line(surface, BG, (center[0] - d, center[1] + d), (center[0] + d, center[1] - d), 2)
        else:
            pygame.draw.circle(surface, color, center, radius)
        name = pygame.Rect(center[0] + radius + c.px(3), slot.top, slot.right - center[0] - radius - c.px(5),
                           slot.height)
        size = c.font(13 if across else 14)
        who = fitted_name(c, shown.get(p["id"], p["id"]), size, name.width)
        c.text.draw(surface, who, name, size, FG if status == "alive" else DIM)


__all__ = ["draw_board"]
