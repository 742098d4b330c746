"""A result checked against the game's ranking rules before the league keeps it (docs/hall.md, "A table's owner").

`protocol.parse_result` checks a result's shape (types, sizes, a ranking naming only the game's players,
each once). Here, what the game itself says: the game is one this hall knows, its player count is within
the game's (`Game.min_players`..`max_players`), and a ranking places every player of the game (every game
ranks all its players, or nobody: a game that ended with no winner, a stopped one). A table's word is its
ranking: the points a result carries are kept as sent but never read (companion/hall/league/points.py
computes them from the ranking).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

from companion.hall.protocol import BadPayload


class Counts(Protocol):
    @property
    def min_players(self) -> int: ...
    @property
    def max_players(self) -> int: ...


class ResultRules:
    def __init__(self, games: Mapping[str, Counts]) -> None:
        self._games = games

    def check(self, result: Mapping[str, Any]) -> None:
        game = self._games.get(result["game"])
        if game is None:
            raise BadPayload("result: not a game this hall knows")
        count = len(result["players"])
        if not game.min_players <= count <= game.max_players:
            raise BadPayload(f"result: {count} players, the game takes {game.min_players}-{game.max_players}")
        placed = {pid for group in result["ranking"] for pid in group}
        if placed and placed != {p["id"] for p in result["players"]}:
            raise BadPayload("result: its ranking leaves out a player of the game")
