"""HP changes and becoming a shadow.

HP lies in 0..10 (ruling L1.1). Adrenaline keeps HP at 1 or more until the end of the next round's
settlement (ruling L7.4). A player whose HP reaches 0 becomes a shadow at once (rulings L5, L8.1): every
item goes to the morgue (drawable from the next round), and the next round starts in B701.
"""

from __future__ import annotations

from typing import Any

from companion.games.lockdown import mapgraph

State = dict[str, Any]
MAX_HP = 10


def protected(state: State, p: dict[str, Any]) -> bool:
    """Ruling L7.4: adrenaline used at step 6 of round r protects until the end of round r+1's settlement."""
    until = p.get("adrenaline_until")
    return until is not None and int(state["round"]) <= int(until)


def hurt(state: State, pid: str, amount: int) -> int:
    """Take up to `amount` HP from a living player; returns the HP actually taken."""
    p = state["people"][pid]
    if p["shadow"] or amount <= 0:
        return 0
    floor = 1 if protected(state, p) else 0
    new = max(floor, int(p["hp"]) - amount)
    taken = int(p["hp"]) - new
    p["hp"] = new
    if new == 0:
        become_shadow(state, pid)
    return taken


def heal(state: State, pid: str, amount: int) -> int:
    p = state["people"][pid]
    if p["shadow"]:
        return 0
    new = min(MAX_HP, int(p["hp"]) + amount)
    gained = new - int(p["hp"])
    p["hp"] = new
    return gained


def become_shadow(state: State, pid: str) -> None:
    """Ruling L8.1: items to the morgue (from next round), force and load 0, speed kept."""
    p = state["people"][pid]
    p["shadow"] = True
    p["hp"] = 0
    p["absorbed"] = 0
    p["died_round"] = state["round"]
    p["force_at_death"] = int(p["genes"]["force"])
    state["morgue_incoming"].extend(p["items"])
    p["items"] = []
    p["declared"] = []
    state.setdefault("new_shadows", []).append(pid)


def living(state: State) -> list[str]:
    return [pid for pid, p in state["people"].items() if not p["shadow"]]


def to_morgue_room(state: State, pid: str) -> None:
    state["people"][pid]["room"] = mapgraph.room_of(state, "morgue")
