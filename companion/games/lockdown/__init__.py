"""Lockdown (禁闭逃杀): hidden movement in two buildings, secret HP, poison-floor votes, a fixed settlement."""

from typing import Any

from companion.games.lazy import export

#: Where the game stands in the menus (`Game.menu_rank`), read without importing its rules.
MENU_RANK = 1

#: How many play (`Game.min_players`, `Game.max_players`), read without importing its rules.
MIN_PLAYERS = 2
MAX_PLAYERS = 9

#: How long a game takes, in minutes (the box; the kiosk's game list and attract loop).
PLAY_MINUTES = (45, 90)

__all__ = ["GAME", "MAX_PLAYERS", "MENU_RANK", "MIN_PLAYERS", "PLAY_MINUTES", "Options"]


def __getattr__(name: str) -> Any:
    """`GAME` (the rules) and `Options` (the host's choices, a small module of its own), imported the
    first time they are asked for."""
    return export(__name__, name, GAME=".game:GAME", Options=".options:LockdownOptions")
