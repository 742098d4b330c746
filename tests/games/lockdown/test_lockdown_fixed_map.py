"""Lockdown's map is `fixed_state` (issue 20: the referee's copy at each step shares it instead of
pickling it, and the map's Graph is found by identity instead of by its JSON): across random legal games,
with refused inputs mixed in, no move changes the map (it keeps the content it was set up with), every
state of the game holds that same map, and a refused input still leaves the state as it was."""

from __future__ import annotations

import copy
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.core.contract import Player, Setup
from companion.core.fold import copy_state, initial, step
from companion.core.inputs import Input
from companion.core.rejection import Rejected
from companion.games.lockdown import GAME, bot

REFUSED = [
    Input("lockdown.move", "player:p0", {"path": ["B101", "B102"]}),
    Input("lockdown.draw", "player:p0", {"count": 9}),
    Input("lockdown.take", "player:p1", {"cards": ["airdrop6"]}),
]


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(n=st.integers(2, 9), seed=st.integers(0, 10**6), physical=st.booleans())
def test_no_move_changes_the_shared_map(n: int, seed: int, physical: bool) -> None:
    setup = Setup("lockdown", tuple(Player(f"p{i}", f"P{i}") for i in range(n)),
                  {"items": "physical" if physical else "digital", "free_seconds": 0, "turn_seconds": 0}, seed)
    state = initial(GAME, setup)
    first_map, content = state["map"], copy.deepcopy(state["map"])
    rng = random.Random(seed)
    at = 0
    while not state["ended"] and at < 3_000_000:
        at += 1000
        if rng.random() < 0.1:
            bad = rng.choice(REFUSED)
            before = copy.deepcopy(state)
            try:
                state = step(GAME, state, Input(bad.move, bad.by, bad.args, at))
            except Rejected:
                assert state == before
            continue
        s = bot.next_step(state, rng)
        state = step(GAME, state, Input(s["move"], s["by"], s["args"], at))
        assert state["map"] is first_map
    assert state["ended"]
    assert first_map == content


def test_a_copy_shares_the_fixed_parts_and_copies_the_rest() -> None:
    state = {"map": {"rooms": {"A": [1]}}, "people": {"p0": {"hp": 3}}, "round": 1}
    copied = copy_state(state, GAME.fixed_state)
    assert copied == state and list(copied) == list(state)
    assert copied["map"] is state["map"]
    assert copied["people"] is not state["people"] and copied["people"]["p0"] is not state["people"]["p0"]
    assert copy_state(state)["map"] is not state["map"]  # without fixed parts: a deep copy, as before
