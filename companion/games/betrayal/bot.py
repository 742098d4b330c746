"""Betrayal's choice function for the random legal table (companion/core/bot.py), through the prompts a
phone, the booth or the host's screen offers. Now and then the host changes a trait (what an event or a
room did) or ends the haunt.
"""

from __future__ import annotations

import random
from typing import Any

from companion.core import bot
from companion.core.contract import Game, State
from companion.core.inputs import HOST, Input
from companion.games.betrayal.game import GAME

RARE = {"turn.end": 0.25, "trait.roll": 0.3, "card.use": 0.3, "monsters.done": 0.3, "explorer.place": 0.02,
        "room.join": 0.1}


def number(field: dict[str, Any], prompt: dict[str, Any], rnd: random.Random) -> Any:
    """Any first roll or haunt roll; other numbers (a trait's change) at their default."""
    if field["name"] == "first" or (field["name"] == "total" and prompt["move"] == "haunt.roll"):
        return bot.spread(field, prompt, rnd)
    return field["default"]


def _pick(pool: list[bot.Offer], rnd: random.Random) -> bot.Offer | None:
    return bot.weighted(rnd, [o for o in pool if bot.usable(o[1])], RARE)


def next_input(game: Game, state: State, rnd: random.Random, at: int) -> Input | None:
    phase = game.phase(state)
    if phase != "choosing" and rnd.random() < 0.03:
        extra = [o for o in bot.offers(game, state, HOST) if bot.usable(o[1]) and (
            o[1]["move"] == "trait.adjust" or (o[1]["move"] == "haunt.end" and rnd.random() < 0.2))]
        if extra:
            return bot.answer(rnd.choice(extra), rnd, at, number)
    if phase == "choosing":
        waiting = [p for p, e in state["explorers"].items() if e["character"] is None]
        pid: str | None = rnd.choice(waiting)
    elif phase in ("room", "card"):
        return bot.reported(game, state, rnd, at, ("room.reveal", "card.reveal"))
    else:
        pid = game.current_player(state)
    if pid is None:  # the monsters' turn without a traitor: the host moves them
        picked = _pick([o for o in bot.offers(game, state, HOST) if o[1]["move"].startswith("monster")], rnd)
    else:
        picked = _pick(bot.offers(game, state, f"player:{pid}"), rnd)
    return None if picked is None else bot.answer(picked, rnd, at, number)


BOT = bot.Bot(GAME, next_input, limit=2000)
