"""The move of the action phase: a path of rooms from where the player ended the last round.

Ruling L2: 1..speed steps, ending elsewhere than the start; each hop costs 1 step: a door, a staircase,
a bridge, the rope (straight up/down; shadows float the same way), the helicopter (first hop, only for a
player who started in 202), the B105 chute to B503 (one way), the B403 teleport to any ordinary room.
Each entry into 102 costs 1 HP at once (L2.5). A path that breaks a rule is refused with the reason and
changes nothing (L2.6).
"""

from __future__ import annotations

from typing import Any

from companion.core.rejection import Rejected
from companion.games.lockdown import health, items, mapgraph

State = dict[str, Any]
ADRENALINE_SPEED = 10


def speed(state: State, p: dict[str, Any]) -> int:
    """Ruling L7.4: the round after adrenaline is used, speed is 10."""
    if p.get("adrenaline_until") == state["round"] and not p["shadow"]:
        return ADRENALINE_SPEED
    return int(p["genes"]["speed"])


def hop_kind(state: State, p: dict[str, Any], here: str, there: str, first: bool) -> str | None:
    """How a player can go from `here` to `there` in one step, or None."""
    g = mapgraph.graph(state)
    via = g.links.get(here, {}).get(there)
    if via is not None:
        return via
    shadow = bool(p["shadow"])
    if there in g.above_below.get(here, ()) and (shadow or items.holds(p, "rope")):
        return "float" if shadow else "rope"
    if shadow:
        return None  # shadows use no room (L8.1): no helicopter, chute or teleport
    fn = mapgraph.function_of(state, here)
    if first and fn == "helipad" and there in state["map"]["helipad_routes"]:
        return "helicopter"  # L2.3: only from the room the round started in, as the first hop
    if fn == "chute" and there == state["map"]["chute_to"]:
        return "chute"
    if fn == "teleporter" and mapgraph.is_ordinary(state, there):
        return "teleport"
    return None


def check(state: State, pid: str, path: list[str]) -> list[str]:
    """The kind of every hop of a legal path, or Rejected with the reason."""
    p = state["people"][pid]
    start = p["room"]
    if not path:
        raise Rejected("reject.lockdown_path_empty")
    if len(path) > speed(state, p):
        raise Rejected("reject.lockdown_path_too_long", steps=len(path), speed=speed(state, p))
    unknown = [r for r in path if r not in mapgraph.rooms(state)]
    if unknown:
        raise Rejected("reject.lockdown_no_such_room", room=unknown[0][:8])
    if path[-1] == start:
        raise Rejected("reject.lockdown_path_ends_at_start")
    kinds: list[str] = []
    here = start
    for i, there in enumerate(path):
        kind = hop_kind(state, p, here, there, first=i == 0)
        if kind is None:
            raise Rejected("reject.lockdown_bad_hop", step=i + 1, start=here, to=there)
        kinds.append(kind)
        here = there
    return kinds


def walk(state: State, pid: str, path: list[str]) -> list[str]:
    """Move along a checked path; L2.5: every entry into the laser room costs 1 HP at once."""
    kinds = check(state, pid, path)
    laser = mapgraph.room_of(state, "laser")
    p = state["people"][pid]
    for room in path:
        if room == laser and not p["shadow"]:
            health.hurt(state, pid, 1)
    p["room"] = path[-1]
    return kinds


def next_rooms(state: State, p: dict[str, Any], here: str, first: bool) -> list[str]:
    """Every room one step from `here` by any hop `hop_kind` allows (what the path picker offers). What
    `hop_kind` asks of the player is being a shadow and holding a rope: the answer is made once per map
    for each such key."""
    key = ("next_rooms", here, bool(p["shadow"]), items.holds(p, "rope"), first)
    return list(mapgraph.graph(state).memo(key, lambda: _next_rooms(state, p, here, first)))


def _next_rooms(state: State, p: dict[str, Any], here: str, first: bool) -> tuple[str, ...]:
    g = mapgraph.graph(state)
    near = [*g.links.get(here, {}), *g.above_below.get(here, ()), *state["map"]["helipad_routes"],
            state["map"]["chute_to"]]
    if mapgraph.function_of(state, here) == "teleporter":
        near += list(mapgraph.rooms(state))
    seen = dict.fromkeys(r for r in near if r in mapgraph.rooms(state))
    return tuple(r for r in seen if hop_kind(state, p, here, r, first) is not None)


def step_graph(state: State, p: dict[str, Any]) -> tuple[tuple[str, ...], dict[str, tuple[str, ...]]]:
    """The first steps of a path from the player's room, and the steps after each room a path can reach
    before its last step (ruling L2: at most `speed` steps). It depends only on the map, the room, the
    speed, being a shadow and holding a rope (what `hop_kind` asks), so it is made once per such key
    and map (do not change what it returns)."""
    key = ("step_graph", p["room"], speed(state, p), bool(p["shadow"]), items.holds(p, "rope"))
    return mapgraph.graph(state).memo(key, lambda: _step_graph(state, p))


def _step_graph(state: State, p: dict[str, Any]) -> tuple[tuple[str, ...], dict[str, tuple[str, ...]]]:
    first = next_rooms(state, p, p["room"], first=True)
    after: dict[str, tuple[str, ...]] = {}
    frontier, depth = list(first), 1
    while frontier and depth < speed(state, p):
        fresh: list[str] = []
        for room in frontier:
            if room not in after:
                after[room] = tuple(next_rooms(state, p, room, first=False))
                fresh += after[room]
        frontier, depth = fresh, depth + 1
    return tuple(first), after
