"""Table tests for the tally part (hidden counters within bounds) and the roles part (a seeded deal,
each player's own role, reveals), both in companion/parts."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.core.rejection import Rejected
from companion.parts import roles, tallies
from tests.kits.rejection_code import code_of

# -- tallies ----------------------------------------------------------------------------------------


def test_a_tally_must_start_within_its_bounds() -> None:
    assert code_of(tallies.new, ["ana"], 11, 0, 10) == "reject.tally_bounds"
    assert code_of(tallies.new, ["ana"], -1, 0, 10) == "reject.tally_bounds"


@pytest.mark.parametrize(("delta", "expected"), [(-4, 6), (3, 10), (-15, 0), (0, 10), (-10, 0)])
def test_adjust_clamps_to_the_bounds(delta: int, expected: int) -> None:
    t = tallies.new(["ana", "ben"], 10, 0, 10)
    assert tallies.adjust(t, "ana", delta) == expected
    assert tallies.private(t, "ana") == expected
    assert tallies.private(t, "ben") == 10


def test_adjust_of_a_player_without_a_counter_is_refused() -> None:
    t = tallies.new(["ana"], 5, 0, 10)
    with pytest.raises(Rejected) as err:
        tallies.adjust(t, "zed", 1)
    assert (err.value.code, err.value.params) == ("reject.tally_no_player", {"player": "zed"})
    assert code_of(tallies.set_value, t, "zed", 1) == "reject.tally_no_player"
    assert tallies.private(t, "zed") is None


def test_set_value_refuses_a_value_out_of_bounds_instead_of_clamping() -> None:
    t = tallies.new(["ana"], 5, 0, 10)
    assert code_of(tallies.set_value, t, "ana", 11) == "reject.tally_bounds"
    assert tallies.private(t, "ana") == 5
    tallies.set_value(t, "ana", 10)
    assert tallies.private(t, "ana") == 10


def test_tally_values_are_public_only_once_revealed() -> None:
    t = tallies.new(["ana", "ben"], 5, 0, 10)
    tallies.adjust(t, "ben", 2)
    assert tallies.public(t) == {"low": 0, "high": 10, "revealed": False}
    t["revealed"] = True
    assert tallies.public(t)["values"] == {"ana": 5, "ben": 7}


@given(st.integers(-50, 50), st.integers(0, 50), st.lists(st.integers(-999, 999), max_size=20))
def test_a_tally_never_leaves_its_bounds(low: int, span: int, deltas: list[int]) -> None:
    high = low + span
    t = tallies.new(["ana"], low, low, high)
    expected = low
    for d in deltas:
        expected = min(high, max(low, expected + d))
        assert tallies.adjust(t, "ana", d) == expected
        assert low <= tallies.private(t, "ana") <= high  # type: ignore[operator]


# -- roles ------------------------------------------------------------------------------------------

PLAYERS = ["ana", "ben", "chai"]
POOL = ["wolf", "seer", "villager", "villager", "hunter"]


@pytest.mark.parametrize("seed", [0, 1, 7, 2026])
def test_a_deal_gives_the_first_n_of_the_shuffled_pool_in_seat_order_and_leaves_the_rest(seed: int) -> None:
    d = roles.deal(PLAYERS, POOL, random.Random(seed))
    pile = list(POOL)
    random.Random(seed).shuffle(pile)
    assert d["assigned"] == dict(zip(PLAYERS, pile[:3], strict=True))
    assert d["unused"] == pile[3:]
    assert Counter(d["assigned"].values()) + Counter(d["unused"]) == Counter(POOL)
    assert d["pool"] == sorted(POOL)


def test_deals_differ_between_seeds() -> None:
    deals = {tuple(roles.deal(PLAYERS, POOL, random.Random(s))["assigned"].values()) for s in range(20)}
    assert len(deals) > 3


def test_a_deal_needs_a_role_for_every_player() -> None:
    with pytest.raises(Rejected) as err:
        roles.deal(PLAYERS, ["wolf", "seer"], random.Random(0))
    assert (err.value.code, err.value.params) == ("reject.roles_too_few", {"roles": 2, "players": 3})


def test_each_player_sees_their_own_role_and_the_table_only_the_pool() -> None:
    d = roles.deal(PLAYERS, POOL, random.Random(3))
    assert roles.private(d, "ben") == d["assigned"]["ben"]
    assert roles.private(d, "zed") is None
    assert roles.public(d) == {"pool": sorted(POOL), "revealed": {}}


def test_reveal_one_then_all() -> None:
    d = roles.deal(PLAYERS, POOL, random.Random(3))
    roles.reveal(d, "ben")
    roles.reveal(d, "ben")
    assert roles.public(d)["revealed"] == {"ben": d["assigned"]["ben"]}
    roles.reveal(d)
    assert roles.public(d)["revealed"] == d["assigned"]
    assert code_of(roles.reveal, d, "zed") == "reject.roles_no_player"
