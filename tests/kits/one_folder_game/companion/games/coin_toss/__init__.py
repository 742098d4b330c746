"""Coin toss: a game that lives in one folder outside the companion's source tree (tests/core/test_game_folder.py)."""

from .game import GAME

__all__ = ["GAME"]
