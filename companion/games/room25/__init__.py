"""Room 25: escape the sliding complex; secret roles, programmed actions, five modes."""

from companion.games.room25.game import GAME

__all__ = ["GAME"]
