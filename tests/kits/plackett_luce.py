"""The league's ratings computed by hand: Weng & Lin's Plackett-Luce update (JMLR 12, 2011, Algorithm 4),
written out here from the paper, for players who each play as a team of one, so a test can check the
hall's ratings (which come from the `openskill` library) against an independent computation.

The parameters are openskill's documented defaults: mu 25, sigma 25/3, beta sigma/2, kappa 0.0001, the
additive dynamics tau = 25/300 (sigma grows by tau before each game), gamma = sigma_i / c. Players tied
on a place count as the paper says (A_q, the size of the tied place, divides each term); each keeps their
own update.
"""

from __future__ import annotations

import math

MU, SIGMA = 25.0, 25.0 / 3.0
BETA, KAPPA, TAU = SIGMA / 2.0, 0.0001, 25.0 / 300.0


def rate(ratings: dict[str, tuple[float, float]], ranking: list[list[str]]) -> dict[str, tuple[float, float]]:
    """`ratings` after one game ranked `ranking` (groups by place; a player not yet rated starts at (MU, SIGMA))."""
    place = {pid: i for i, group in enumerate(ranking) for pid in group}
    players = list(place)
    mu = {p: ratings.get(p, (MU, SIGMA))[0] for p in players}
    var = {p: ratings.get(p, (MU, SIGMA))[1] ** 2 + TAU**2 for p in players}
    c = math.sqrt(sum(var[p] + BETA**2 for p in players))
    e = {p: math.exp(mu[p] / c) for p in players}
    sum_q = {q: sum(e[s] for s in players if place[s] >= place[q]) for q in players}
    a = {q: sum(1 for s in players if place[s] == place[q]) for q in players}
    new: dict[str, tuple[float, float]] = {}
    for i in players:
        omega = delta = 0.0
        for q in players:
            if place[q] <= place[i]:
                share = e[i] / sum_q[q]
                delta += share * (1 - share) / a[q]
                omega += ((1 - share) if q == i else -share) / a[q]
        gamma = math.sqrt(var[i]) / c
        omega *= var[i] / c
        delta *= gamma * var[i] / c**2
        new[i] = (mu[i] + omega, math.sqrt(var[i]) * math.sqrt(max(1 - delta, KAPPA)))
    return {**ratings, **new}


def ordinal(rating: tuple[float, float]) -> float:
    return rating[0] - 3 * rating[1]
