"""The end of the game and the ranking (ruling L9).

L9.1: a settlement that ends with exactly one living player: that player wins at once.
L9.2: everybody a shadow: rank by HP at the end of the previous round.
L9.3: after round 6, gold converts to HP (1 each, max 10); the living rank by HP then force, shadows
follow by force at death; points 9, 8, 7 ... by place, players tied on every key share the higher points.
"Force" here is the gene force on the player's panel (the text's 武力 attribute), not item bonuses.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from companion.games.lockdown import health, items

State = dict[str, Any]
TOP_POINTS = 9


def _groups(pids: list[str], key: Callable[[str], tuple[int, ...]]) -> list[list[str]]:
    ordered = sorted(pids, key=lambda pid: tuple(-k for k in key(pid)))
    groups: list[list[str]] = []
    for pid in ordered:
        if groups and key(groups[-1][0]) == key(pid):
            groups[-1].append(pid)
        else:
            groups.append([pid])
    return [sorted(g) for g in groups]


def points(ranking: list[list[str]]) -> dict[str, int]:
    """L9.3: place 1 gets 9, place 2 gets 8, ...; a tied group shares the points of its best place."""
    out: dict[str, int] = {}
    place = 0
    for group in ranking:
        for pid in group:
            out[pid] = max(1, TOP_POINTS - place)
        place += len(group)
    return out


def _shadow_key(state: State) -> Callable[[str], tuple[int, ...]]:
    return lambda pid: (int(state["people"][pid]["force_at_death"] or 0),)


def _living_key(state: State) -> Callable[[str], tuple[int, ...]]:
    return lambda pid: (int(state["people"][pid]["hp"]), int(state["people"][pid]["genes"]["force"]))


def exchange_gold(state: State) -> None:
    """L9.3: each gold bar held becomes 1 HP (never above 10); the bars leave the game."""
    for pid in health.living(state):
        p = state["people"][pid]
        bars = [c for c in p["items"] if items.counts([c])["gold"]]
        if bars:
            health.heal(state, pid, len(bars))
            items.take_from(p["items"], bars)
            state["out"].extend(bars)


def outcome(state: State, reason: str) -> dict[str, Any]:
    everyone = list(state["people"])
    alive = health.living(state)
    shadows = [pid for pid in everyone if pid not in alive]
    if reason == "all_shadows":  # L9.2
        prev = state["prev_hp"]
        ranking = _groups(everyone, lambda pid: (int(prev[pid]), int(state["people"][pid]["force_at_death"] or 0)))
    elif reason == "survivor":  # L9.1
        ranking = [alive, *_groups(shadows, _shadow_key(state))]
    else:  # L9.3
        ranking = _groups(alive, _living_key(state)) + _groups(shadows, _shadow_key(state))
    return {
        "ranking": ranking,
        "points": points(ranking),
        "reason": reason,
        "hp": {pid: int(state["people"][pid]["hp"]) for pid in everyone},
    }
