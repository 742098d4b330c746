"""The referee toolkit: timers, secret ballots, hidden counters, role deals and dice for any board game."""

from companion.games.toolkit.game import GAME

__all__ = ["GAME"]
