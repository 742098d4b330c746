"""What each audience sees. Public: the grid, face-up rooms, where everyone is, the turn track, actions
as they are revealed, roles only once the rules reveal them. A player adds their own role, plan and
peeks. The host runs the session and is told no secret."""

from __future__ import annotations

from typing import Any

from companion.core.contract import State
from companion.games.room25 import board, flow
from companion.parts import programming, roles, timers


def _room_shown(s: State, tile: int) -> str | None:
    t = s["tiles"][tile]
    if t["open"] or (s["finished"] is not None and t["kind"] is not None):  # all turned up at the end
        kind: str | None = t["kind"]
        return kind
    return None


def public(s: State) -> dict[str, Any]:
    head = s["pending"][0] if s["pending"] else None
    waiting = None
    if head is not None and head["kind"] in ("reveal", "choice"):
        waiting = {"kind": head["kind"], "player": head["player"], "tile": head["tile"]}
        if head["kind"] == "choice":
            waiting["room"] = head["room"]
    return {
        "mode": s["mode"],
        "tiles": "physical" if s["physical"] else "digital",
        "turn": s["turn"],
        "last_turn": s["last_turn"],
        "turns_left": max(0, s["last_turn"] - s["turn"] + 1),
        "order": list(s["order"]),
        "grid": [list(row) for row in s["grid"]],
        "rooms": [
            {"tile": t, "cell": list(c) if (c := board.cell_of_tile(s, t)) else None, "room": _room_shown(s, t)}
            for t in range(len(s["tiles"]))
        ],
        "people": {
            pid: {
                "tile": p["tile"],
                "cell": list(c) if (c := board.cell_of(s, pid)) else None,
                "status": p["status"],
                "one_action": p["one_action_turn"] is not None and p["one_action_turn"] >= s["turn"],
                "trapped": p["trap"] is not None,
                "flooded": p["flood"] is not None,
            }
            for pid, p in s["people"].items()
        },
        "locks": dict(s["locks"]),
        "program": programming.public(s["program"]),
        "current": None if s["current"] is None else {k: s["current"][k] for k in ("player", "slot", "action")},
        "waiting": waiting,
        "locating_exit": s["locating"],
        "roles": None if s["deal"] is None else roles.public(s["deal"]),
        "teams": s["teams"],
        "exit_left": s["exit_left"],
        "escaped": list(s["escaped"]),
        "timers": {} if s["timer"] is None else {flow.TIMER: timers.public(s["timer"])},
        "timer_seconds": s["timer_seconds"],
    }


def player(s: State, pid: str) -> dict[str, Any]:
    me = s["people"][pid]
    return {
        "role": None if s["deal"] is None else roles.private(s["deal"], pid),
        "plan": programming.private(s["program"], pid),
        "actions_this_turn": flow.slots(s, pid) if me["status"] == board.ALIVE else 0,
        "peeks": [
            {"tile": tile, "room": kind, "cell": list(c) if (c := board.cell_of_tile(s, tile)) else None}
            for tile, kind in me["peeks"]
        ],
    }
