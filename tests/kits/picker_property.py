"""The choices property every game states in its tests/games/<id>/test_<id>_choices.py (issue 21): at a
state Hypothesis reaches (part way through a demo script, or a fresh game on other options, and the game's
bot on from there), every form a prompt lets be sent is accepted by the referee, and every input the
referee accepts for a move the prompts ask is in the actor's prompts as the phone receives them and can be
tapped on the booth's pages (tests/kits/picker_checks.py)."""

from __future__ import annotations

import importlib
import random
from pathlib import Path

from hypothesis import strategies as st

from companion.games import registry
from tests.kits.picker_checks import assert_prompts_match_the_referee, evenings
from tests.kits.picker_states import played, reached, varied

#: The draws of a game's choices property: which demo script, where in it, the bot's seed and how many
#: inputs it plays on, and whether to start afresh on other options instead.
DRAWS = {"which": st.integers(0, 9), "where": st.floats(0, 1), "seed": st.integers(0, 2**16),
         "more": st.integers(0, 80), "fresh": st.booleans()}


def check_a_reached_state(game_id: str, which: int, where: float, seed: int, more: int, fresh: bool,
                          known: frozenset[tuple[str, str]] = frozenset()) -> None:
    """`fresh`: a new game on a demo script's seats with other options (`varied`), the game's bot `more * 3`
    inputs into it; else the script part way, then the bot `more` inputs on. At that state, the prompts
    match the referee both ways (`assert_prompts_match_the_referee`)."""
    game = registry()[game_id]
    play = importlib.import_module(f"{type(game).__module__.rsplit('.', 1)[0]}.bot").BOT
    folder = Path(importlib.import_module(type(game).__module__).__file__ or "").parent / "demo_games"
    scripts = evenings(game_id, folder)
    setup, states, universe = scripts[which % len(scripts)]
    if fresh:
        setup = varied(game, setup, random.Random(seed))
        state = played(game, play, setup, seed, more * 3)
    else:
        state = reached(game, play, states, where, seed, more)
    assert_prompts_match_the_referee(game, setup, state, universe, seed, known)
