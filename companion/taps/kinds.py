"""What a tag can be enrolled as at this table: a player's figure, or one of the game's token kinds.

A game declares its enrollable tokens with an optional ``tokens(state) -> {kind: [id, ...]}`` method
(the kinds and ids its `on_token` understands; e.g. the toolkit's ``{"dice": ["d6", "2d6"], ...}``).
A game without it offers figures only. Ids are public words of the physical box (a card, a room
tile, a die), never state a player keeps hidden; the list is read on the Table's thread.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from companion.core.contract import Game
from companion.taps.registry import PLAYER, Token, check


@dataclass(frozen=True)
class Choice:
    """One thing the host can say a new tag is: `kind` ``player`` (id = the player's id) or a game kind."""

    kind: str
    id: str
    label: str  # what the registry keeps as the token's label (a player's name, else the id)

    def token(self, uid: str, game: str) -> Token:
        return check(uid, game, self.kind, self.id, self.label)


def game_tokens(game: Game | None, state: Any) -> dict[str, list[str]]:
    """The game's declared ``{kind: [ids]}``, or nothing when it declares none."""
    if game is None:
        return {}
    found: Mapping[str, Iterable[str]] = game.tokens(state)
    return {str(kind): [str(i) for i in ids] for kind, ids in found.items() if kind != PLAYER}


def enrollable(game: Game | None, state: Any, players: Sequence[tuple[str, str]]) -> tuple[Choice, ...]:
    """Every player's figure (in seat order), then the game's tokens, kind by kind."""
    figures = [Choice(PLAYER, pid, name) for pid, name in players]
    items = [Choice(kind, tid, tid) for kind, ids in game_tokens(game, state).items() for tid in ids]
    return tuple(figures + items)
