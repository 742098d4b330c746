"""Jailbreak's choice function for the random legal table (companion/core/bot.py): it leans towards
keys and attacks and ends its turn now and then, so games reach both ends.
"""

from __future__ import annotations

import random

from companion.core import bot
from companion.core.contract import Game, State
from companion.core.inputs import Input
from companion.games.jailbreak.game import GAME

WEIGHTS = {"key.use": 8, "attack": 3, "badge.use": 3, "card.use": 2, "cuffs.place": 2, "scene.back": 0.3,
           "turn.end": 1.5, "attack.trade": 1, "attack.take": 1, "cuffs.unlock": 3, "cuffs.stay": 1}


def next_input(game: Game, state: State, rnd: random.Random, at: int) -> Input | None:
    if game.phase(state) == "cuffs":
        actors = [f"player:{p['id']}" for p in state["players"]]
    else:
        pid = game.current_player(state)
        if pid is None:
            return None
        actors = [f"player:{pid}"]
    picked = bot.weighted(rnd, bot.offers(game, state, *actors), WEIGHTS)
    return None if picked is None else bot.answer(picked, rnd, at)


BOT = bot.Bot(GAME, next_input, limit=5000)
