"""The referee toolkit: timers, secret ballots, hidden counters, role deals and dice for any board game."""

from typing import Any

#: Where the game stands in the menus (`Game.menu_rank`), read without importing its rules.
MENU_RANK = 0

__all__ = ["GAME", "MENU_RANK"]


def __getattr__(name: str) -> Any:
    """`GAME` is imported the first time it is asked for (companion/games/__init__.py)."""
    if name == "GAME":
        from companion.games.toolkit.game import GAME

        return GAME
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
