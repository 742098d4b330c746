"""Jailbreak (越狱): sheriffs chase prisoners through six scenes; a key in scene 6 is the way out."""

from companion.games.jailbreak.game import GAME

__all__ = ["GAME"]
