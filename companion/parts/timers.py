"""Deadline-based timers on the table's clock (milliseconds stamped on inputs; never read here).

A timer is ``{"duration": ms, "running": bool, "deadline": ms|None, "remaining": ms, "warnings": [s..],
"warned": [s..], "expired": bool}``. While running, `deadline` is absolute table time; while paused,
`remaining` holds what is left. Warnings and expiry reach the referee as clock inputs at their
deadlines (see `deadlines`), so they are logged and replayed like any other input.
"""

from __future__ import annotations

from typing import Any

from companion.core.contract import Deadline
from companion.core.rejection import Rejected

Timer = dict[str, Any]


def new(seconds: int, warnings: list[int]) -> Timer:
    ms = seconds * 1000
    return {
        "duration": ms,
        "running": False,
        "deadline": None,
        "remaining": ms,
        "warnings": sorted({w for w in warnings if 0 < w < seconds}, reverse=True),
        "warned": [],
        "expired": False,
        "started": False,
    }


def remaining(t: Timer, now: int) -> int:
    if t["running"]:
        return max(0, int(t["deadline"]) - now)
    return int(t["remaining"])


def start(t: Timer, now: int) -> None:
    """Start from full duration (a restart re-arms the warnings)."""
    t.update(running=True, deadline=now + t["duration"], remaining=t["duration"], warned=[], expired=False,
             started=True)


def pause(t: Timer, now: int) -> None:
    if not t["running"]:
        raise Rejected("reject.timer_not_running")
    t.update(running=False, remaining=remaining(t, now), deadline=None)


def resume(t: Timer, now: int) -> None:
    if t["running"]:
        raise Rejected("reject.timer_running")
    if t["expired"]:
        raise Rejected("reject.timer_expired")
    t.update(running=True, deadline=now + t["remaining"])


def reset(t: Timer) -> None:
    """Stopped and back to its full duration, its warnings re-armed."""
    t.update(running=False, deadline=None, remaining=t["duration"], warned=[], expired=False)


def extend(t: Timer, seconds: int, now: int) -> None:
    """Add time; a timer that had expired comes back paused with the added time, and one that was never
    started becomes that much longer."""
    ms = seconds * 1000
    if not t.get("started", True):
        t["duration"] = int(t["duration"]) + ms
    if t["running"]:
        t["deadline"] = int(t["deadline"]) + ms
    else:
        t["remaining"] = int(t["remaining"]) + ms
        t["expired"] = False
    left = remaining(t, now) // 1000
    t["warned"] = [w for w in t["warned"] if w >= left]


def warn(t: Timer, at_seconds: int, now: int) -> None:
    """A warning input: valid only when that warning is due and not yet given."""
    if not t["running"] or at_seconds not in t["warnings"] or at_seconds in t["warned"]:
        raise Rejected("reject.timer_not_due")
    if now < int(t["deadline"]) - at_seconds * 1000:
        raise Rejected("reject.timer_not_due")
    t["warned"].append(at_seconds)


def expire(t: Timer, now: int) -> None:
    """The expiry input: valid only when the deadline has passed."""
    if not t["running"] or now < int(t["deadline"]):
        raise Rejected("reject.timer_not_due")
    t.update(running=False, remaining=0, deadline=None, expired=True)


def deadlines(name: str, t: Timer, warn_move: str, expire_move: str) -> list[Deadline]:
    if not t["running"]:
        return []
    due = [
        Deadline(int(t["deadline"]) - w * 1000, warn_move, {"name": name, "at_seconds": w})
        for w in t["warnings"]
        if w not in t["warned"]
    ]
    return [*due, Deadline(int(t["deadline"]), expire_move, {"name": name})]


def public(t: Timer) -> dict[str, Any]:
    """What everyone sees: enough for a screen to count down on its own clock, and whether it has been
    started (a paused timer extended past its duration is still paused, not "not started")."""
    return {**{k: t[k] for k in ("duration", "running", "deadline", "remaining", "expired", "warnings")},
            "started": bool(t.get("started", True))}
