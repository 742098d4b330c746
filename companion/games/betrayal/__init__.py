"""Betrayal at House on the Hill: explorers' traits, the house, omens, the haunt roll and the traitor."""

from companion.games.betrayal.game import GAME

__all__ = ["GAME"]
