"""Fights and brawls (ruling L6): who loses how much HP in a room of living players.

L6.2: the damage to b is the largest damage any opponent a deals to b in a duel, not the sum:
a holds a gun and b does not: force(a); b holds a gun and a does not: 0; otherwise max(0, force(a) - force(b)).
"""

from __future__ import annotations

from collections.abc import Mapping


def duel(force_a: int, gun_a: bool, force_b: int, gun_b: bool) -> int:
    """What a deals to b in a duel (ruling L6.2)."""
    if gun_a and not gun_b:
        return force_a
    if gun_b and not gun_a:
        return 0
    return max(0, force_a - force_b)


def damage(fighters: Mapping[str, tuple[int, bool]]) -> dict[str, int]:
    """Damage to each fighter of one room: ``{pid: (force, holds_gun)}`` -> ``{pid: hp_lost}``."""
    out: dict[str, int] = {}
    for b, (fb, gb) in fighters.items():
        out[b] = max((duel(fa, ga, fb, gb) for a, (fa, ga) in fighters.items() if a != b), default=0)
    return out
