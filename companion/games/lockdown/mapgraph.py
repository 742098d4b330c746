"""Questions about the map kept in the state (see data.compact): rooms, floors, links, functions.

The map never changes during a game, but the state is a fresh copy at every step (the referee's pickle
copy), so the answers that walk the whole map (links, rooms above and below, the path picker's step
graph) are kept per map *content* in a `Graph`, found again by the map dict's identity within one state
and by its JSON text across copies (issue 20: the path picker walked the map for every hop it tried).
"""

from __future__ import annotations

import functools
import json
import threading
from collections.abc import Callable, Hashable
from typing import Any, TypeVar

State = dict[str, Any]
T = TypeVar("T")
RECENT_MAPS = 16  # map dicts remembered by identity (one per state copy the table still looks at)
MEMO_MAX = 2048  # answers kept per map (rooms x shadow/rope x first hop, positions x speeds: a few hundred)


class Graph:
    """One map's links and vertical neighbours, built once, and a memo of answers that depend only on
    the map and the hashable key they are asked with."""

    def __init__(self, m: dict[str, Any]) -> None:
        self.links: dict[str, dict[str, str]] = {rid: {} for rid in m["rooms"]}
        for kind, via in (("doors", "door"), ("stairs", "stairs"), ("bridges", "bridge")):
            for a, b in m[kind]:
                self.links.setdefault(a, {})[b] = via
                self.links.setdefault(b, {})[a] = via
        self.above_below: dict[str, tuple[str, ...]] = {
            rid: tuple(other for other, (b, _f, lv, col, _fn) in m["rooms"].items()
                       if b == building and col == column and abs(int(lv) - int(level)) == 1)
            for rid, (building, _, level, column, _) in m["rooms"].items()
        }
        self._memo: dict[Hashable, Any] = {}

    def memo(self, key: Hashable, make: Callable[[], T]) -> T:
        """`make()`'s answer for `key`, made once per map (callers must not change what it returns)."""
        try:
            found: T = self._memo[key]
            return found
        except KeyError:
            pass
        value = make()
        if len(self._memo) >= MEMO_MAX:
            self._memo.clear()
        self._memo[key] = value
        return value


@functools.lru_cache(maxsize=8)
def _graph_of(text: str) -> Graph:
    return Graph(json.loads(text))


_recent: dict[int, tuple[dict[str, Any], Graph]] = {}
_recent_lock = threading.Lock()


def graph(state: State) -> Graph:
    """The state's map as a `Graph` (the same one for every copy of the same map)."""
    m = state["map"]
    hit = _recent.get(id(m))
    if hit is not None and hit[0] is m:  # the dict is held in `_recent`, so its id is not reused meanwhile
        return hit[1]
    g = _graph_of(json.dumps(m, sort_keys=True))
    with _recent_lock:
        if len(_recent) >= RECENT_MAPS:
            _recent.clear()
        _recent[id(m)] = (m, g)
    return g


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
    return dict(graph(state).links.get(rid, {}))


def above_below(state: State, rid: str) -> list[str]:
    """The rooms straight above and below `rid` in its building (rope, shadows: ruling L2.2)."""
    return list(graph(state).above_below[rid])
