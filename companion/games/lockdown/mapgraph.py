"""Questions about the map kept in the state (see data.compact): rooms, floors, links, functions."""

from __future__ import annotations

from typing import Any

State = dict[str, Any]


def rooms(state: State) -> dict[str, list[Any]]:
    found: dict[str, list[Any]] = state["map"]["rooms"]
    return found


def floor_of(state: State, rid: str) -> str:
    return str(rooms(state)[rid][1])


def function_of(state: State, rid: str) -> str | None:
    fn = rooms(state)[rid][4]
    return None if fn is None else str(fn)


def room_of(state: State, function: str) -> str:
    """The room that has `function` (each function is in exactly one room; data.MapFile checks it)."""
    return str(state["map"]["functions"][function])


def is_ordinary(state: State, rid: str) -> bool:
    return rid in rooms(state) and rooms(state)[rid][4] is None


def links(state: State, rid: str) -> dict[str, str]:
    """Rooms one step away through a door, a staircase or a bridge (ruling L2.1), with how."""
    out: dict[str, str] = {}
    for kind, via in (("doors", "door"), ("stairs", "stairs"), ("bridges", "bridge")):
        for a, b in state["map"][kind]:
            if a == rid:
                out[b] = via
            elif b == rid:
                out[a] = via
    return out


def above_below(state: State, rid: str) -> list[str]:
    """The rooms straight above and below `rid` in its building (rope, shadows: ruling L2.2)."""
    building, _, level, column, _ = rooms(state)[rid]
    return [
        other
        for other, (b, _f, lv, col, _fn) in rooms(state).items()
        if b == building and col == column and abs(int(lv) - int(level)) == 1
    ]
