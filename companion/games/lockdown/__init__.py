"""Lockdown (禁闭逃杀): hidden movement in two buildings, secret HP, poison-floor votes, a fixed settlement."""

from companion.games.lockdown.game import GAME

__all__ = ["GAME"]
