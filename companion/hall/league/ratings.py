"""League ratings across tables and evenings (docs/hall-league.md), by openskill's Plackett-Luce model with its
default parameters: every player a team of one, ranked by place, ties sharing a rank.

- Only players on the hall's roster are rated; guests are left out of the game as rated (the roster
  players keep their order among themselves).
- A stopped game, or one with fewer than two roster players placed, changes nobody's rating.
- Results are rated one after the other in the order given (the hall's arrival order), so the same
  results always give the same ratings.
- A roster player who has not played yet has the model's starting rating (mu 25, sigma 25/3, ordinal 0).

Known in openskill 6.2 (its issues vivekjoshy/openskill.py#155 and #201): players tied for a place get
the mu of the place after them, and a larger sigma, so a tie for first can show a lower ordinal than the
player placed next. The league table sorts by points first (which treat a tie as the better place), so
this only reorders players equal on points; we keep the library's numbers rather than a home-made fix.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from openskill.models import PlackettLuce, PlackettLuceRating

from companion.hall.league.points import finished


@dataclass(frozen=True)
class Rating:
    """A player's rating: `ordinal` (mu - 3 sigma) is what the standings show and sort by."""

    mu: float
    sigma: float
    ordinal: float


def _rating(r: PlackettLuceRating) -> Rating:
    return Rating(mu=r.mu, sigma=r.sigma, ordinal=r.ordinal())


def rate(results: Iterable[Mapping[str, Any]], roster_ids: Iterable[str]) -> dict[str, Rating]:
    """Every roster player's rating after `results`, in that order."""
    model = PlackettLuce()
    current = {pid: model.rating() for pid in roster_ids}
    for result in results:
        if not finished(result):
            continue
        teams: list[list[PlackettLuceRating]] = []
        ranks: list[float] = []
        ids: list[str] = []
        for place, group in enumerate(result["ranking"]):
            for pid in group:
                if pid in current:
                    ids.append(pid)
                    teams.append([current[pid]])
                    ranks.append(float(place))
        if len(ids) < 2:
            continue
        for pid, team in zip(ids, model.rate(teams, ranks=ranks), strict=True):
            current[pid] = team[0]
    return {pid: _rating(r) for pid, r in current.items()}
