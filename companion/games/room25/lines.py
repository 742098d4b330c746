"""Room 25 as lines: a player's role, programmed actions and peeks; the table's turn and who got out."""

from __future__ import annotations

from typing import Any

from companion.core.lines import Lines

PEEKS_SHOWN = 4


def private_lines(private: dict[str, Any]) -> Lines:
    """A player's role, the actions they programmed this turn, and the rooms they peeked at (latest first)."""
    out: Lines = []
    role = private.get("role")
    if role is not None:
        out.append(("gameboards.room25.your_role", {"role": f"kind.room25.role.{role}"}))
    plan = [a for a in private.get("plan") or [] if a is not None]
    if len(plan) >= 2:
        out.append(("gameboards.room25.your_plan_two", {"first": f"kind.room25.action.{plan[0]}",
                                                        "second": f"kind.room25.action.{plan[1]}"}))
    elif plan:
        out.append(("gameboards.room25.your_plan_one", {"first": f"kind.room25.action.{plan[0]}"}))
    elif private.get("actions_this_turn"):
        out.append(("gameboards.room25.not_planned", {}))
    # With physical tiles the player lifted the tile themselves and the referee knows only which one.
    known = [peek for peek in private.get("peeks") or [] if peek.get("room") is not None]
    for peek in reversed(known[-PEEKS_SHOWN:]):
        room = f"kind.room25.room.{peek['room']}"
        cell = peek.get("cell")
        if cell is None:
            out.append(("gameboards.room25.peek_gone", {"room": room}))
        else:
            out.append(("gameboards.room25.peek", {"row": cell[0] + 1, "col": cell[1] + 1, "room": room}))
    return out


def public_lines(public: dict[str, Any]) -> Lines:
    """The turn on the track and how many have escaped."""
    table = public.get("table") or {}
    if "turn" not in table:
        return []
    out: Lines = [("gameboards.room25.turn", {"turn": table["turn"], "last": table["last_turn"]})]
    people = (table.get("people") or {}).values()
    escaped = sum(1 for p in people if p.get("status") == "escaped")
    dead = sum(1 for p in people if p.get("status") == "dead")
    if escaped or dead:
        out.append(("summary.room25.out", {"escaped": escaped, "dead": dead}))
    return out
