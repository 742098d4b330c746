"""Secret action programming: players commit actions now; they are revealed later, one by one, in order.

A program is ``{"expected": [pid..], "slots": n, "committed": {pid: [action..]}, "revealed": [[pid, i,
action]..]}``. Games decide what an action is (a dict or string); this part only keeps it hidden.
"""

from __future__ import annotations

from typing import Any

from companion.core.rejection import Rejected

Program = dict[str, Any]


def new(players: list[str], slots: int) -> Program:
    return {"expected": list(players), "slots": slots, "committed": {}, "revealed": []}


def commit(p: Program, player: str, actions: list[Any]) -> None:
    if player not in p["expected"]:
        raise Rejected("reject.program_not_expected")
    if p["revealed"]:
        raise Rejected("reject.program_locked")
    if len(actions) != p["slots"]:
        raise Rejected("reject.program_slots", slots=p["slots"])
    p["committed"][player] = list(actions)


def complete(p: Program) -> bool:
    return set(p["committed"]) >= set(p["expected"])


def reveal_next(p: Program, order: list[str]) -> tuple[str, int, Any] | None:
    """Reveal the next action: all first actions in `order`, then all second ones, and so on."""
    if not complete(p):
        raise Rejected("reject.program_incomplete")
    done = len(p["revealed"])
    seq = [(pid, i) for i in range(p["slots"]) for pid in order if pid in p["committed"]]
    if done >= len(seq):
        return None
    pid, i = seq[done]
    action = p["committed"][pid][i]
    p["revealed"].append([pid, i, action])
    return pid, i, action


def public(p: Program) -> dict[str, Any]:
    return {"waiting_for": [x for x in p["expected"] if x not in p["committed"]], "revealed": p["revealed"]}


def private(p: Program, player: str) -> list[Any] | None:
    return p["committed"].get(player)
