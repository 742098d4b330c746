"""Poison floors: the vote (ruling L4) and who poison hurts (ruling L7.1).

The vote is a secret ballot (companion.parts.ballot) over the floors not yet poisonous; B101's first
function makes one voter's vote count 10 (L3.7a). The floor(s) with the most votes become poisonous,
all of them on a tie; no votes, no poison (L4.2). Who voted for what is never shown (L4.3).
"""

from __future__ import annotations

from typing import Any

from companion.core.rejection import Rejected
from companion.games.lockdown import health, items, mapgraph
from companion.parts import ballot

State = dict[str, Any]
DAMAGE = (1, 2, 2, 3, 3, 4)  # ruling L7.1, rounds 1..6
TEN_VOTES = 10


def open_vote(state: State) -> None:
    options = [f for f in state["map"]["floors"] if f not in state["poison"]]
    voters = health.living(state)
    state["ballot"] = ballot.new(options, voters) if len(options) >= 2 and voters else None
    state["single_floor"] = options[0] if len(options) == 1 else None


def cast(state: State, pid: str, floor: str) -> None:
    b = state["ballot"]
    if b is None:
        if state.get("single_floor") == floor and not state["people"][pid]["shadow"]:
            state.setdefault("single_votes", []).append(pid)
            return
        raise Rejected("reject.lockdown_no_vote")
    if pid not in b["voters"] or state["people"][pid]["shadow"]:
        raise Rejected("reject.lockdown_shadow_no_vote")
    ballot.cast(b, pid, floor)


def voted(state: State, pid: str) -> bool:
    b = state["ballot"]
    if b is None:
        return state.get("single_floor") is None or pid in state.get("single_votes", [])
    return pid in b["votes"]


def must_vote(state: State, pid: str) -> bool:
    return not state["people"][pid]["shadow"] and (state["ballot"] is not None or state.get("single_floor") is not None)


def ten_votes(state: State, pid: str) -> None:
    if state["ballot"] is not None:
        state["ballot"]["weights"][pid] = TEN_VOTES


def tally(state: State) -> list[str]:
    """The floors that become poisonous this round (L4.2); the ballot's totals stay inside the state."""
    b = state["ballot"]
    if b is None:
        single = state.get("single_floor")
        return [single] if single and state.get("single_votes") else []
    totals = {opt: 0 for opt in b["options"]}
    for voter, opt in b["votes"].items():
        totals[opt] += b["weights"][voter]
    top = max(totals.values())
    return [f for f in b["options"] if totals[f] == top] if top > 0 else []


def hits(state: State, pid: str) -> bool:
    """Ruling L7.1: on a poisonous floor, except 202, rooms made safe by B101, B501 unless the warehouse's
    floor and the floor above it (B5 and B4) are both poisonous, gas-mask holders, and players in their
    first round after revival."""
    p = state["people"][pid]
    room = p["room"]
    if p["shadow"]:
        return False  # L8.1: shadows are never poisoned
    if mapgraph.floor_of(state, room) not in state["poison"]:
        return False
    fn = mapgraph.function_of(state, room)
    if fn == "helipad" or room in state["detox"] or items.holds(p, "gas_mask"):
        return False
    if p.get("revived_round") is not None and int(p["revived_round"]) == int(state["round"]) - 1:
        return False
    if fn == "warehouse":
        return all(f in state["poison"] for f in warehouse_floors(state, room))
    return True


def warehouse_floors(state: State, room: str) -> list[str]:
    """The warehouse's own floor and the one above it in its building (B5 and B4 on the default map)."""
    building, floor, level, _, _ = mapgraph.rooms(state)[room]
    above = {f for b, f, lv, _c, _fn in mapgraph.rooms(state).values() if b == building and lv == int(level) - 1}
    return [floor, *sorted(above)]
