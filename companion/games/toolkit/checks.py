"""What the toolkit's referee refuses beyond its parts' own checks, so that it accepts exactly what the
host's and the players' forms offer (issue 21; companion/games/toolkit/prompts.py, docs/games/toolkit.md):

- Start is for a timer that is not running (a running one is paused or extended; a paused or expired one
  starts again from its full time).
- A player changes their own counter only within its bounds, as their form offers (it shows the value):
  spending 5 coins with 3 is refused. The host, who is not told hidden values, may give any change in
  -999..999; it stops at the bounds (everyone loses 1 HP: none goes below 0).
- A role is revealed once: a player whose role is shown, or everyone when all are, is refused.
"""

from __future__ import annotations

from typing import Any

from companion.core.rejection import Rejected


def startable(t: dict[str, Any]) -> None:
    if t["running"]:
        raise Rejected("reject.timer_running")


def own_change(t: dict[str, Any], player: str, delta: int) -> None:
    value = t["values"].get(player)
    if value is not None and not t["low"] <= value + delta <= t["high"]:
        raise Rejected("reject.tally_bounds", low=t["low"], high=t["high"])


def hidden_role(d: dict[str, Any], player: str | None) -> None:
    if player is None and all(p in d["revealed"] for p in d["assigned"]):
        raise Rejected("reject.roles_all_revealed")
    if player is not None and player in d["revealed"]:
        raise Rejected("reject.roles_revealed", player=player[:32])
