"""Room 25's choice function for the random legal table (companion/core/bot.py): the table reports
tiles, everyone programs in secret, then each player gives their action's details, seldom forfeiting.
"""

from __future__ import annotations

import random

from companion.core import bot
from companion.core.contract import Game, State
from companion.core.inputs import Input
from companion.games.room25.game import GAME

GIVING_UP = ("act.forfeit", "room.skip")


def next_input(game: Game, state: State, rnd: random.Random, at: int) -> Input | None:
    phase = game.phase(state)
    if phase in ("reveal", "locate_exit"):
        return bot.reported(game, state, rnd, at, ("room.reveal", "exit.locate"))
    if phase == "programming":
        waiting = [p for p in state["program"]["expected"] if p not in state["program"]["committed"]]
        pid = rnd.choice(waiting)
    else:
        pid = game.current_player(state)
        if pid is None:
            return None
    offered = bot.offers(game, state, f"player:{pid}")
    useful = [o for o in offered if o[1]["move"] not in GIVING_UP]
    if not any(bot.usable(prompt) for _, prompt in useful):
        useful = []
    pool = useful if useful and rnd.random() > 0.05 else offered
    return bot.answer(rnd.choice(pool), rnd, at)


BOT = bot.Bot(GAME, next_input, limit=3000)
