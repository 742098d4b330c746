"""Room 25 fuzzing: whatever a phone or a script sends, the referee answers with a specific rejection or
accepts it; a rejection changes nothing. And the slide decoder and the grid's slides keep their shape."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.core.fold import copy_state, initial, step
from companion.core.inputs import Input
from companion.core.rejection import Rejected
from companion.games.room25 import grid
from tests.kits.room25_bot import GAME, next_input, setup

SENDERS = ["host", "table", "clock", "player:ana", "player:ben", "player:chai", "player:dao", "player:zed"]
VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 30) | st.sampled_from(
        ["up", "left", "row1-left", "col3-up", "row2-right", "look", "move", "push", "control", "ana", "ben",
         "exit", "death", "programming", ""]) | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=2),
    max_leaves=6,
)
ARGS = st.dictionaries(
    st.sampled_from(["actions", "direction", "target", "slide", "tile", "kind", "seconds", "name", "at_seconds",
                     "extra"]), VALUES, max_size=3)


@settings(max_examples=300, deadline=None)
@given(seed=st.integers(0, 10_000), moves=st.integers(0, 200), move=st.sampled_from([*GAME.moves, "nope"]),
       by=st.sampled_from(SENDERS), args=ARGS, tiles=st.sampled_from(["digital", "physical"]))
def test_any_input_in_any_state_is_accepted_or_rejected_with_a_reason_and_a_rejection_changes_nothing(
    seed: int, moves: int, move: str, by: str, args: dict[str, Any], tiles: str
) -> None:
    rnd = random.Random(seed)
    state = initial(GAME, setup("suspicion", 4, seed, tiles=tiles))
    for n in range(moves):
        inp = next_input(state, rnd, 1000 * (n + 1))
        if inp is None:
            break
        state = step(GAME, state, inp)
    before = copy_state(state)
    try:
        step(GAME, state, Input(move, by, args, 10_000_000))
    except Rejected as reason:
        assert reason.code.startswith("reject.")
    assert state == before


@given(st.text(max_size=20))
def test_the_slide_decoder_accepts_only_a_line_and_a_direction_along_it(text: str) -> None:
    parsed = grid.parse_slide(text)
    if parsed is not None:
        line, direction = parsed
        assert text == f"{line}-{direction}" and direction in grid.line_directions(line)


@given(st.sampled_from(grid.LINES), st.sampled_from(["a", "b"]), st.integers(1, 12))
def test_five_slides_of_a_line_bring_it_back_and_the_grid_stays_a_permutation(line: str, way: str, count: int) -> None:
    direction = grid.line_directions(line)[0 if way == "a" else 1]
    g = grid.fresh()
    for _ in range(count):
        grid.slide(g, line, direction)
        assert sorted(t for row in g for t in row if t is not None) == list(range(25))
    assert (g == grid.fresh()) == (count % 5 == 0)
    assert grid.where(g, grid.START) == grid.START_CELL
