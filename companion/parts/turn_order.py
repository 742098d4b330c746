"""Turn order helpers: who is next, clockwise or counter-clockwise, skipping whoever is out."""

from __future__ import annotations

from collections.abc import Collection


def next_player(order: list[str], current: str, skip: Collection[str] = (), reverse: bool = False) -> str | None:
    """The next player after `current` not in `skip`, or None if everyone is skipped."""
    n = len(order)
    i = order.index(current)
    for k in range(1, n + 1):
        cand = order[(i - k) % n] if reverse else order[(i + k) % n]
        if cand not in skip:
            return cand
    return None


def rotate(order: list[str], first: str) -> list[str]:
    """The same circle starting at `first`."""
    i = order.index(first)
    return order[i:] + order[:i]


def move_first_to_end(order: list[str]) -> list[str]:
    return order[1:] + order[:1]
