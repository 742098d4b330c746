"""What the table's LEDs and buzzer show, as pure functions of the public view, the device status and
the table clock (the GPIO thread applies them). Built from the public view only: no secret drives a
light or a sound."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Literal

from companion.parts.timers import remaining
from companion.status import DeviceStatus

LedMode = Literal["on", "off", "blink"]
WARNING_MS = 10_000  # the warning cue, as on the kiosk (companion/kiosk/kiosk.py)


def device_led(snapshot: Iterable[DeviceStatus], kind: str) -> LedMode:
    """One LED for every device of a kind: on when all are fine, blinking while one is searching,
    off when one is missing or failed, or there is none."""
    states = [s.state for s in snapshot if s.kind == kind]
    if not states or any(state not in ("ok", "searching") for state in states):
        return "off"
    return "blink" if "searching" in states else "on"


def turn_leds(public: dict[str, Any], count: int) -> list[LedMode]:
    """One LED per seat in seat order: lit for the player whose turn it is (the public view's `turn`)."""
    seats = [p["id"] for p in public.get("players") or []]
    turn = public.get("turn")
    return ["on" if i < len(seats) and seats[i] == turn else "off" for i in range(count)]


def timers_of(public: dict[str, Any]) -> dict[str, dict[str, Any]]:
    table = public.get("table")
    return dict((table.get("timers") if isinstance(table, dict) else None) or {})


@dataclass
class TimerCues:
    """The warning cue when a running timer crosses 10 s, the expiry cue once when it runs out."""

    _seen: dict[str, int] = field(default_factory=dict)
    _expired: set[str] = field(default_factory=set)

    def update(self, timers: dict[str, dict[str, Any]], now: int) -> list[str]:
        cues: list[str] = []
        for name, t in sorted(timers.items()):
            left = remaining(t, now)
            before = self._seen.get(name, left)
            if t["running"] and before > WARNING_MS >= left > 0:
                cues.append("warning")
            out = bool(t["expired"]) or (bool(t["running"]) and left == 0)
            if out and name not in self._expired:
                self._expired.add(name)
                cues.append("expired")
            elif not out:
                self._expired.discard(name)
            self._seen[name] = left
        return cues

    @staticmethod
    def next_due(timers: dict[str, dict[str, Any]], now: int) -> int | None:
        """The next table time a running timer crosses 10 s or runs out."""
        times: list[int] = []
        for t in timers.values():
            if t["running"]:
                deadline = int(t["deadline"])
                times += [at for at in (deadline - WARNING_MS, deadline) if at > now]
        return min(times) if times else None
