"""Table tests for the programming part (secret action slots revealed in turn order), dice and draws,
and turn order, all in companion/parts."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.core.rejection import Rejected
from companion.parts import dice, programming, turn_order
from tests.kits.rejection_code import code_of

# -- programming ------------------------------------------------------------------------------------


def test_a_commit_must_come_from_an_expected_player_and_fill_every_slot() -> None:
    p = programming.new(["ana", "ben"], 2)
    assert code_of(programming.commit, p, "zed", ["n", "s"]) == "reject.program_not_expected"
    with pytest.raises(Rejected) as err:
        programming.commit(p, "ana", ["n"])
    assert (err.value.code, err.value.params) == ("reject.program_slots", {"slots": 2})
    assert p["committed"] == {}


def test_a_player_may_recommit_until_the_reveal_starts() -> None:
    p = programming.new(["ana", "ben"], 1)
    programming.commit(p, "ana", ["north"])
    programming.commit(p, "ana", ["south"])
    assert programming.private(p, "ana") == ["south"]
    assert programming.public(p) == {"waiting_for": ["ben"], "revealed": []}
    assert code_of(programming.reveal_next, p, ["ana", "ben"]) == "reject.program_incomplete"
    programming.commit(p, "ben", ["east"])
    programming.reveal_next(p, ["ana", "ben"])
    assert code_of(programming.commit, p, "ana", ["west"]) == "reject.program_locked"


def test_reveal_gives_every_first_action_in_turn_order_then_every_second() -> None:
    p = programming.new(["ana", "ben", "chai"], 2)
    programming.commit(p, "ana", ["a1", "a2"])
    programming.commit(p, "ben", ["b1", "b2"])
    programming.commit(p, "chai", [{"go": "c1"}, {"go": "c2"}])
    assert programming.public(p)["revealed"] == []
    order = ["ben", "chai", "ana"]
    shown = [programming.reveal_next(p, order) for _ in range(7)]
    assert shown == [
        ("ben", 0, "b1"),
        ("chai", 0, {"go": "c1"}),
        ("ana", 0, "a1"),
        ("ben", 1, "b2"),
        ("chai", 1, {"go": "c2"}),
        ("ana", 1, "a2"),
        None,
    ]
    assert programming.public(p)["revealed"] == [list(s) for s in shown[:6]]


# -- dice -------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("count", "sides"), [(0, 6), (21, 6), (1, 1), (1, 101), (-1, 6)])
def test_rolls_out_of_range_are_refused(count: int, sides: int) -> None:
    assert code_of(dice.roll, random.Random(0), count, sides) == "reject.dice_range"


@given(st.integers(0, 2**32), st.integers(1, 20), st.integers(2, 100))
def test_a_roll_gives_count_values_between_1_and_sides_the_same_for_the_same_seed(
    seed: int, count: int, sides: int
) -> None:
    values = dice.roll(random.Random(seed), count, sides)
    assert len(values) == count and all(1 <= v <= sides for v in values)
    assert dice.roll(random.Random(seed), count, sides) == values


def test_a_d6_shows_every_face_over_many_rolls() -> None:
    assert set(dice.roll(random.Random(1), 20, 6) + dice.roll(random.Random(2), 20, 6)) == {1, 2, 3, 4, 5, 6}


@given(st.integers(0, 2**32), st.lists(st.integers(0, 9), max_size=12), st.integers(0, 12))
def test_a_draw_removes_what_it_returns_from_the_pile(seed: int, pile: list[int], count: int) -> None:
    original = list(pile)
    if count > len(pile):
        with pytest.raises(Rejected) as err:
            dice.draw(random.Random(seed), pile, count)
        assert err.value.code == "reject.draw_empty"
        assert err.value.params == {"wanted": count, "left": len(original)}
        assert pile == original
        return
    drawn = dice.draw(random.Random(seed), pile, count)
    assert len(drawn) == count and len(pile) == len(original) - count
    assert Counter(drawn) + Counter(pile) == Counter(original)


def test_drawing_from_an_empty_pile_is_refused() -> None:
    assert code_of(dice.draw, random.Random(0), [], 1) == "reject.draw_empty"


# -- turn order -------------------------------------------------------------------------------------

ORDER = ["ana", "ben", "chai", "dao"]


@pytest.mark.parametrize(
    ("current", "skip", "reverse", "expected"),
    [
        ("ana", (), False, "ben"),
        ("dao", (), False, "ana"),  # wraps around the table
        ("ana", (), True, "dao"),
        ("ben", ("chai",), False, "dao"),
        ("ben", ("chai", "dao"), False, "ana"),
        ("ana", ("dao", "chai"), True, "ben"),
        ("ana", ("ben", "chai", "dao"), False, "ana"),  # the only one left plays again
        ("ana", ORDER, False, None),  # everyone is out
    ],
)
def test_next_player(current: str, skip: tuple[str, ...], reverse: bool, expected: str | None) -> None:
    assert turn_order.next_player(ORDER, current, skip, reverse) == expected


def test_rotate_and_move_first_to_end_keep_the_circle() -> None:
    assert turn_order.rotate(ORDER, "chai") == ["chai", "dao", "ana", "ben"]
    assert turn_order.rotate(ORDER, "ana") == ORDER
    assert turn_order.move_first_to_end(ORDER) == ["ben", "chai", "dao", "ana"]
    assert ORDER == ["ana", "ben", "chai", "dao"]
