"""Escape the Lab (密室脱困): stamina, items, checks and attacks; the first with the USB key in the Hall wins."""

from companion.games.lab_escape.game import GAME

__all__ = ["GAME"]
