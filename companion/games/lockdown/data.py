"""Lockdown's data files: the map (rooms, floors, buildings, doors, stairs, bridges, helicopter routes) and
the item cards with the room stocks. Validated by pydantic through `companion.core.gamedata`.

Ruling L1.4: the map is data, loaded from a file; the default is `data/map.toml` (reconstructed from the
room list, see docs/games/lockdown.md); option `map_file` loads another one. The loaded map is kept in
the game state (as `compact`), so the rules never read a file.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from companion.core import gamedata

GAME_ID = "lockdown"
Function = Literal[
    "gene_bank", "helipad", "water_tower", "laser", "control_room", "chute", "armory", "operating_room",
    "canteen", "vault", "pharmacy", "gene_console", "teleporter", "warehouse", "junkyard", "granary",
    "wine_cellar", "morgue",
]
FUNCTIONS: tuple[str, ...] = Function.__args__  # type: ignore[attr-defined]
ROOM_ID = r"^[A-Za-z0-9]{1,8}$"


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Room(_Strict):
    id: str = Field(pattern=ROOM_ID)
    building: str = Field(min_length=1, max_length=8)
    floor: str = Field(min_length=1, max_length=8)
    level: int = Field(ge=1, le=20)  # the floor's place in its building, for ropes and shadows (L2.2)
    column: int = Field(ge=1, le=50)  # rooms with the same column on neighbouring levels are above/below
    function: Function | None = None


Pair = tuple[str, str]


class MapFile(_Strict):
    name: str = Field(min_length=1, max_length=40)
    helipad_routes: list[str]
    chute_to: str
    doors: list[Pair]
    stairs: list[Pair]
    bridges: list[Pair]
    rooms: list[Room] = Field(min_length=2)

    @model_validator(mode="after")
    def _consistent(self) -> MapFile:
        ids = [r.id for r in self.rooms]
        if len(set(ids)) != len(ids):
            raise ValueError("a room id appears twice")
        known = set(ids)
        by_id = {r.id: r for r in self.rooms}
        for kind, pairs in (("doors", self.doors), ("stairs", self.stairs), ("bridges", self.bridges)):
            for a, b in pairs:
                if a not in known or b not in known:
                    raise ValueError(f"{kind}: {a}-{b} names a room that is not in the map")
                ra, rb = by_id[a], by_id[b]
                if kind == "doors" and ra.floor != rb.floor:
                    raise ValueError(f"doors: {a}-{b} joins two floors (use stairs)")
                if kind == "stairs" and (ra.building != rb.building or abs(ra.level - rb.level) != 1):
                    raise ValueError(f"stairs: {a}-{b} must join neighbouring floors of one building")
                if kind == "bridges" and ra.building == rb.building:
                    raise ValueError(f"bridges: {a}-{b} must join two buildings")
        for rid in [*self.helipad_routes, self.chute_to]:
            if rid not in known:
                raise ValueError(f"{rid} (a helicopter route or the chute's end) is not in the map")
        functions = [r.function for r in self.rooms if r.function is not None]
        missing = sorted(set(FUNCTIONS) - set(functions))
        if missing:
            raise ValueError(f"no room has the function {missing[0]}")
        if len(set(functions)) != len(functions):
            raise ValueError("two rooms have the same function")
        if not any(r.function is None for r in self.rooms):
            raise ValueError("the map needs ordinary rooms (B403 teleports to one)")
        return self


class Kind(_Strict):
    counts: dict[str, int] = Field(default_factory=dict)


class Stock(_Strict):
    limit: int = Field(ge=1, le=20)
    gold: bool = True
    keep_at_most: int | None = Field(default=None, ge=0)
    cards: dict[str, int] = Field(default_factory=dict)


class ItemsFile(_Strict):
    airdrops: list[str] = Field(min_length=6, max_length=6)
    kinds: dict[str, Kind]
    stocks: dict[Function, Stock]

    @model_validator(mode="after")
    def _consistent(self) -> ItemsFile:
        for kind in self.airdrops:
            if kind not in self.kinds:
                raise ValueError(f"airdrop {kind} is not an item kind")
        for where, stock in self.stocks.items():
            for kind in stock.cards:
                if kind not in self.kinds:
                    raise ValueError(f"stocks.{where}: {kind} is not an item kind")
        if len(self.kinds) != 21:
            raise ValueError(f"the game has 21 item kinds, this file has {len(self.kinds)}")
        return self


def load_map(path: Path | None = None) -> MapFile:
    return gamedata.load(path or gamedata.bundled(GAME_ID, "map.toml"), MapFile)


@functools.cache
def items() -> ItemsFile:
    """The bundled item cards and stocks (constant game data, read once)."""
    return gamedata.load(gamedata.bundled(GAME_ID, "items.toml"), ItemsFile)


def compact(m: MapFile) -> dict[str, Any]:
    """The map as plain JSON data for the state: rooms, floors in order, and every kind of link."""
    floors: list[str] = []
    for r in sorted(m.rooms, key=lambda r: (r.building, r.level)):
        if r.floor not in floors:
            floors.append(r.floor)
    return {
        "name": m.name,
        "rooms": {r.id: [r.building, r.floor, r.level, r.column, r.function] for r in m.rooms},
        "floors": floors,
        "doors": [list(p) for p in m.doors],
        "stairs": [list(p) for p in m.stairs],
        "bridges": [list(p) for p in m.bridges],
        "helipad_routes": list(m.helipad_routes),
        "chute_to": m.chute_to,
        "functions": {r.function: r.id for r in m.rooms if r.function is not None},
    }
