"""Hidden tallies: one counter per player (HP, coins, points) that only its owner sees until revealed.

A tally is ``{"values": {pid: int}, "low": int, "high": int, "revealed": bool}``. Changes are clamped
to the bounds, as a referee would ("HP never above 10").
"""

from __future__ import annotations

from typing import Any

from companion.core.rejection import Rejected

Tally = dict[str, Any]


def new(players: list[str], initial: int, low: int, high: int) -> Tally:
    if not low <= initial <= high:
        raise Rejected("reject.tally_bounds", low=low, high=high)
    return {"values": {p: initial for p in players}, "low": low, "high": high, "revealed": False}


def adjust(t: Tally, player: str, delta: int) -> int:
    """Add `delta` (clamped); returns the new value."""
    if player not in t["values"]:
        raise Rejected("reject.tally_no_player", player=player[:32])
    value = min(t["high"], max(t["low"], int(t["values"][player]) + delta))
    t["values"][player] = value
    return value


def set_value(t: Tally, player: str, value: int) -> None:
    if player not in t["values"]:
        raise Rejected("reject.tally_no_player", player=player[:32])
    if not t["low"] <= value <= t["high"]:
        raise Rejected("reject.tally_bounds", low=t["low"], high=t["high"])
    t["values"][player] = value


def public(t: Tally) -> dict[str, Any]:
    out: dict[str, Any] = {"low": t["low"], "high": t["high"], "revealed": t["revealed"]}
    if t["revealed"]:
        out["values"] = dict(t["values"])
    return out


def private(t: Tally, player: str) -> int | None:
    return t["values"].get(player)
