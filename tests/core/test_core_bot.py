"""The one random table (companion/core/bot.py) with each game's choices: the loop stops when the game
ends, the inputs it played fold to the state it reached, and a demo search finds a game or says so."""

from __future__ import annotations

import importlib
import random

import pytest

from companion.core.bot import Bot
from companion.core.contract import Player, Setup
from companion.core.fold import fold
from companion.games import registry

BOTS = {gid: importlib.import_module(f"companion.games.{gid}.bot").BOT for gid in registry() if gid != "toolkit"}


def table(gid: str, seed: int) -> Setup:
    game = registry()[gid]
    count = max(game.min_players, min(4, game.max_players))
    return Setup(gid, tuple(Player(f"p{i}", f"P{i}") for i in range(count)), {}, seed)


@pytest.mark.parametrize("gid", sorted(BOTS))
def test_each_game_bot_plays_inputs_that_fold_to_the_state_it_reached(gid: str) -> None:
    bot: Bot = BOTS[gid]
    state, inputs = bot.play(table(gid, 7), random.Random(7), limit=150)
    assert inputs and [i.at for i in inputs] == [bot.step_ms * (n + 1) for n in range(len(inputs))]
    assert fold(bot.game, table(gid, 7), inputs) == state


def test_the_loop_stops_when_the_game_ends_and_a_demo_search_says_when_none_fits() -> None:
    bot: Bot = BOTS["jailbreak"]
    state, inputs = bot.play(table("jailbreak", 3), random.Random(3))
    assert state["ended"] and len(inputs) < bot.limit
    assert bot(state, random.Random(0), 10**9) is None
    seed, _, found, _ = bot.first(lambda s: table("jailbreak", s), lambda st, _: st["ended"])
    assert seed == 1 and found["ended"]
    with pytest.raises(SystemExit, match="no jailbreak game"):
        bot.first(lambda s: table("jailbreak", s), lambda st, _: False, tries=3)
