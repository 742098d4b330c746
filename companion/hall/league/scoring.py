"""The scoring an organiser chooses for a league (docs/hall-league.md, "Scoring"): pure, no I/O.

Points of one game, always from its ranking (never the points a table sends):

- `placing` (the default): a game's own points by place where it has them (Lockdown's 9, 8, 7 ...,
  L9.3), else one point per player placed minus one per player strictly ahead (4 players: 4, 3, 2, 1);
- `beaten`: the players one finished strictly ahead of, over the players one could have beaten (a table
  of 3: 1, 0.5, 0; of 5: 1, 0.75, 0.5 ...), so a loser at a big table scores no more than a winner at a
  small one;
- `custom`: the organiser's table of points by place (e.g. 5, 3, 2, 1; places past its end score its
  last figure, 0 if it ends on 0).

A tied group shares the points of its best place (as Lockdown does). Tiebreakers, in the organiser's
order, for players equal on points: `opponents` (the average of the league points of every opponent met
in a scored game), `head_to_head` (among the players still tied, games finished ahead of them minus
games finished behind), `rating` (the openskill ordinal).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from companion.hall.league.points import league_points, placed

RULES = ("placing", "beaten", "custom")
TIEBREAKERS = ("opponents", "head_to_head", "rating")
MAX_CUSTOM = 64


@dataclass(frozen=True)
class Scoring:
    rule: str = "placing"
    custom: tuple[float, ...] = ()
    tiebreakers: tuple[str, ...] = ("rating",)

    def __post_init__(self) -> None:
        if self.rule not in RULES:
            raise ValueError(f"scoring: the rule must be one of {', '.join(RULES)}")
        if self.rule == "custom" and not 0 < len(self.custom) <= MAX_CUSTOM:
            raise ValueError("scoring: a custom table gives the points of 1 to 64 places")
        if any(not isinstance(v, (int, float)) or isinstance(v, bool) or not 0 <= v <= 1000 for v in self.custom):
            raise ValueError("scoring: a place's points are 0 to 1000")
        if len(set(self.tiebreakers)) != len(self.tiebreakers) or set(self.tiebreakers) - set(TIEBREAKERS):
            raise ValueError(f"scoring: tiebreakers are some of {', '.join(TIEBREAKERS)}, each once")

    def to_json(self) -> dict[str, Any]:
        return {"rule": self.rule, "custom": list(self.custom), "tiebreakers": list(self.tiebreakers)}


def from_json(data: Any) -> Scoring:
    """A scoring as `to_json` gives it (ValueError naming what is wrong)."""
    if not isinstance(data, dict) or set(data) - {"rule", "custom", "tiebreakers"}:
        raise ValueError("scoring: an object with rule, custom and tiebreakers")
    custom, tiebreakers = data.get("custom", []), data.get("tiebreakers", ["rating"])
    if not isinstance(custom, list) or not isinstance(tiebreakers, list) or \
            not all(isinstance(t, str) for t in tiebreakers):
        raise ValueError("scoring: custom and tiebreakers are lists")
    return Scoring(str(data.get("rule", "placing")), tuple(custom), tuple(tiebreakers))


def game_points(result: Mapping[str, Any], scoring: Scoring) -> dict[str, float]:
    """Each placed player's points for this game by `scoring` ({} for a stopped game)."""
    if scoring.rule == "placing":
        return {pid: float(v) for pid, v in league_points(result).items()}
    if not league_points(result):  # stopped, or no ranking
        return {}
    total = len(placed(result))
    out: dict[str, float] = {}
    ahead = 0
    for group in result["ranking"]:
        for pid in group:
            if scoring.rule == "beaten":
                out[pid] = round((total - ahead - len(group)) / (total - 1), 4) if total > 1 else 0.0
            else:
                out[pid] = float(scoring.custom[min(ahead, len(scoring.custom) - 1)])
        ahead += len(group)
    return out


def tiebreak_keys(results: Sequence[Mapping[str, Any]], points: Mapping[str, float], ratings: Mapping[str, float],
                  scoring: Scoring) -> dict[str, tuple[float, ...]]:
    """Each player's tiebreak values (higher is better), in the organiser's order; head-to-head among the
    players with the same points."""
    met: dict[str, list[str]] = {pid: [] for pid in points}
    ahead: dict[tuple[str, str], int] = {}
    for result in results:
        order = {pid: i for i, group in enumerate(result["ranking"]) for pid in group}
        for a in order:
            for b in order:
                if a != b and a in met:
                    met[a].append(b)
                    if order[a] < order[b]:
                        ahead[(a, b)] = ahead.get((a, b), 0) + 1
    same: dict[float, list[str]] = {}
    for pid, value in points.items():
        same.setdefault(value, []).append(pid)
    keys: dict[str, tuple[float, ...]] = {}
    for pid in points:
        values: list[float] = []
        for tb in scoring.tiebreakers:
            if tb == "opponents":
                faced = met[pid]
                values.append(round(sum(points.get(o, 0.0) for o in faced) / len(faced), 4) if faced else 0.0)
            elif tb == "head_to_head":
                rivals = [o for o in same[points[pid]] if o != pid]
                values.append(float(sum(ahead.get((pid, o), 0) - ahead.get((o, pid), 0) for o in rivals)))
            else:
                values.append(float(ratings.get(pid, 0.0)))
        keys[pid] = tuple(values)
    return keys
