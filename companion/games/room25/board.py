"""Reading the table: who is where, which rooms are open, what a room is."""

from __future__ import annotations

from typing import Any

from companion.core.contract import State
from companion.games.room25 import grid
from companion.games.room25.data import EXIT

ALIVE = "alive"
DEAD = "dead"
ESCAPED = "escaped"


def person(s: State, pid: str) -> dict[str, Any]:
    found: dict[str, Any] = s["people"][pid]
    return found


def living(s: State) -> list[str]:
    """Living players still in the complex, in the current turn order."""
    return [pid for pid in s["order"] if s["people"][pid]["status"] == ALIVE]


def occupants(s: State, tile: int) -> list[str]:
    return [pid for pid in living(s) if s["people"][pid]["tile"] == tile]


def tile_of(s: State, pid: str) -> int | None:
    found: int | None = s["people"][pid]["tile"]
    return found


def cell_of_tile(s: State, tile: int) -> grid.Cell | None:
    return grid.where(s["grid"], tile)


def cell_of(s: State, pid: str) -> grid.Cell | None:
    tile = tile_of(s, pid)
    return None if tile is None else cell_of_tile(s, tile)


def is_open(s: State, tile: int) -> bool:
    return bool(s["tiles"][tile]["open"])


def room(s: State, tile: int) -> str | None:
    """The room a tile is, if it is face up (what everyone knows)."""
    t = s["tiles"][tile]
    return t["kind"] if t["open"] else None


def room_here(s: State, pid: str) -> str | None:
    tile = tile_of(s, pid)
    return None if tile is None else room(s, tile)


def on_grid(s: State) -> list[int]:
    return [t for row in s["grid"] for t in row if t is not None]


def closed(s: State) -> list[int]:
    return sorted(t for t in on_grid(s) if not is_open(s, t))


def exit_tile(s: State) -> int | None:
    """The exit's tile if the referee knows it (dealt digitally, turned up, or located at the end)."""
    for tile, t in enumerate(s["tiles"]):
        if t["kind"] == EXIT:
            return tile
    return None


def place(s: State, tile: int) -> dict[str, int] | None:
    """A tile's cell as the catalogs show it: row and column counted from 1."""
    cell = cell_of_tile(s, tile)
    return None if cell is None else {"row": cell[0] + 1, "col": cell[1] + 1}
