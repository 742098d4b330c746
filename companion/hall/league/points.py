"""League points of one finished game (docs/hall-league.md).

- The hall computes every point from the ranking: a table's word is its ranking, never its points (the
  `points` a result carries are kept as sent and never read here, so no table can send 1000).
- A game with points of its own by place (Lockdown's 9, 8, 7 ... by place, never below 1, L9.3;
  `OWN_TOP`) gives those, computed here from the ranking.
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

# Games whose rules give league points by place: the first place's points (then one less a place, at
# least 1; a tied group shares its best place's). Lockdown: rulings L9.3 (companion/games/lockdown/ranking.py).
OWN_TOP = {"lockdown": 9}


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
    top = OWN_TOP.get(result["game"])
    total = len(placed(result))
    out: dict[str, int] = {}
    ahead = 0
    for group in result["ranking"]:
        for pid in group:
            out[pid] = total - ahead if top is None else max(1, top - ahead)
        ahead += len(group)
    return out
