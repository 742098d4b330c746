"""Dice and draws from the seeded source in the state."""

from __future__ import annotations

import random
from typing import TypeVar

from companion.core.rejection import Rejected

T = TypeVar("T")


def roll(rng: random.Random, count: int, sides: int) -> list[int]:
    if not 1 <= count <= 20 or not 2 <= sides <= 100:
        raise Rejected("reject.dice_range")
    return [rng.randint(1, sides) for _ in range(count)]


def draw(rng: random.Random, pile: list[T], count: int = 1) -> list[T]:
    """Remove and return `count` items at random from `pile` (a shuffled deck's top cards)."""
    if count > len(pile):
        raise Rejected("reject.draw_empty", wanted=count, left=len(pile))
    return [pile.pop(rng.randrange(len(pile))) for _ in range(count)]
