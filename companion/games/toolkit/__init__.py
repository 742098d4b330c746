"""The referee toolkit: timers, secret ballots, hidden counters, role deals and dice for any board game."""

from typing import Any

#: Where the game stands in the menus (`Game.menu_rank`), read without importing its rules.
MENU_RANK = 0

#: How many play (`Game.min_players`, `Game.max_players`), read without importing its rules.
MIN_PLAYERS = 1
MAX_PLAYERS = 12

__all__ = ["GAME", "MAX_PLAYERS", "MENU_RANK", "MIN_PLAYERS", "Options"]


def __getattr__(name: str) -> Any:
    """`GAME` (the rules) and `Options` (the host's choices, a small module of its own) are imported the
    first time they are asked for (companion/games/__init__.py)."""
    if name == "GAME":
        from companion.games.toolkit.game import GAME

        return GAME
    if name == "Options":
        from companion.games.toolkit.options import ToolkitOptions

        return ToolkitOptions
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
