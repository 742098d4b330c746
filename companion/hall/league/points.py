"""League points of one finished game (docs/hall-league.md).

- A game with points of its own (Lockdown's 9, 8, 7 ... by place, L9.3) gives those.
- Any other game: a place is worth one point per player placed in the game, minus one per player who
  finished strictly ahead (4 players: 4, 3, 2, 1). A tied group shares the points of its best place
  (two tied first of four: 4, 4, then 2, 1), as Lockdown's own points do.
- A stopped game (the host ended it; no ranking) gives nobody anything.

Guests (players not on the hall's roster) count as players here: a guest who finished ahead of you took
that place. Whether they are listed is the standings' business.
A player in the game's players but not in its ranking (a table can send one) is not placed: no points.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def finished(result: Mapping[str, Any]) -> bool:
    """A game that counts: not stopped and with a ranking."""
    return not result["stopped"] and bool(result["ranking"])


def placed(result: Mapping[str, Any]) -> list[str]:
    """The players the ranking places, best first."""
    return [pid for group in result["ranking"] for pid in group]


def league_points(result: Mapping[str, Any]) -> dict[str, int]:
    """Each placed player's league points for this game ({} for a stopped game)."""
    if not finished(result):
        return {}
    own = result.get("points")
    if own:  # the game's own points; a placed player it forgot gets 0
        return {**dict.fromkeys(placed(result), 0), **{pid: int(v) for pid, v in own.items()}}
    total = len(placed(result))
    out: dict[str, int] = {}
    ahead = 0
    for group in result["ranking"]:
        for pid in group:
            out[pid] = total - ahead
        ahead += len(group)
    return out
