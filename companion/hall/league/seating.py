"""Seating the next round (docs/hall-league.md): groups of similar strength, each within the game's player
count, with as few repeat opponents as the counts allow.

1. The fewest groups that fit: `group_sizes` (sizes as even as possible, the larger groups first).
2. Bands: the players sorted by rating (highest first, then id) and cut into those sizes in order, so
   the strongest play together, the next strongest together, and so on.
3. Swaps between two groups, each taken when it lowers the cost (repeat pairs, spread): first the number
   of pairs in a group who met before (`met`), then the sum of each group's rating spread (best minus
   worst). A player leaves their band only to avoid a repeat opponent, and as little as possible.
4. If repeats remain, a depth-first search over seatings (each player first where they add the fewest
   repeats, then to the nearest band with room) looks for fewer, within a fixed number of steps
   (`SEARCH_STEPS`: a count, not a clock); small rounds are searched completely, so a seating without
   repeats is found whenever one exists. Its seating is then tightened by swaps as in 3.

Same players, counts and `met`: same seating, whatever the order the players came in.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from itertools import combinations
from typing import Any

SEARCH_STEPS = 20_000
_EPS = 1e-9


def group_sizes(count: int, min_players: int, max_players: int) -> list[int]:
    """The sizes of the fewest groups of `min_players`..`max_players` holding `count` players."""
    if min_players < 1 or max_players < min_players:
        raise ValueError(f"a game's player count must be at least 1 and min <= max, "
                         f"not min {min_players}, max {max_players}")
    if count < 0:
        raise ValueError(f"cannot seat {count} players")
    if count == 0:
        return []
    groups = -(-count // max_players)
    if groups * min_players > count:
        raise ValueError(f"{count} players cannot be split into groups of {min_players} to {max_players} players")
    size, extra = divmod(count, groups)
    return [size + 1] * extra + [size] * (groups - extra)


def opponents(results: Iterable[Mapping[str, Any]]) -> set[frozenset[str]]:
    """The pairs who already sat at one table in `results` (a stopped game too: they met), for `met`."""
    return {frozenset(pair) for r in results for pair in combinations(sorted(p["id"] for p in r["players"]), 2)}


def seat(players: Sequence[tuple[str, float]], min_players: int, max_players: int,
         met: Iterable[frozenset[str]]) -> list[list[str]]:
    """The groups (player ids, highest rated first), the strongest group first."""
    rating = dict(players)
    if len(rating) != len(players):
        raise ValueError("a player is listed twice")
    if not all(isinstance(r, (int, float)) and math.isfinite(r) for r in rating.values()):
        raise ValueError("every player's rating must be a finite number")
    sizes = group_sizes(len(players), min_players, max_players)
    order = sorted(rating, key=lambda pid: (-rating[pid], pid))
    rivals: dict[str, set[str]] = {pid: set() for pid in order}
    pairs = {pair for pair in met if len(pair) == 2 and all(pid in rivals for pid in pair)}  # read once
    for pair in pairs:
        a, b = sorted(pair)
        rivals[a].add(b)
        rivals[b].add(a)
    bands: list[list[str]] = []
    for size in sizes:
        start = sum(len(g) for g in bands)
        bands.append(order[start:start + size])
    groups = _swap(bands, rating, rivals)
    left = repeats(groups, pairs)
    if left:
        band = {pid: i for i, group in enumerate(bands) for pid in group}
        found = _search(order, sizes, band, rivals, left)
        if found is not None:
            groups = _swap(found, rating, rivals)
    return [sorted(g, key=lambda pid: (-rating[pid], pid)) for g in groups]


def repeats(groups: Iterable[Sequence[str]], met: Iterable[frozenset[str]]) -> int:
    """How many pairs seated together have met before."""
    pairs = {pair for pair in met if len(pair) == 2}
    return sum(frozenset((a, b)) in pairs for g in groups for i, a in enumerate(g) for b in g[i + 1:])


def _spread(group: Sequence[str], rating: dict[str, float]) -> float:
    values = [rating[pid] for pid in group]
    return max(values) - min(values)


def _swap(start: list[list[str]], rating: dict[str, float], rivals: dict[str, set[str]]) -> list[list[str]]:
    """Swaps that lower (repeats, spread), pair of groups by pair of groups, until none does."""
    groups = [list(g) for g in start]
    improved = True
    while improved:
        improved = False
        for i, one in enumerate(groups):
            for other in groups[i + 1:]:
                if _settled(one, other, rating, rivals):
                    continue
                for x in range(len(one)):
                    for y in range(len(other)):
                        if _better(one, other, x, y, rating, rivals):
                            one[x], other[y] = other[y], one[x]
                            improved = True
    return groups


def _settled(one: list[str], other: list[str], rating: dict[str, float], rivals: dict[str, set[str]]) -> bool:
    """No swap between these two can help: neither seats a repeat (so none can remove one), and their
    ratings do not overlap, both having two players or more (then no swap narrows the spreads: it
    brings an end of one into the range of the other; tests/hall/test_league_seating.py checks no swap helps)."""
    if len(one) < 2 or len(other) < 2 or any(rivals[p] & set(g) for g in (one, other) for p in g):
        return False
    low, high = sorted((one, other), key=lambda g: min(rating[p] for p in g))
    return max(rating[p] for p in low) <= min(rating[p] for p in high)


def _better(one: list[str], other: list[str], x: int, y: int, rating: dict[str, float],
            rivals: dict[str, set[str]]) -> bool:
    """Whether swapping one[x] and other[y] lowers (repeats, spread)."""
    a, b = one[x], other[y]
    rest_one = set(one) - {a}
    rest_other = set(other) - {b}
    d_repeats = (len(rivals[a] & rest_other) + len(rivals[b] & rest_one)
                 - len(rivals[a] & rest_one) - len(rivals[b] & rest_other))
    if d_repeats:
        return d_repeats < 0
    d_spread = (_spread([*rest_one, b], rating) + _spread([*rest_other, a], rating)
                - _spread(one, rating) - _spread(other, rating))
    return d_spread < -_EPS


def _search(order: list[str], sizes: list[int], band: dict[str, int], rivals: dict[str, set[str]],
            bound: int) -> list[list[str]] | None:
    """A seating with fewer than `bound` repeats (the fewest found in `SEARCH_STEPS` steps), or None."""
    n = len(order)
    groups: list[list[str]] = [[] for _ in sizes]
    options: list[list[tuple[int, int]]] = [[] for _ in range(n)]
    tried = [0] * n
    where = [0] * n
    count = [0] * (n + 1)  # repeats of the first i players as placed
    best: list[list[str]] | None = None
    steps = 0
    options[0] = _options(order[0], groups, sizes, band, rivals)
    i = 0
    while i >= 0 and steps < SEARCH_STEPS and bound > 0:
        if i == n:
            best, bound = [list(g) for g in groups], count[n]
            i -= 1
            groups[where[i]].pop()
        elif tried[i] < len(options[i]):
            g, added = options[i][tried[i]]
            tried[i] += 1
            if count[i] + added >= bound:
                continue
            steps += 1
            groups[g].append(order[i])
            where[i], count[i + 1] = g, count[i] + added
            i += 1
            if i < n:
                options[i], tried[i] = _options(order[i], groups, sizes, band, rivals), 0
        else:
            i -= 1
            if i >= 0:
                groups[where[i]].pop()
    return best


def _options(pid: str, groups: list[list[str]], sizes: list[int], band: dict[str, int],
             rivals: dict[str, set[str]]) -> list[tuple[int, int]]:
    """Where `pid` may sit next, with the repeats it adds: fewest added first, then nearest band; of the
    empty groups of one size only the first (they are alike)."""
    out: list[tuple[int, int]] = []
    empty_sizes: set[int] = set()
    for g in sorted(range(len(sizes)), key=lambda g: (abs(g - band[pid]), g)):
        if len(groups[g]) == sizes[g]:
            continue
        if not groups[g]:
            if sizes[g] in empty_sizes:
                continue
            empty_sizes.add(sizes[g])
        out.append((g, len(rivals[pid].intersection(groups[g]))))
    return sorted(out, key=lambda option: option[1])  # stable: nearest band first among equals
