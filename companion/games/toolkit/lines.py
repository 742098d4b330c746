"""The toolkit's table and a player's own toolkit parts, as lines (the kiosk's summary board and booth)."""

from __future__ import annotations

from typing import Any

from companion.core.lines import Lines, clock_text
from companion.parts.timers import remaining


def table_lines(public: dict[str, Any], now: int) -> Lines:
    """The toolkit's public table as message ids: timers, ballots, revealed counters and roles, rolls."""
    names = {p["id"]: p["name"] for p in public.get("players", [])}
    table = public.get("table") or {}
    out: Lines = []
    for name, t in table.get("timers", {}).items():
        if t["running"]:  # counting down: the big timer shows it; the list stays still
            out.append(("kiosk.toolkit.timer_running", {"name": name}))
        else:
            state = "expired" if t["expired"] else "paused"
            out.append((f"kiosk.toolkit.timer_{state}", {"name": name, "left": clock_text(remaining(t, now))}))
    for name, b in table.get("ballots", {}).items():
        if b["open"]:
            out.append(("kiosk.toolkit.ballot_open", {"name": name, "cast": b["cast"], "voters": b["voter_count"]}))
        elif b["result"] and b["result"].get("winner") is not None:
            winner = b["result"]["winner"]
            out.append(("kiosk.toolkit.ballot_won", {"name": name, "winner": names.get(winner, winner)}))
    for name, c in table.get("counters", {}).items():
        if c.get("revealed"):
            values = ", ".join(f"{names.get(p, p)} {v}" for p, v in c.get("values", {}).items())
            out.append(("kiosk.toolkit.counter_values", {"name": name, "values": values}))
    for name, d in table.get("deals", {}).items():
        for pid, role in d.get("revealed", {}).items():
            out.append(("kiosk.toolkit.role_shown", {"name": name, "player": names.get(pid, pid), "role": role}))
    for roll in table.get("rolls", [])[-2:]:
        who = roll["by"].removeprefix("player:")
        out.append(("kiosk.toolkit.roll", {"player": names.get(who, who), "values": roll["values"]}))
    return out


def private_lines(private: dict[str, Any]) -> Lines:
    """A player's dealt roles, own counters and own votes."""
    out: Lines = []
    for name, role in private.get("roles", {}).items():
        if role is not None:
            out.append(("kiosk.toolkit.your_role", {"name": name, "role": role}))
    for name, value in private.get("counters", {}).items():
        out.append(("kiosk.toolkit.your_counter", {"name": name, "value": value}))
    for name, b in private.get("ballots", {}).items():
        if b.get("eligible"):
            vote = b.get("my_vote")
            out.append(("kiosk.toolkit.your_vote", {"name": name, "option": vote}) if vote is not None
                       else ("kiosk.toolkit.not_voted", {"name": name}))
    return out
