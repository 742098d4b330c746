"""Room functions used during an action turn (ruling L3), one per visit: 201 gene bank, B101 control room,
B304 gene console. Draw rooms are in actions.py; 102, B105, B403 act on the path (movement.py); B202,
B204 and 202's poison immunity act at settlement (settlement.py, poison.py).
"""

from __future__ import annotations

from typing import Any

from companion.core.rejection import Rejected
from companion.games.lockdown import items, mapgraph, poison

State = dict[str, Any]
GENES = ("force", "speed", "load")


def _use(state: State, pid: str, function: str) -> dict[str, Any]:
    p: dict[str, Any] = state["people"][pid]
    ts = state["turn_state"]
    if not ts["moved"]:
        raise Rejected("reject.lockdown_move_first")
    if p["shadow"]:
        raise Rejected("reject.lockdown_shadow_no_room")
    if mapgraph.function_of(state, p["room"]) != function:
        raise Rejected("reject.lockdown_wrong_room", room=mapgraph.room_of(state, function))
    if ts["used_room"]:
        raise Rejected("reject.lockdown_room_used")
    ts["used_room"] = True
    return p


def check_genes(force: int, speed: int, load: int, total: int) -> None:
    """Ruling L1.2: whole numbers >= 0 adding up to the total, speed >= 1."""
    if min(force, speed, load) < 0 or speed < 1 or force + speed + load != total:
        raise Rejected("reject.lockdown_genes", total=total)


def gene_bank(state: State, pid: str) -> None:
    """Ruling L3.5: force, speed, load +1 for good; the player privately sees every player's genes."""
    p = _use(state, pid, "gene_bank")
    for g in GENES:
        p["genes"][g] += 1
    p["seen_genes"] = {other: dict(q["genes"]) for other, q in state["people"].items()}


def gene_console(state: State, pid: str, force: int, speed: int, load: int) -> None:
    """Ruling L3.6: redistribute the current total (L1.2); the hand must still fit the new load."""
    p = state["people"][pid]
    total = sum(int(p["genes"][g]) for g in GENES)
    check_genes(force, speed, load, total)
    if not items.holds(p, "pocket") and len(p["items"]) > load:
        raise Rejected("reject.lockdown_over_load", load=load)
    p = _use(state, pid, "gene_console")
    p["genes"] = {"force": force, "speed": speed, "load": load}


def control_room(state: State, pid: str, mode: str, room: str | None) -> None:
    """Ruling L3.7: (a) this round the player's vote counts 10; (b) a poisonous room becomes safe for good,
    secretly (kept in the state, never in a public or host view)."""
    if mode == "detox":
        if room is None or room not in mapgraph.rooms(state):
            raise Rejected("reject.lockdown_no_such_room", room=(room or "-")[:8])
        if mapgraph.floor_of(state, room) not in state["poison"]:
            raise Rejected("reject.lockdown_not_poisonous", room=room)
    _use(state, pid, "control_room")
    if mode == "detox":
        assert room is not None
        if room not in state["detox"]:
            state["detox"].append(room)
        state["people"][pid].setdefault("detoxed", []).append(room)
    else:
        poison.ten_votes(state, pid)
        state["people"][pid]["ten_votes_round"] = state["round"]
