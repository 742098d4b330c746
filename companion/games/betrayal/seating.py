"""Seats, the birthday start (B1.2) and the traitor rules (B3.2). Seats go clockwise: a player's left
is the next seat."""

from __future__ import annotations

import datetime as dt

from companion.core.contract import State
from companion.games.betrayal import data, explorers


def left_of(seats: list[str], pid: str, skip: set[str] | frozenset[str] = frozenset()) -> str | None:
    """The first seat to `pid`'s left not in `skip` (None when every other seat is skipped)."""
    i = seats.index(pid)
    for k in range(1, len(seats)):
        cand = seats[(i + k) % len(seats)]
        if cand not in skip:
            return cand
    return None


def from_left(seats: list[str], pid: str, include_self: bool) -> list[str]:
    """Everyone in seat order going left from `pid` (`pid` first when `include_self`)."""
    i = seats.index(pid)
    ring = [seats[(i + k) % len(seats)] for k in range(len(seats))]
    return ring if include_self else ring[1:]


def days_after(today: str, birthday: str) -> int:
    """Days from `today` to the next `birthday` (both MM-DD, in a leap year so 02-29 counts; 0: today)."""
    def day(md: str) -> int:
        return dt.date(2024, int(md[:2]), int(md[3:])).timetuple().tm_yday

    return (day(birthday) - day(today)) % 366


def birthday_first(s: State) -> str:
    """B1.2: the explorer whose birthday comes next after today's date (today counts); ties by seat."""
    d = data.of(s)
    return min(s["seats"],
               key=lambda p: (days_after(s["today"], d.character(s["explorers"][p]["character"]).birthday),
                              s["seats"].index(p)))


def traitor(s: State, rule: data.Rule, revealer: str) -> str | None:
    """B3.2: who turns traitor by `rule`, with the haunt revealed by `revealer` (the living only)."""
    alive = explorers.living(s)
    seats = s["seats"]
    if rule.kind == "named":
        by_char = {s["explorers"][p]["character"]: p for p in alive}
        if rule.character in by_char:
            return by_char[rule.character]
        assert rule.fallback is not None
        return traitor(s, rule.fallback, revealer)
    if rule.kind == "revealer":
        return revealer
    if rule.kind == "left":
        return left_of(seats, revealer, skip=set(seats) - set(alive))
    if rule.kind in ("highest", "lowest"):
        assert rule.trait is not None
        values = {p: explorers.value(s, p, rule.trait) for p in alive}
        best = max(values.values()) if rule.kind == "highest" else min(values.values())
        # ties: the nearest to the revealer's left, the revealer first
        return next(p for p in from_left(seats, revealer, include_self=True) if values.get(p) == best)
    return None
