"""Lockdown on the play screen: what the table knows, and a player's secrets for the booth.

The public picture: the round and its phase, the buildings as stacks of floors with their rooms (the map is public,
it is the board on the table), poisoned floors striped red, and every player's HP as announced at the
last settlement, shadows marked. Never a position, a vote, a hand or HP before it is announced: the
public view does not hold them (companion/games/lockdown/views.py).
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from typing import Any

import pygame

from companion import i18n
from companion.drawing.canvas import ACCENT, DIM, FG, Canvas, drawn_once
from companion.drawing.marks import fitted_name, hatch, label, names, seat_colors
from companion.drawing.text import Color
from companion.games.lockdown import data

ROOM: Color = (72, 82, 104)
POISON: Color = (176, 52, 64)
POISON_STRIPE: Color = (232, 120, 120)
SHADOW: Color = (190, 150, 255)
BRIDGE: Color = (160, 170, 190)


@dataclass(frozen=True)
class Floor:
    name: str
    level: int
    rooms: int  # how many rooms stand in its row (the highest column)


@dataclass(frozen=True)
class Building:
    name: str
    floors: tuple[Floor, ...]  # lowest first


@dataclass(frozen=True)
class Plan:
    buildings: tuple[Building, ...]
    bridges: tuple[tuple[str, str], ...]  # floor names joined by a bridge


@functools.cache
def bundled_plan() -> tuple[str, Plan]:
    """The shipped map (data/map.toml) as buildings of floors, with its name."""
    m = data.load_map()
    floors: dict[str, dict[str, Floor]] = {}
    for r in m.rooms:
        known = floors.setdefault(r.building, {}).get(r.floor)
        if known is None or known.rooms < r.column:
            floors[r.building][r.floor] = Floor(r.floor, r.level, r.column)
    floor_of = {r.id: r.floor for r in m.rooms}
    plan = Plan(
        tuple(Building(b, tuple(sorted(fs.values(), key=lambda f: f.level))) for b, fs in sorted(floors.items())),
        tuple((floor_of[a], floor_of[b]) for a, b in m.bridges),
    )
    return m.name, plan


def plan_of(table: dict[str, Any]) -> Plan:
    """The bundled map's plan when the table plays it; else the floors alone, grouped by their letters
    (a map file of the table's own: its rooms are not in the public view, its floors are)."""
    name, plan = bundled_plan()
    if table.get("map") == name:
        return plan
    groups: dict[str, list[Floor]] = {}
    for floor in table.get("floors") or []:
        building = groups.setdefault(re.sub(r"\d+$", "", floor) or floor, [])
        building.append(Floor(floor, len(building) + 1, 1))
    return Plan(tuple(Building(b, tuple(fs)) for b, fs in groups.items()), ())


def draw_board(surface: pygame.Surface, rect: pygame.Rect, c: Canvas, lang: str,
               public: dict[str, Any], now: int) -> None:
    """The round and phase with the poison, the map, each player's HP: three parts, each drawn again
    only when what it shows (or the names, the language) changed, not at every turn, timer or ready
    mark (drawn_once); a new phase redraws the top line alone, and under the kiosk's frame budget the
    parts of a new round may come in successive frames (docs/perf/kiosk.md)."""
    table = public.get("table") or {}
    if "floors" not in table:
        return
    top = pygame.Rect(rect.left, rect.top, rect.width, c.px(24))
    players = public.get("players", [])
    rows = -(-len(players) // 3) if len(players) > 4 else -(-len(players) // 2)
    row_h = c.px(24)  # a Thai name at 14 px
    hp_area = pygame.Rect(rect.left, rect.bottom - rows * row_h - c.px(28), rect.width, rows * row_h + c.px(28))
    map_area = pygame.Rect(rect.left, top.bottom + c.px(6), rect.width, hp_area.top - top.bottom - c.px(12))
    poison = list(table.get("poison") or [])
    drawn_once(surface, top, c, ("lockdown.top", lang, repr([table.get(k) for k in ("round", "phase", "poison")])),
               lambda: _top(surface, top, c, lang, table, poison), "lockdown.top")
    drawn_once(surface, map_area, c, ("lockdown.map", repr([table.get(k) for k in ("floors", "map", "poison")])),
               lambda: _map(surface, map_area, c, plan_of(table), set(poison)), "lockdown.map")
    drawn_once(surface, hp_area, c, ("lockdown.hp", lang, repr((table.get("players"), players))),
               lambda: _hp(surface, hp_area, c, lang, public, table, row_h), "lockdown.hp")


def _top(surface: pygame.Surface, top: pygame.Rect, c: Canvas, lang: str, table: dict[str, Any],
         poison: list[str]) -> None:
    tr = functools.partial(i18n.translate, lang)
    split = top.width * 11 // 20
    halves = (pygame.Rect(top.left, top.top, split, top.height),
              pygame.Rect(top.left + split + c.px(6), top.top, top.width - split - c.px(6), top.height))
    phase = tr(f"gameboards.lockdown.phase.{table.get('phase')}")
    c.text.draw(surface, tr("gameboards.lockdown.round", {"round": table.get("round", 0), "phase": phase}),
                halves[0], c.font(16), FG, bold=True)
    words = tr("gameboards.lockdown.poison", {"floors": ", ".join(poison)}) if poison else \
        tr("gameboards.lockdown.no_poison")
    if c.text.width(words, c.font(14)) > halves[1].width:  # the floors at 14 px, or how many (issue 28)
        words = tr("gameboards.lockdown.poison_count", {"count": len(poison)})  # the map shows which
    c.text.draw(surface, words, halves[1], c.font(14), POISON_STRIPE if poison else DIM, align="right")


def _map(surface: pygame.Surface, area: pygame.Rect, c: Canvas, plan: Plan, poison: set[str]) -> None:
    if not plan.buildings:
        return
    levels = max(len(b.floors) for b in plan.buildings)
    tag_w, gap = c.px(30), c.px(16)
    columns = sum(max(f.rooms for f in b.floors) for b in plan.buildings)
    cell_w = max(2, (area.width - tag_w * len(plan.buildings) - gap * (len(plan.buildings) - 1)) // max(1, columns))
    floor_h = max(4, area.height // (levels + 1))
    ground = area.top + floor_h * levels  # the buildings' names stand under the ground line
    x = area.left
    where: dict[str, pygame.Rect] = {}  # each floor's row of rooms
    for b in plan.buildings:
        width = max(f.rooms for f in b.floors) * cell_w
        for i, f in enumerate(b.floors):
            row = pygame.Rect(x + tag_w, ground - (i + 1) * floor_h, f.rooms * cell_w, floor_h)
            where[f.name] = row
            c.text.draw(surface, f.name, pygame.Rect(x, row.top, tag_w - c.px(3), row.height), c.font(14),
                        POISON_STRIPE if f.name in poison else DIM, align="right")
            for n in range(f.rooms):
                room = pygame.Rect(row.left + n * cell_w, row.top, cell_w, floor_h).inflate(-max(1, c.px(2)),
                                                                                          -max(1, c.px(3)))
                if f.name in poison:
                    pygame.draw.rect(surface, POISON, room, border_radius=c.px(2))
                    hatch(surface, POISON_STRIPE, room, max(3, c.px(5)), max(1, c.px(1)))
                else:
                    pygame.draw.rect(surface, ROOM, room, border_radius=c.px(2))
        pygame.draw.line(surface, DIM, (x + tag_w, ground + 1), (x + tag_w + width - 1, ground + 1), max(1, c.px(2)))
        c.text.draw(surface, b.name, pygame.Rect(x + tag_w, ground + c.px(2), width, floor_h), c.font(14),
                    DIM, bold=True, align="center")
        x += tag_w + width + gap
    for a, b_ in plan.bridges:
        if a in where and b_ in where:
            left, right = sorted((where[a], where[b_]), key=lambda r: r.left)
            y = left.centery
            pygame.draw.line(surface, BRIDGE, (left.right, y), (right.left - c.px(26), y), max(1, c.px(2)))


def _hp(surface: pygame.Surface, area: pygame.Rect, c: Canvas, lang: str, public: dict[str, Any],
        table: dict[str, Any], row_h: int) -> None:
    title = pygame.Rect(area.left, area.top, area.width, c.px(26))  # a Thai title at 15 px
    label(surface, c, i18n.translate(lang, "gameboards.lockdown.hp_title"), title, 15, ACCENT, bold=True, align="left")
    players = public.get("players", [])
    per_row = 3 if len(players) > 4 else 2
    width = area.width // per_row
    colors, shown = seat_colors(public), names(public)
    known = {p["id"]: p for p in table.get("players", [])}
    radius = max(3, c.px(5))
    for i, p in enumerate(players):
        r, col = divmod(i, per_row)
        slot = pygame.Rect(area.left + col * width, title.bottom + c.px(2) + r * row_h, width - c.px(6), row_h)
        center = (slot.left + radius + 1, slot.centery)
        pygame.draw.circle(surface, colors[p["id"]], center, radius)
        me = known.get(p["id"], {})
        value = i18n.translate(lang, "gameboards.lockdown.shadow_mark") if me.get("shadow") else str(me.get("hp", ""))
        right = pygame.Rect(0, slot.top, slot.width // 2 if me.get("shadow") else slot.width // 4, slot.height)
        right.right = slot.right
        c.text.draw(surface, value, right, c.font(14), SHADOW if me.get("shadow") else FG, bold=True, align="right")
        name = pygame.Rect(center[0] + radius + c.px(3), slot.top, right.left - center[0] - radius - c.px(5),
                           slot.height)
        c.text.draw(surface, fitted_name(c, shown.get(p["id"], p["id"]), c.font(14), name.width), name, c.font(14), FG)


__all__ = ["draw_board"]
