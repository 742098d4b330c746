"""Escape the Lab's choice function for the random legal table (companion/core/bot.py).

It leans towards what moves a game forward (placing, stepping, activating) and ends a move early often
enough that games finish; a prompt the referee refuses (a Control room on a room that then costs too
much) is dropped and another tried. A prompt with a field that offers nothing to choose is no move the
bot can make (issue 33: the forms should never offer one): it is passed over, not answered.
"""

from __future__ import annotations

import random

from companion.core import bot
from companion.core.contract import Game, State
from companion.core.fold import step
from companion.core.inputs import Input
from companion.core.rejection import Rejected
from companion.games.lab_escape.game import GAME

#: How much the bot likes each move (it still picks among those offered).
WEIGHTS = {"step": 6, "move.end": 3, "activate": 6, "attack": 3, "item.use": 1, "turn.end": 1, "stuck": 0.05,
           "card.place": 5, "card.drawn": 5}


def next_input(game: Game, state: State, rnd: random.Random, at: int) -> Input | None:
    pid = game.current_player(state)
    if pid is None:
        return None
    pool = [o for o in bot.offers(game, state, f"player:{pid}") if bot.usable(o[1])]
    while (picked := bot.weighted(rnd, pool, WEIGHTS)) is not None:
        inp = bot.answer(picked, rnd, at, bot.spread)
        try:
            step(game, state, inp)
        except Rejected:
            pool.remove(picked)
            continue
        return inp
    raise AssertionError(f"no prompt of player:{pid} is accepted in phase {game.phase(state)}")


BOT = bot.Bot(GAME, next_input, limit=3000)
