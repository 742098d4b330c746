"""Room 25 property tests over random legal games (played through the game's own prompts): the grid is
always the 25 tiles; no unrevealed room, role or programmed action reaches the public or host view;
a replay of the inputs gives the identical state; every game ends."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.core.contract import State
from companion.core.fold import fold, initial, step
from companion.games.room25.game import Room25
from tests.kits.host_view_twins import game_bot, seed_twin, twins
from tests.kits.room25_bot import GAME, next_input, setup
from tests.kits.room25_secrets import assert_invariants, assert_nothing_leaks, secrets_in

TABLES = st.sampled_from([("suspicion", 4), ("suspicion", 5), ("suspicion", 6), ("competition", 2),
                          ("competition", 3), ("team", 4), ("team", 6), ("cooperation", 2),
                          ("cooperation", 5), ("solo", 1)])


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(table=TABLES, tiles=st.sampled_from(["digital", "physical"]), seed=st.integers(0, 2**32),
       moves=st.integers(0, 2**32))
def test_random_legal_games_keep_the_grid_whole_keep_secrets_and_replay_identically(
    table: tuple[str, int], tiles: str, seed: int, moves: int
) -> None:
    mode, count = table
    s = setup(mode, count, seed, tiles=tiles)
    rnd = random.Random(moves)
    state = initial(GAME, s)
    inputs = []
    checked = 0
    for n in range(3000):
        assert_invariants(state)
        assert_nothing_leaks(state)
        checked += secrets_in(state) > 0
        inp = next_input(state, rnd, 1000 * (n + 1))
        if inp is None:
            break
        state = step(GAME, state, inp)
        inputs.append(inp)
    assert state["ended"], "a game must end within its turns"
    assert checked > 0
    assert fold(GAME, s, inputs) == state
    json.dumps(GAME.view_public(state))
    for pid in state["people"]:
        json.dumps(GAME.view_player(state, pid))


def test_the_leak_check_catches_a_view_that_shows_a_secret() -> None:
    """The counterfactual check is not vacuous: a view that shows one hidden room fails it."""
    state = initial(GAME, setup("suspicion", 4, 3))

    class Leaky(Room25):
        def view_public(self, s: State) -> dict[str, Any]:
            return {**super().view_public(s), "peek": s["tiles"][0]["kind"]}

    assert secrets_in(state) > 0
    with pytest.raises(AssertionError):
        assert_nothing_leaks(state, Leaky())


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(table=TABLES, tiles=st.sampled_from(["digital", "physical"]), seed=st.integers(0, 2**32),
       moves=st.integers(0, 2**32), branch=st.integers(0, 60), other_seed=st.booleans())
def test_twin_evenings_that_differ_only_in_secrets_show_the_host_the_same(
    table: tuple[str, int], tiles: str, seed: int, moves: int, branch: int, other_seed: bool
) -> None:
    """The host's view after every input is the same in two evenings that differ only in secrets (the
    seed, and from input `branch` on every secret choice a player makes), as long as the table's is:
    tests/kits/host_view_twins.py."""
    s = setup(*table, seed, tiles=tiles)
    twins(s, seed_twin(s) if other_seed else s, game_bot("room25"), moves=moves, branch=branch)
