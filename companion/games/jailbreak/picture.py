"""Jailbreak on the play screen: the six scenes as everyone at the table sees them.

Drawn from the public view only (companion/games/jailbreak/views.py): one track per player, in seat
order, with the six scene cards side by side (the text lays them out so); the scenes a player has
reached are shaded and their token stands in the scene they are in. The token's shape tells the role
(a star for a sheriff, a disc for a prisoner, J1.1); a face-down character (J2.5) is a face-down card,
and handcuffs (J2.1, J2.7) are drawn beside the token. Each track ends with the player's hand size (a
card with the count: public, the hands themselves are not known to anyone but their owner), and the
top line counts the turn and the deck, with a bar that runs down as the deck does (J3.2). A legend
names the marks.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import pygame

from companion import i18n
from companion.drawing.canvas import ACCENT, DANGER, DIM, FG, WARN, Canvas
from companion.drawing.marks import fitted_name, label, names, seat_colors
from companion.drawing.text import Color
from companion.games.jailbreak import data
from companion.games.jailbreak.icons import CARD_FACE, cuffs, face_down, hand_cards, token

SLOT: Color = (44, 52, 68)  # a scene card not reached yet
REACHED: Color = (70, 82, 106)  # a scene card the player has entered
NOW_ROW: Color = (48, 64, 94)  # the track of the player whose turn it is
EXIT: Color = (88, 200, 120)  # scene 6, where a key lets a prisoner out (J3.1)
INK: Color = (20, 24, 30)
Tr = Callable[..., str]  # a message id (and its parameters) in the screen's language


def draw_board(surface: pygame.Surface, rect: pygame.Rect, c: Canvas, lang: str,
               public: dict[str, Any], now: int) -> None:
    table = public.get("table") or {}
    if "people" not in table or not public.get("players"):
        return
    tr = functools.partial(i18n.translate, lang)
    top = pygame.Rect(rect.left, rect.top, rect.width, c.px(26))  # a Thai line at 16 is 26 high
    bar = pygame.Rect(rect.left, top.bottom + c.px(2), rect.width, c.px(5))
    legend = pygame.Rect(rect.left, rect.bottom - c.px(24), rect.width, c.px(24))  # a Thai word at 14 px
    tracks = pygame.Rect(rect.left, bar.bottom + c.px(6), rect.width, legend.top - bar.bottom - c.px(10))
    _top(surface, top, bar, c, tr, table, len(public["players"]))
    _tracks(surface, tracks, c, tr, public, table)
    _legend(surface, legend, c, tr)


def _top(surface: pygame.Surface, top: pygame.Rect, bar: pygame.Rect, c: Canvas, tr: Tr,
         table: dict[str, Any], players: int) -> None:
    """The turn's number, the deck count, and the deck as a bar that runs down (J3.2: empty, the
    sheriffs win). Red once the deck cannot feed another round of draws."""
    turn = (table.get("turn") or {}).get("number", 0)
    halves = (pygame.Rect(top.left, top.top, top.width // 2, top.height),
              pygame.Rect(top.left + top.width // 2, top.top, top.width - top.width // 2, top.height))
    c.text.draw(surface, tr("gameboards.jailbreak.turn", {"number": turn}), halves[0], c.font(16), FG, bold=True)
    deck, size = int(table.get("deck", 0)), max(1, int(table.get("deck_size", 1)))
    low = deck < data.DRAW * players
    words = tr("gameboards.jailbreak.deck", {"deck": deck, "size": size})
    c.text.draw(surface, words, halves[1], c.font(15), DANGER if low else FG, bold=True, align="right")
    pygame.draw.rect(surface, SLOT, bar, border_radius=c.px(2))
    left = pygame.Rect(bar.left, bar.top, round(bar.width * min(deck, size) / size), bar.height)
    if left.width:
        pygame.draw.rect(surface, DANGER if low else ACCENT, left, border_radius=c.px(2))


def _tracks(surface: pygame.Surface, area: pygame.Rect, c: Canvas, tr: Tr, public: dict[str, Any],
            table: dict[str, Any]) -> None:
    players = public["players"]
    colors, shown = seat_colors(public), names(public)
    name_w, hand_w = area.width * 31 // 100, c.px(30)
    cell_w = (area.width - name_w - hand_w) // data.SCENES
    head = pygame.Rect(area.left, area.top, area.width, c.px(24))  # a Thai word at 14 px
    row_h = min(c.px(34), (area.bottom - head.bottom) // len(players))
    cells_left = area.left + name_w
    words = pygame.Rect(area.left, head.top, name_w - c.px(6), head.height)
    c.text.draw(surface, tr("gameboards.jailbreak.scenes"), words, c.font(14), DIM, align="right")
    for n in range(1, data.SCENES + 1):
        box = pygame.Rect(cells_left + (n - 1) * cell_w, head.top, cell_w, head.height)
        c.text.draw(surface, str(n), box, c.font(14), EXIT if n == data.SCENES else DIM, bold=True, align="center")
    hand_cards(surface, c, DIM, (area.right - hand_w // 2, head.centery), head.height - c.px(4))
    current = (table.get("turn") or {}).get("player")
    people = table["people"]
    roles = table.get("roles") or {}
    for i, p in enumerate(players):
        pid = p["id"]
        person = people.get(pid) or {}
        row = pygame.Rect(area.left, head.bottom + i * row_h, area.width, row_h)
        if pid == current:
            pygame.draw.rect(surface, NOW_ROW, row, border_radius=c.px(4))
            pygame.draw.rect(surface, ACCENT, pygame.Rect(row.left, row.top, c.px(3), row.height),
                             border_radius=c.px(2))
        radius = max(3, min(c.px(7), row_h // 3))
        sheriff = roles.get(pid) == "sheriff"
        mark = (row.left + c.px(5) + radius, row.centery)
        token(surface, colors[pid], mark, radius, sheriff)
        name = pygame.Rect(mark[0] + radius + c.px(4), row.top, cells_left - mark[0] - radius - c.px(7), row.height)
        c.text.draw(surface, fitted_name(c, shown.get(pid, pid), c.font(14), name.width), name, c.font(14), FG)
        _scenes(surface, c, pygame.Rect(cells_left, row.top, cell_w * data.SCENES, row.height), cell_w, person,
                colors[pid], sheriff)
        hand = pygame.Rect(cells_left + cell_w * data.SCENES, row.top, area.right - cells_left - cell_w * data.SCENES,
                           row.height)
        _hand(surface, c, hand, int(person.get("hand", 0)))


def _scenes(surface: pygame.Surface, c: Canvas, track: pygame.Rect, cell_w: int, person: dict[str, Any],
            color: Color, sheriff: bool) -> None:
    """A player's six scene cards: shaded up to the highest reached, the token in the scene they are in,
    face down when flipped (J2.5), with handcuffs when cuffed (J2.1)."""
    scene, reached = int(person.get("scene", 1)), int(person.get("reached", 1))
    gap = max(1, c.px(2))
    for n in range(1, data.SCENES + 1):
        box = pygame.Rect(track.left + (n - 1) * cell_w, track.top, cell_w, track.height).inflate(-gap, -gap * 2)
        pygame.draw.rect(surface, REACHED if n <= reached else SLOT, box, border_radius=c.px(3))
        if n != scene:
            continue
        radius = max(3, min(box.width, box.height) // 2 - c.px(3))
        center = (box.centerx - (radius // 3 if person.get("cuffed_by") else 0), box.centery)
        if person.get("flipped"):
            face_down(surface, c, color, center, radius)
        else:
            token(surface, color, center, radius, sheriff, ring=c.px(1))
        if person.get("cuffed_by"):
            ring = max(2, radius // 2)
            cuffs(surface, WARN, (box.right - 2 * ring - 2, box.bottom - ring - 2), 2 * ring, max(1, c.px(2)))


def _hand(surface: pygame.Surface, c: Canvas, area: pygame.Rect, n: int) -> None:
    """The hand size on a small card, as the table counts it (companion/games/jailbreak/views.py)."""
    face = pygame.Rect(0, 0, area.width - c.px(6), min(area.height - c.px(2), c.px(24)))
    face.center = area.center
    pygame.draw.rect(surface, CARD_FACE, face, border_radius=c.px(3))
    over = n > data.HAND_LIMIT
    c.text.draw(surface, str(n), face.inflate(-c.px(4), 0), c.font(14), DANGER if over else INK,
                bold=True, align="center")


def _legend(surface: pygame.Surface, area: pygame.Rect, c: Canvas, tr: Tr) -> None:
    """What the marks mean: sheriff, prisoner, face down, handcuffed; each word at its own width when
    all four fit at the legend's size, else in equal slots (shrunk to fit)."""
    items = ("sheriff", "prisoner", "flipped", "cuffed")
    words = {"sheriff": tr("kind.jailbreak.role.sheriff"), "prisoner": tr("kind.jailbreak.role.prisoner"),
             "flipped": tr("gameboards.jailbreak.flipped"), "cuffed": tr("gameboards.jailbreak.cuffed")}
    radius, gap = max(3, c.px(5)), c.px(3)
    size = c.font(14)
    natural = [c.text.render(words[i], size, DIM).get_width() for i in items]
    icons = 2 * radius + 1 + gap
    spare = area.width - sum(natural) - icons * len(items)
    widths = ([icons + w + spare // len(items) for w in natural] if spare >= 0
              else [area.width // len(items)] * len(items))
    x = area.left
    for item, width in zip(items, widths, strict=True):
        slot = pygame.Rect(x, area.top, width, area.height)
        x += width
        center = (slot.left + radius + 1, slot.centery)
        if item == "flipped":
            face_down(surface, c, DIM, center, radius)
        elif item == "cuffed":
            cuffs(surface, WARN, (center[0] + radius // 2, center[1]), radius + 1, max(1, c.px(2)))
        else:
            token(surface, DIM, center, radius, item == "sheriff")
        box = pygame.Rect(center[0] + radius + gap + (radius // 2 if item == "cuffed" else 0), slot.top, 0,
                          slot.height)
        box.width = slot.right - box.left - c.px(2)
        label(surface, c, words[item], box, 14, DIM, align="left")


__all__ = ["draw_board"]
