"""Room 25 test helpers: a setup by mode and player count, and the random legal table of
`companion.games.room25.bot` bound to the registered game."""

from __future__ import annotations

import random
from typing import Any

from companion.core.contract import Player, Setup, State
from companion.core.inputs import Input
from companion.games import registry
from companion.games.room25 import bot

GAME = registry()["room25"]
NAMES = ["ana", "ben", "chai", "dao", "eli", "fon"]


def setup(mode: str, count: int, seed: int, **options: Any) -> Setup:
    players = tuple(Player(p, p.title()) for p in NAMES[:count])
    return Setup("room25", players, {"mode": mode, **options}, seed)


def next_input(state: State, rnd: random.Random, at: int) -> Input | None:
    return bot.BOT(state, rnd, at)


def play(s: Setup, rnd: random.Random, limit: int = 3000) -> tuple[State, list[Input]]:
    return bot.BOT.play(s, rnd, limit)
