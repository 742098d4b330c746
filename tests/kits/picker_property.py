"""The choices property every game states in its tests/games/<id>/test_<id>_choices.py (issue 21): at a
state Hypothesis reaches (part way through a demo script, or a fresh game on other options, and the game's
bot on from there), every form a prompt lets be sent is accepted by the referee, and every input the
referee accepts for a move the prompts ask is in the actor's prompts as the phone receives them and can be
tapped on the booth's pages (tests/kits/picker_checks.py).

Hypothesis' short paths miss states real games reach (issue 33): `check_a_real_game` walks every demo
script and long seeded games (tests/kits/picker_walks.py) and checks the same at their states: a sample by
default (`SAMPLE_SEEDS`, `SAMPLE_STRIDE`), every state of `WHOLE_SEEDS` games per script under the `slow`
marker. tests/README.md, "The choices property", says how many states that is per game and how long it takes."""

from __future__ import annotations

import importlib
import os
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import strategies as st

from companion.games import registry
from tests.kits.picker_checks import assert_prompts_match_the_referee, evenings
from tests.kits.picker_states import played, reached, varied
from tests.kits.picker_walks import Walk, scripts_folder, walk_findings

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


# -- the states real games reach (issue 33): every demo script and long seeded games ----------------------

#: the quick sample: every 6th state of the demo scripts and of one game per script, of at most 200 inputs
SAMPLE_SEEDS, SAMPLE_STRIDE, SAMPLE_LONGEST = 1, 6, 200
#: the whole walk (marked slow): long games per demo script, even seeds on varied options, odd ones on the
#: script's own. The full tier (CI) walks FULL_SEEDS, about 2 minutes of CPU for the six games: Lockdown's
#: six per script are what it takes for each of issue 33's four defects to come up (a gold bar's pick only
#: in seeds 4 and 5), fewer where a state costs more to check (Betrayal's haunt, the toolkit's forms that
#: grow with every timer and vote). The many seeds (`CHOICES_WALK=many bash tests/run.sh -m slow -k
#: along_the_demo`) are the exhaustive run.
FULL_SEEDS = {"lockdown": 6, "room25": 4, "jailbreak": 1, "betrayal": 1, "lab_escape": 2, "toolkit": 1}
MANY_SEEDS = {"lockdown": 12, "room25": 12, "jailbreak": 8, "betrayal": 2, "lab_escape": 4, "toolkit": 4}
WHOLE_SEEDS = MANY_SEEDS if os.environ.get("CHOICES_WALK") == "many" else FULL_SEEDS
LONGEST = 1500  # inputs a long game may take at most (Lockdown, Room 25 and Jailbreak end well before)
#: shorter where a game rarely ends by itself: random forms keep Escape the Lab's players wandering and
#: Betrayal's haunt going for thousands of inputs, and the toolkit's session lasts as long as its host
#: makes it, each new timer, vote or counter adding forms to check at every state after it
LONGEST_FOR = {"lab_escape": 500, "betrayal": 700, "toolkit": 150}


def walks(game_id: str, seeds: int | dict[str, int]) -> list[Walk | None]:
    """The demo scripts (None) and `seeds` long games on each script's table (even seeds: on other options
    and another seed, picker_states.varied; odd ones on the script's own): a number for the sample's (of
    at most SAMPLE_LONGEST inputs), or WHOLE_SEEDS's, game by game."""
    longest = LONGEST_FOR.get(game_id, LONGEST)
    if isinstance(seeds, int):  # the sample's games
        longest = min(longest, SAMPLE_LONGEST)
    else:
        seeds = seeds[game_id]
    count = len(list(scripts_folder(game_id).glob("*.jsonl")))  # at collection: no script played yet
    return [None, *(Walk(game_id, which, seed, longest, vary=seed % 2 == 0)
                    for which in range(count) for seed in range(seeds))]


def walk_id(walk: Walk | None) -> str:
    return "demos" if walk is None else f"script{walk.which}-seed{walk.seed}{'-varied' if walk.vary else ''}"


def check_a_real_game(game_id: str, walk: Walk | None, stride: int,
                      known: frozenset[tuple[str, str]] = frozenset()) -> None:
    """At every `stride`-th state of the demo scripts (None) or of a long game, the prompts match the referee
    both ways (picker_walks.walk_findings)."""
    checked, found = walk_findings(game_id, walk, stride, known)
    assert checked, "no state reached"
    assert not found, f"{len(found)} mismatches (actor, move, args, refusal or where, state): {found[:3]}"


def walk_tests(game_id: str, known: frozenset[tuple[str, str]] = frozenset()) -> tuple[Any, Any]:
    """A game's two walk tests (issue 33), for its test_<id>_choices.py to name: every SAMPLE_STRIDE-th state
    of the demo scripts and of a long game per script; every state of WHOLE_SEEDS long games (`slow`)."""

    @pytest.mark.parametrize("walk", walks(game_id, SAMPLE_SEEDS), ids=walk_id)
    def a_sample(walk: Walk | None) -> None:
        check_a_real_game(game_id, walk, SAMPLE_STRIDE, known)

    @pytest.mark.slow
    @pytest.mark.parametrize("walk", walks(game_id, WHOLE_SEEDS), ids=walk_id)
    def every_state(walk: Walk | None) -> None:
        check_a_real_game(game_id, walk, 1, known)

    return a_sample, every_state
