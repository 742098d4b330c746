"""Rounds (docs/hall-league.md, "Rounds"): which results the league scores, who sits out, the seat order.

Pure functions of the results and seatings as the hall's store keeps them.

- A result is **scored** when it is the game a round seated at that table: its `seating` is one the hall
  sent, to that table, for that table's game (`table_game`: a round may seat other games at some
  tables), with exactly those players, and it is the first such result of
  that table in that seating. Every other finished game (a game seated by hand, "Play again" between
  rounds, a second result for one seating) is **casual**: kept and shown apart, never scored. A league
  that scores every game (`every_game`, an organiser's choice for a club night without rounds) scores
  them all, as the hall did before rounds.
- **Byes**: when the players present do not fill the pods the organiser allows on the tables chosen,
  the players who sit out are those with the fewest byes so far, then the lowest rated, then drawn
  (seeded): `byes`. A bye scores nothing (docs/hall-league.md).
- **Seat order**: drawn at random from the seating's own seed (never by rating: the leader does not
  always move first), `seat_order`.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from typing import Any


def split(results: Sequence[Mapping[str, Any]], seatings: Iterable[Mapping[str, Any]], *,
          every_game: bool = False) -> tuple[list[Mapping[str, Any]], list[Mapping[str, Any]]]:
    """(scored, casual), each in the order given."""
    if every_game:
        return list(results), []
    sent = {s["seating"]: s for s in seatings if isinstance(s.get("seating"), str)}
    taken: set[tuple[str, str]] = set()
    scored: list[Mapping[str, Any]] = []
    casual: list[Mapping[str, Any]] = []
    for result in results:
        seating = sent.get(result.get("seating") or "")
        chairs = (seating or {}).get("tables", {}).get(result["table"])
        place = (result.get("seating") or "", result["table"])
        if seating is not None and chairs is not None and table_game(seating, result["table"]) == result["game"] and \
                {p["id"] for p in chairs} == {p["id"] for p in result["players"]} and place not in taken:
            taken.add(place)
            scored.append(result)
        else:
            casual.append(result)
    return scored, casual


def table_game(seating: Mapping[str, Any], table: str) -> str:
    """The game `seating` seated at `table`: its `games` entry (a round offering more than one game), else
    the round's `game`."""
    games = seating.get("games")
    chosen = games.get(table) if isinstance(games, dict) else None
    return chosen if isinstance(chosen, str) else str(seating["game"])


def seatable(count: int, tables: int, low: int, high: int) -> list[int]:
    """The pod sizes (low..high players, at most `tables` pods, the larger first) seating the most of
    `count` players; [] when not even one pod can be made."""
    for seated in range(min(count, tables * high), low - 1, -1):
        pods = -(-seated // high)
        if pods <= tables and pods * low <= seated:
            size, extra = divmod(seated, pods)
            return [size + 1] * extra + [size] * (pods - extra)
    return []


def byes(present: Sequence[str], sitting_out: int, byes_so_far: Mapping[str, int], rating: Mapping[str, float],
         seed: str) -> list[str]:
    """Who sits this round out: the fewest byes so far, then the lowest `rating`, then drawn by `seed`."""
    draw = random.Random(seed)
    lots = {pid: draw.random() for pid in sorted(present)}
    order = sorted(present, key=lambda pid: (byes_so_far.get(pid, 0), rating.get(pid, 0), lots[pid]))
    return order[:sitting_out]


def seat_order(group: Sequence[str], seed: str) -> list[str]:
    """A pod's seat order (who moves first), drawn from the seating's seed and the pod's players."""
    order = sorted(group)
    random.Random(f"{seed}:{','.join(order)}").shuffle(order)
    return order


def byes_taken(seatings: Iterable[Mapping[str, Any]]) -> dict[str, int]:
    out: dict[str, int] = {}
    for seating in seatings:
        for p in seating.get("byes", []):
            out[p["id"]] = out.get(p["id"], 0) + 1
    return out
