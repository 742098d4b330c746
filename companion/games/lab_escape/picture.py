"""Escape the Lab on the play screen: the lab as everyone at the table sees it.

Drawn from the public view only (companion/games/lab_escape/views.py; everything in this game lies on
the table, E1.1): the lab's nine cards as slots of a 3-column grid (each card its two rooms, one above
the other): the cards in play, then the two display cards (dimmed, outlined in the display's colour),
then a dashed slot for each card still in the deck; each player's seat-coloured disc in their room, the
weapons and dropped items lying in rooms as their tokens; a row per player with their stamina die and
the items they hold; and at the bottom, while cards remain, the display's name and the deck's count on
one line, the USB key's whereabouts and what is scarce in the supply (the last one of a kind, and the
kinds gone). All text at 14 px and up on the 7" panel (issue 28), each line 24 px high (a Thai line);
where the card lies and which way it turns are left to the phones and booths (docs/games/lab_escape.md).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import pygame

from companion import i18n
from companion.drawing.canvas import ACCENT, DIM, FG, GOOD, WARN, Canvas
from companion.drawing.marks import READABLE, dashed_rect, fitted_name, names, seat_colors
from companion.drawing.text import Color
from companion.games.lab_escape import data
from companion.games.lab_escape.picture_people import draw_people, token

COLUMNS = 3
ROW = 24  # a room's row, a player's, a line below: a Thai name at 14 px fits (design units)
ROOM: Color = (58, 68, 90)
HALL: Color = (92, 80, 44)  # the way out (E6.2)
DISPLAY: Color = (40, 47, 62)
SLOT: Color = (70, 78, 96)


def draw_board(surface: pygame.Surface, rect: pygame.Rect, c: Canvas, lang: str,
               public: dict[str, Any], now: int) -> None:
    table = public.get("table") or {}
    if "lab" not in table:
        return
    players = public.get("players", [])
    line_h = row_h = c.px(ROW)
    rows = _slots(table)[1]
    least = rows * 2 * c.px(ROW) + c.px(3) * (rows - 1)  # the cards with their rooms readable
    spare = rect.height - least - len(players) * row_h - c.px(10)
    most = max(1, min(5, spare // line_h))
    waiting = bool(table.get("display")) or int(table.get("deck_count") or 0) > 0
    info = _info_lines(c, lang, public, table, rect.width, max(1, most - waiting))
    lines = len(info) + waiting
    info_area = pygame.Rect(rect.left, rect.bottom - lines * line_h, rect.width, lines * line_h)
    people_area = pygame.Rect(rect.left, info_area.top - c.px(4) - len(players) * row_h, rect.width,
                              len(players) * row_h)
    cards_area = pygame.Rect(rect.left, rect.top, rect.width, people_area.top - c.px(6) - rect.top)
    _cards(surface, cards_area, c, lang, public, table)
    draw_people(surface, people_area, c, lang, public, table, row_h)
    size = c.font(READABLE)
    top = info_area.top
    if waiting:
        _waiting(surface, pygame.Rect(info_area.left, top, info_area.width, line_h), c, lang, table)
        top += line_h
    for i, (words, color) in enumerate(info):
        box = pygame.Rect(info_area.left, top + i * line_h, info_area.width, line_h)
        c.text.draw(surface, words, box, size, color)


def _waiting(surface: pygame.Surface, line: pygame.Rect, c: Canvas, lang: str, table: dict[str, Any]) -> None:
    """The display's name (in its cards' outline colour) and the deck's count, on one line."""
    tr = functools.partial(i18n.translate, lang)
    size = c.font(READABLE)
    half = pygame.Rect(line.left, line.top, line.width // 2 - c.px(4), line.height)
    c.text.draw(surface, fitted_name(c, tr("gameboards.lab_escape.display"), size, half.width, bold=True), half,
                size, ACCENT, bold=True)
    deck = tr("gameboards.lab_escape.deck", {"count": int(table.get("deck_count") or 0)})
    rest = pygame.Rect(half.right + c.px(8), line.top, line.right - half.right - c.px(8), line.height)
    c.text.draw(surface, fitted_name(c, deck, size, rest.width), rest, size, DIM)


def _slots(table: dict[str, Any]) -> tuple[int, int]:
    """How many cards the lab will hold (in play, on display, in the deck: E1.1), and in how many rows."""
    slots = len(table.get("lab") or []) + len(table.get("display") or []) + int(table.get("deck_count") or 0)
    return slots, max(1, -(-slots // COLUMNS))


def _cards(surface: pygame.Surface, area: pygame.Rect, c: Canvas, lang: str, public: dict[str, Any],
           table: dict[str, Any]) -> None:
    """The lab's slots, 3 to a row: the cards in play, the display cards, then a dashed slot per card
    still in the deck."""
    lab, display = table.get("lab") or [], table.get("display") or []
    slots, rows = _slots(table)
    gap = c.px(3)
    card_h = min(c.px(2 * ROW + 8), (area.height - gap * (rows - 1)) // rows)
    col_w = (area.width - gap * (COLUMNS - 1)) // COLUMNS
    here: dict[str, list[str]] = {}
    for p in public.get("players", []):
        room = ((table.get("people") or {}).get(p["id"]) or {}).get("room")
        if room is not None:
            here.setdefault(room, []).append(p["id"])
    floor = table.get("floor") or {}
    colors, current = seat_colors(public), public.get("turn")
    for i in range(rows * COLUMNS):
        row, col = divmod(i, COLUMNS)
        box = pygame.Rect(area.left + col * (col_w + gap), area.top + row * (card_h + gap), col_w, card_h)
        if i < len(lab):
            _card(surface, box, c, lang, lab[i], here, floor, colors, current)
        elif i < len(lab) + len(display):
            _card(surface, box, c, lang, display[i - len(lab)], {}, {}, colors, None, shown=False)
        elif i < slots:
            dashed_rect(surface, SLOT, box, c.px(4), max(1, c.px(1)))


def room_name(lang: str, room: str, kind: str) -> str:
    """A room's short name (the full ones, "Corridor (archive side)", do not fit a card); a room of a
    table's own data file by its kind's."""
    short = f"gameboards.lab_escape.short.{room}"
    return i18n.translate(lang, short if short in i18n.msgids("en") else f"gameboards.lab_escape.short.{kind}")


def _card(surface: pygame.Surface, box: pygame.Rect, c: Canvas, lang: str, card: dict[str, Any],
          here: dict[str, list[str]], floor: dict[str, list[str]], colors: dict[str, Color],
          current: str | None, shown: bool = True) -> None:
    """A two-room card, its rooms one above the other: name at the left, then what lies on the floor,
    then the discs of who stands there. A display card (not `shown` in play) is dimmed and outlined."""
    rooms = card.get("rooms") or []
    rh = box.height // max(1, len(rooms))
    for j, r in enumerate(rooms):
        part = pygame.Rect(box.left, box.top + j * rh, box.width, rh if j < len(rooms) - 1 else box.bottom
                           - box.top - j * rh)
        fill = DISPLAY if not shown else HALL if r.get("kind") == data.HALL else ROOM
        pygame.draw.rect(surface, fill, part.inflate(0, -max(1, c.px(1))), border_radius=c.px(3))
        radius = max(2, min(c.px(5), part.height // 2 - c.px(2)))
        pids, things = here.get(r["room"], []), sorted(set(floor.get(r["room"], [])))
        marks = len(pids) + len(things)
        step = radius * 2 + max(1, c.px(2))
        room_for_marks = part.width * 11 // 20 - c.px(3)  # the name keeps the rest
        if marks > 1 and (marks - 1) * step + 2 * radius > room_for_marks:
            step = max(1, (room_for_marks - 2 * radius) // (marks - 1))  # overlapping, like stacked tokens
        right = part.right - c.px(3) - radius
        spots = [(right - k * step, part.centery) for k in range(marks)][::-1]  # drawn left to right
        for item, center in zip(things, spots, strict=False):
            token(surface, c, item, center, radius)
        for pid, center in zip(pids, spots[len(things):], strict=True):
            pygame.draw.circle(surface, colors.get(pid, FG), center, radius)
            if pid == current:
                pygame.draw.circle(surface, FG, center, radius + max(1, c.px(1)), width=max(1, c.px(1)))
        x = spots[0][0] - radius if spots else part.right - c.px(3)
        name = pygame.Rect(part.left + c.px(4), part.top, max(1, x - part.left - c.px(5)), part.height)
        words = room_name(lang, r["room"], str(r.get("kind")))
        c.text.draw(surface, fitted_name(c, words, c.font(READABLE), name.width), name, c.font(READABLE),
                    FG if shown else DIM)
    if not shown:  # a display card: outlined in the display's colour (its name below the lab)
        dashed_rect(surface, ACCENT, box, c.px(3), max(1, c.px(1)))


def usb_key_line(lang: str, public: dict[str, Any], table: dict[str, Any],
                 short: Callable[[str], str] = str) -> str:
    """Where the one USB key is (E6.2): with a player, lying in a room, or still in the supply (a long
    name made `short`)."""
    tr = functools.partial(i18n.translate, lang)
    shown = {pid: short(name) for pid, name in names(public).items()}
    winner = table.get("winner")
    if winner is not None:
        return tr("gameboards.lab_escape.usb_won", {"player": shown.get(winner, winner)})
    for pid, p in (table.get("people") or {}).items():
        if data.USB_KEY in (p.get("items") or []):
            return tr("gameboards.lab_escape.usb_held", {"player": shown.get(pid, pid)})
    for room, things in (table.get("floor") or {}).items():
        if data.USB_KEY in things:
            return tr("gameboards.lab_escape.usb_floor", {"room": data.room_word(room)})
    return tr("gameboards.lab_escape.usb_supply")


def scarce(table: dict[str, Any]) -> tuple[list[str], list[str]]:
    """The items the rooms hand out with one left in the supply, and those with none (the USB key has
    its own line; the white cubes no room uses)."""
    supply = table.get("supply") or {}
    kinds = [i for i in data.ITEMS if i != data.USB_KEY and i in supply]
    return [i for i in kinds if supply[i] == 1], [i for i in kinds if supply[i] <= 0]


def _info_lines(c: Canvas, lang: str, public: dict[str, Any], table: dict[str, Any], width: int,
                most: int) -> list[tuple[str, Color]]:
    """The USB key's line, then the scarce kinds (the last ones, the gone ones), each wrapped; at most
    `most` lines, each group at least its first (cut with an ellipsis when it goes on)."""
    tr = functools.partial(i18n.translate, lang)
    sep = tr("gameboards.lab_escape.list_sep")
    half = functools.partial(fitted_name, c, size=c.font(READABLE), width=width // 2)
    groups = [([usb_key_line(lang, public, table, half)], GOOD)]
    last, gone = scarce(table)
    for msgid, kinds, color in (("gameboards.lab_escape.last_one", last, WARN),
                                ("gameboards.lab_escape.none_left", gone, DIM)):
        if kinds:
            words = tr(msgid, {"items": sep.join(tr(data.item_word(i)) for i in kinds)})
            groups.append((c.text.wrap(words, c.font(READABLE), width), color))
    if len(groups) == 1:
        groups.append(([tr("gameboards.lab_escape.plenty")], DIM))
    groups = groups[:most]
    room = most - len(groups)
    lines: list[tuple[str, Color]] = []
    for parts, color in groups:
        shown = 1 + min(room, len(parts) - 1)
        room -= shown - 1
        kept = parts[:shown]
        if len(parts) > shown:
            kept[-1] += "…"
        lines += [(fitted_name(c, words, c.font(READABLE), width), color) for words in kept]
    return lines


__all__ = ["draw_board", "room_name", "scarce", "usb_key_line"]
