"""Jailbreak (越狱): sheriffs chase prisoners through six scenes; a key in scene 6 is the way out."""

from typing import Any

#: Where the game stands in the menus (`Game.menu_rank`), read without importing its rules.
MENU_RANK = 3

__all__ = ["GAME", "MENU_RANK"]


def __getattr__(name: str) -> Any:
    """`GAME` is imported the first time it is asked for (companion/games/__init__.py)."""
    if name == "GAME":
        from companion.games.jailbreak.game import GAME

        return GAME
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
