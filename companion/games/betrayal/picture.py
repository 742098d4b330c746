"""Betrayal at House on the Hill on the play screen: what the table sees of the house and the explorers.

Drawn from the public view only (companion/games/betrayal/views.py): at the top the omen count and the
haunt as a moment (companion/games/betrayal/picture_haunt.py); in the middle the house by floor, upper
floor on top, each floor's rooms in the order they were laid (B2.1) with the explorers as seat-coloured
discs in their rooms and the monsters as dark diamonds (empty while stunned: B5.1); at the bottom every
explorer's traits (companion/games/betrayal/picture_traits.py), in two columns past four explorers. A
room with someone in it is wide enough for its short name, who is there beside it; an empty room
shrinks (without its name) when the floor is crowded. All text at 14 px and up on the 7" panel (issue
28), rows 24 px high (a Thai line at 14 px); the cards, items and joins are left to the phones and
booths (docs/games/betrayal.md). Nothing here is secret: the goals of the sides are not in the public
view (B3.3), and the cards are kept face up (B2.2).
"""

from __future__ import annotations

from typing import Any

import pygame

from companion import i18n
from companion.drawing.canvas import BG, DIM, FG, Canvas
from companion.drawing.marks import READABLE, fitted_name, seat_colors
from companion.drawing.text import Color
from companion.games.betrayal.picture_haunt import draw_haunt
from companion.games.betrayal.picture_traits import draw_explorers

FLOORS = ("upper", "ground", "basement")  # top-down, as the house stands
ROOM: Color = (70, 80, 102)
ROOM_EDGE: Color = (96, 108, 134)
NAMED = 60  # a tile at least this wide (design units) shows its room's name; a busy one always tries
ROW = 24  # a line of text at 14 px, Thai's marks above and below included
NAME_ROW = 24  # a room's name on its tile (Thai at 14 px)
MONSTER: Color = (120, 24, 40)
MONSTER_EDGE: Color = (240, 120, 130)


def room_name(lang: str, rid: str) -> str:
    """A room's short name for its tile; else its name in the announcements; else (a table's own room
    without a catalog entry) its id."""
    for msgid in (f"gameboards.betrayal.room.{rid}", f"kind.betrayal.room.{rid}"):
        shown = i18n.translate(lang, msgid)
        if shown != msgid:
            return shown
    return rid


def draw_board(surface: pygame.Surface, rect: pygame.Rect, c: Canvas, lang: str,
               public: dict[str, Any], now: int) -> None:
    table = public.get("table") or {}
    if not table.get("rooms"):
        return
    row, gap = c.px(ROW), c.px(6)
    count = max(1, len(public.get("players", [])))
    lines = count if count <= 4 else (count + 1) // 2  # past four explorers, two columns of them
    head = c.px(ROW)
    haunt = pygame.Rect(rect.left, rect.top, rect.width, 3 * row)
    people = pygame.Rect(rect.left, rect.bottom - head - lines * row, rect.width, head + lines * row)
    house = pygame.Rect(rect.left, haunt.bottom + gap, rect.width, people.top - haunt.bottom - 2 * gap)
    draw_haunt(surface, haunt, c, lang, public, row)
    _house(surface, house, c, lang, public, table)
    draw_explorers(surface, people, c, lang, public, head, row, 1 if count <= 4 else 2)


def _house(surface: pygame.Surface, area: pygame.Rect, c: Canvas, lang: str, public: dict[str, Any],
           table: dict[str, Any]) -> None:
    colors = seat_colors(public)
    actor = (table.get("turn") or {}).get("actor")
    who: dict[str, list[tuple[str, bool, bool]]] = {}  # room -> (player or monster, a monster?, stunned?)
    for p in public.get("players", []):
        e = (table.get("explorers") or {}).get(p["id"]) or {}
        if e.get("alive", True) and e.get("room"):
            who.setdefault(e["room"], []).append((p["id"], False, False))
    for mid, m in sorted((table.get("monsters") or {}).items()):
        who.setdefault(m.get("room"), []).append((mid, True, bool(m.get("stunned"))))
    floor_h = area.height // len(FLOORS)
    tag_w = c.px(76)  # a floor's name at 14 px ("Basement")
    for i, floor in enumerate(FLOORS):
        band = pygame.Rect(area.left, area.top + i * floor_h, area.width, floor_h)
        tag = pygame.Rect(band.left, band.top, tag_w - c.px(4), band.height)
        words = i18n.translate(lang, f"gameboards.betrayal.floor.{floor}")
        c.text.draw(surface, fitted_name(c, words, c.font(READABLE), tag.width), tag, c.font(READABLE), DIM)
        rooms = [rid for rid, r in (table.get("rooms") or {}).items() if r.get("floor") == floor]
        tiles = pygame.Rect(band.left + tag_w, band.top, band.width - tag_w, band.height)
        for rid, box in zip(rooms, _widths(c, tiles, [bool(who.get(r)) for r in rooms]), strict=True):
            _room(surface, c, lang, rid, box, who.get(rid, []), colors, actor)
        if i:
            pygame.draw.line(surface, DIM, (band.left, band.top), (band.right - 1, band.top), 1)


def _widths(c: Canvas, tiles: pygame.Rect, busy: list[bool]) -> list[pygame.Rect]:
    """Each room's tile along the floor: all alike when they fit with their names, else the empty rooms
    narrow (without their names) and the busy ones share what is left."""
    n = len(busy)
    if not n:
        return []
    named, gap = c.px(NAMED), max(1, c.px(2))
    widths = [min(c.px(128), tiles.width // n)] * n
    k = sum(busy)
    if tiles.width // n < named and k:
        empty = max(c.px(6), min(c.px(14), (tiles.width - k * named) // max(1, n - k)))
        wide = min(c.px(128), (tiles.width - (n - k) * empty) // k)
        if wide >= c.px(16):
            widths = [wide if b else empty for b in busy]
    out, x = [], tiles.left
    pad = max(1, c.px(3))
    for w in widths:
        out.append(pygame.Rect(x, tiles.top + pad, max(1, w - gap), tiles.height - 2 * pad))
        x += w
    return out


def _room(surface: pygame.Surface, c: Canvas, lang: str, rid: str, box: pygame.Rect,
          here: list[tuple[str, bool, bool]], colors: dict[str, Color], actor: str | None) -> None:
    pygame.draw.rect(surface, ROOM, box, border_radius=c.px(3))
    pygame.draw.rect(surface, ROOM_EDGE, box, width=1, border_radius=c.px(3))
    size = c.font(READABLE)
    row = min(box.height, c.px(NAME_ROW))
    radius = max(2, min(c.px(6), (row - 4) // 2, (box.width - 2) // 2))
    spot = 2 * radius + max(1, c.px(2))
    wide = box.width >= c.px(NAMED) - max(1, c.px(2)) or (here and box.width >= c.px(28))
    if wide and box.height >= c.px(NAME_ROW) and (not here or box.width - c.px(34) >= spot):
        # the name on the left, who is here on its right (as many as fit beside a few letters of it)
        beside = min(len(here) * spot, box.width - c.px(34)) if here else 0
        name = pygame.Rect(box.left + c.px(3), box.top, box.width - c.px(6) - beside, row)
        c.text.draw(surface, fitted_name(c, room_name(lang, rid), size, name.width), name, size, FG)
        marks = pygame.Rect(name.right, box.top, box.right - name.right, row)
    else:  # a narrow tile: who is here, no name
        marks = box
    if not here or marks.width < 2 * radius + 2:
        return
    step = min(spot, max(1, (marks.width - 2 * radius - 2) // max(1, len(here) - 1)))
    y = marks.top + min(row, marks.height) // 2
    for j, (mark, monster, stunned) in enumerate(here):
        x = marks.left + 1 + radius + j * step
        if x + radius > marks.right - 1:
            break
        if monster:
            diamond = [(x, y - radius), (x + radius, y), (x, y + radius), (x - radius, y)]
            if not stunned:  # a stunned monster (B5.1) is an empty diamond
                pygame.draw.polygon(surface, MONSTER, diamond)
            pygame.draw.polygon(surface, MONSTER_EDGE, diamond, width=1)
        else:
            pygame.draw.circle(surface, BG, (x, y), radius + 1)
            pygame.draw.circle(surface, colors.get(mark, FG), (x, y), radius)
            if mark == actor:
                pygame.draw.circle(surface, FG, (x, y), radius + 1, width=1)


__all__ = ["draw_board", "room_name"]
