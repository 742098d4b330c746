"""The league table (docs/hall-league.md): one row per roster player, from the results in arrival order.

- Every roster player has a row, also one who has not played yet (0 games, the starting rating).
- Guests (player ids not on the roster) are not listed: their games are kept and shown at their tables,
  and they still take places (and so points) from the roster players they finished ahead of.
- `games`: finished games that placed the player (a stopped game is not one); `wins`: games the player
  finished first in, a tie for first included; `points`: `league_points` summed.
- Sorted by points, then ordinal (both highest first), then name and id; players equal on points and
  ordinal share a rank (1, 1, 3).
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from companion.hall.league.points import finished
from companion.hall.league.ratings import rate
from companion.hall.league.scoring import Scoring, game_points, tiebreak_keys

CSV_COLUMNS = ("rank", "id", "name", "games", "wins", "points", "mu", "sigma", "ordinal")
DECIMALS = 2
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")  # a spreadsheet would run such a cell as a formula


@dataclass(frozen=True)
class Row:
    rank: int
    id: str
    name: str
    games: int
    wins: int
    points: float  # a whole number where the scoring gives one
    mu: float
    sigma: float
    ordinal: float

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def standings(results: Sequence[Mapping[str, Any]], roster: Iterable[Mapping[str, str]],
              scoring: Scoring | None = None) -> list[Row]:
    """The league table of `roster` (the store's players: {"id", "name"}) after `results`, by `scoring`
    (league/scoring.py; the default: placing points, then the rating)."""
    scoring = scoring or Scoring()
    names = {p["id"]: p["name"] for p in roster}
    ratings = rate(results, names)
    games = dict.fromkeys(names, 0)
    wins = dict.fromkeys(names, 0)
    points = dict.fromkeys(names, 0.0)
    for result in results:
        if not finished(result):
            continue
        for pid, value in game_points(result, scoring).items():
            if pid in names:
                games[pid] += 1
                points[pid] += value
        for pid in result["ranking"][0]:
            if pid in names:
                wins[pid] += 1
    points = {pid: round(v, 4) for pid, v in points.items()}
    keys = tiebreak_keys([r for r in results if finished(r)], points, {p: r.ordinal for p, r in ratings.items()},
                         scoring)
    order = sorted(names, key=lambda pid: (-points[pid], *(-v for v in keys[pid]), names[pid].casefold(), pid))
    rows: list[Row] = []
    last: tuple[float, ...] | None = None
    for i, pid in enumerate(order):
        r = ratings[pid]
        mine = (points[pid], *keys[pid])
        rank = rows[-1].rank if rows and mine == last else i + 1
        last = mine
        value = points[pid]
        rows.append(Row(rank=rank, id=pid, name=names[pid], games=games[pid], wins=wins[pid],
                        points=int(value) if value == int(value) else value, mu=r.mu, sigma=r.sigma,
                        ordinal=r.ordinal))
    return rows


def to_csv(rows: Iterable[Row]) -> str:
    """The table as CSV (a header row, then one row per player; the caller writes it as UTF-8): ratings
    with two decimals; a name a spreadsheet would take for a formula gets a leading apostrophe."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(CSV_COLUMNS)
    for row in rows:
        name = "'" + row.name if row.name.startswith(_FORMULA_START) else row.name
        writer.writerow([row.rank, row.id, name, row.games, row.wins, row.points,
                         _fixed(row.mu), _fixed(row.sigma), _fixed(row.ordinal)])
    return out.getvalue()


def _fixed(value: float) -> str:
    return f"{round(value, DECIMALS) + 0.0:.{DECIMALS}f}"  # + 0.0: never "-0.00"
