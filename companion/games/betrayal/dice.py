"""B1.3: Betrayal dice. Each die shows 0, 0, 1, 1, 2, 2; a roll of n dice is the sum; a trait rolls as
many dice as its current value, never more than 8. Dice come from the seeded source, or the table
rolls real ones and enters what they show."""

from __future__ import annotations

import random

from companion.core.rejection import Rejected

FACES = (0, 0, 1, 1, 2, 2)
MAX_DICE = 8
HAUNT_DICE = 6  # B3.1


def count(value: int) -> int:
    """How many dice a trait of `value` rolls (B1.3: capped at 8)."""
    return max(0, min(value, MAX_DICE))


def roll(rng: random.Random, n: int, entered: list[int] | None = None) -> list[int]:
    """`n` dice: the real ones the table entered (checked), else rolled from the seeded source."""
    if entered is not None:
        if len(entered) != n:
            raise Rejected("reject.betrayal_dice_count", count=n)
        if any(v not in (0, 1, 2) for v in entered):
            raise Rejected("reject.betrayal_dice_faces")
        return list(entered)
    return [rng.choice(FACES) for _ in range(n)]


def read(rng: random.Random, n: int, entered: list[int] | None, total: int | None) -> tuple[list[int] | None, int]:
    """A roll of `n` dice as (faces, total): the faces the table entered, or only the total it read off
    its real dice (a phone form asks for one number; faces then None), or faces rolled from the seed."""
    if total is None:
        faces = roll(rng, n, entered)
        return faces, sum(faces)
    if entered is not None:
        raise Rejected("reject.betrayal_dice_or_total")
    if not 0 <= total <= 2 * n:
        raise Rejected("reject.betrayal_dice_total", most=2 * n)
    return None, total
