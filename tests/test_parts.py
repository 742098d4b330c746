"""Table tests for the generic referee parts (companion/parts): timers, ballots, tallies, roles,
programming, dice and turn order. Each part is a set of pure functions over plain dicts."""

from __future__ import annotations

import copy
import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.core.contract import Deadline
from companion.core.rejection import Rejected
from companion.parts import ballot, dice, programming, roles, tallies, timers, turn_order

WARN, EXPIRE = "timer.warn", "timer.expire"


def code_of(fn: Any, *args: Any) -> str:
    with pytest.raises(Rejected) as err:
        fn(*args)
    return err.value.code


# -- timers -----------------------------------------------------------------------------------------


def started(seconds: int = 60, warnings: list[int] | None = None, at: int = 0) -> timers.Timer:
    t = timers.new(seconds, [30, 10] if warnings is None else warnings)
    timers.start(t, at)
    return t


def test_new_timer_is_stopped_at_full_time_and_keeps_only_sensible_warnings() -> None:
    t = timers.new(60, [10, 30, 60, 0, 30, 90])
    assert t["warnings"] == [30, 10]  # at or past the full time, zero, and repeats are dropped
    assert (t["running"], t["expired"], t["deadline"]) == (False, False, None)
    assert timers.remaining(t, 123_456) == 60_000
    assert timers.deadlines("t", t, WARN, EXPIRE) == []


def test_start_lists_every_warning_then_the_expiry_as_absolute_deadlines() -> None:
    t = started(at=1000)
    assert timers.remaining(t, 31_000) == 30_000
    assert timers.remaining(t, 99_000) == 0
    assert timers.deadlines("day", t, WARN, EXPIRE) == [
        Deadline(31_000, WARN, {"name": "day", "at_seconds": 30}),
        Deadline(51_000, WARN, {"name": "day", "at_seconds": 10}),
        Deadline(61_000, EXPIRE, {"name": "day"}),
    ]


def test_pause_keeps_what_is_left_and_resume_counts_it_down_from_the_resume_time() -> None:
    t = started()
    timers.pause(t, 20_000)
    assert (t["running"], t["deadline"]) == (False, None)
    assert timers.remaining(t, 500_000) == 40_000  # a paused timer does not run down
    assert timers.deadlines("t", t, WARN, EXPIRE) == []
    timers.resume(t, 100_000)
    assert t["deadline"] == 140_000
    assert [d.at for d in timers.deadlines("t", t, WARN, EXPIRE)] == [110_000, 130_000, 140_000]


@pytest.mark.parametrize(
    ("prepare", "action", "code"),
    [
        ("paused", lambda t: timers.pause(t, 5), "reject.timer_not_running"),
        ("running", lambda t: timers.resume(t, 5), "reject.timer_running"),
        ("expired", lambda t: timers.resume(t, 70_000), "reject.timer_expired"),
        ("expired", lambda t: timers.pause(t, 70_000), "reject.timer_not_running"),
    ],
)
def test_pause_and_resume_refuse_a_timer_in_the_wrong_state(prepare: str, action: Any, code: str) -> None:
    t = timers.new(60, [])
    if prepare in ("running", "expired"):
        timers.start(t, 0)
    if prepare == "expired":
        timers.expire(t, 60_000)
    before = copy.deepcopy(t)
    assert code_of(action, t) == code
    assert t == before


def test_extend_a_running_timer_moves_its_deadline() -> None:
    t = started(warnings=[])
    timers.extend(t, 15, 10_000)
    assert t["running"] and t["deadline"] == 75_000
    assert timers.deadlines("t", t, WARN, EXPIRE) == [Deadline(75_000, EXPIRE, {"name": "t"})]


def test_extend_a_paused_timer_adds_to_what_is_left() -> None:
    t = started(warnings=[])
    timers.pause(t, 50_000)
    timers.extend(t, 20, 60_000)
    assert not t["running"]
    assert timers.remaining(t, 0) == 30_000


def test_extend_after_expiry_brings_the_timer_back_paused_with_the_added_time() -> None:
    t = started()
    timers.warn(t, 30, 30_000)
    timers.warn(t, 10, 50_000)
    timers.expire(t, 60_000)
    assert t["expired"] and timers.remaining(t, 60_000) == 0
    timers.extend(t, 20, 65_000)
    assert (t["expired"], t["running"]) == (False, False)
    assert timers.remaining(t, 65_000) == 20_000
    timers.resume(t, 70_000)
    # 20 s left: the 10 s warning is ahead again, the 30 s one is not
    assert timers.deadlines("t", t, WARN, EXPIRE) == [
        Deadline(80_000, WARN, {"name": "t", "at_seconds": 10}),
        Deadline(90_000, EXPIRE, {"name": "t"}),
    ]


def test_extend_re_arms_a_given_warning_only_if_that_much_time_is_left_again() -> None:
    t = started()
    timers.warn(t, 30, 30_000)
    timers.extend(t, 5, 40_000)  # 25 s left: the 30 s warning stays given
    assert [d.args.get("at_seconds") for d in timers.deadlines("t", t, WARN, EXPIRE)] == [10, None]
    timers.extend(t, 20, 41_000)  # 44 s left: the 30 s warning will be due again
    again = Deadline(55_000, WARN, {"name": "t", "at_seconds": 30})
    assert timers.deadlines("t", t, WARN, EXPIRE)[0] == again


@pytest.mark.parametrize(
    ("at_seconds", "now", "accepted"),
    [
        (30, 29_999, False),  # one ms early
        (30, 30_000, True),  # exactly when 30 s are left
        (30, 45_000, True),  # late (the loop was busy): still valid
        (10, 49_999, False),
        (10, 50_000, True),
        (20, 45_000, False),  # not one of this timer's warnings
    ],
)
def test_a_warning_is_accepted_only_once_it_is_due(at_seconds: int, now: int, accepted: bool) -> None:
    t = started()
    if accepted:
        timers.warn(t, at_seconds, now)
        assert at_seconds in t["warned"]
        assert at_seconds not in [d.args.get("at_seconds") for d in timers.deadlines("t", t, WARN, EXPIRE)]
    else:
        before = copy.deepcopy(t)
        assert code_of(timers.warn, t, at_seconds, now) == "reject.timer_not_due"
        assert t == before


def test_a_warning_is_given_once_and_never_while_paused() -> None:
    t = started()
    timers.warn(t, 30, 30_000)
    assert code_of(timers.warn, t, 30, 31_000) == "reject.timer_not_due"
    timers.pause(t, 52_000)
    assert code_of(timers.warn, t, 10, 52_000) == "reject.timer_not_due"


@pytest.mark.parametrize(("now", "accepted"), [(59_999, False), (60_000, True), (75_000, True)])
def test_expiry_is_accepted_only_at_or_after_the_deadline(now: int, accepted: bool) -> None:
    t = started()
    if accepted:
        timers.expire(t, now)
        assert t["expired"] and not t["running"]
        assert timers.remaining(t, now) == 0
        assert timers.deadlines("t", t, WARN, EXPIRE) == []
        assert code_of(timers.expire, t, now) == "reject.timer_not_due"  # only once
    else:
        assert code_of(timers.expire, t, now) == "reject.timer_not_due"
        assert not t["expired"]


def test_expiry_of_a_paused_timer_is_refused_even_past_its_old_deadline() -> None:
    t = started()
    timers.pause(t, 10_000)
    assert code_of(timers.expire, t, 90_000) == "reject.timer_not_due"


def test_start_again_restarts_from_full_time_with_every_warning_re_armed() -> None:
    t = started()
    timers.warn(t, 30, 30_000)
    timers.warn(t, 10, 50_000)
    timers.expire(t, 60_000)
    timers.start(t, 100_000)
    assert not t["expired"]
    assert [d.at for d in timers.deadlines("t", t, WARN, EXPIRE)] == [130_000, 150_000, 160_000]


def test_timer_public_view_lets_a_screen_count_down_on_its_own() -> None:
    t = started(at=2000)
    shown = timers.public(t)
    assert shown["running"] and shown["deadline"] == 62_000 and shown["duration"] == 60_000


@given(
    st.integers(1, 3600),
    st.lists(st.tuples(st.sampled_from(["pause", "resume"]), st.integers(0, 10_000)), max_size=12),
)
def test_pausing_and_resuming_never_loses_or_gains_time(seconds: int, steps: list[tuple[str, int]]) -> None:
    """Time left = full time minus the time spent running, whatever the pauses."""
    t = timers.new(seconds, [])
    timers.start(t, 0)
    now, ran, last_start = 0, 0, 0
    for action, gap in steps:
        now += gap
        if action == "pause" and t["running"]:
            timers.pause(t, now)
            ran += now - last_start
        elif action == "resume" and not t["running"]:
            timers.resume(t, now)
            last_start = now
    running_part = now - last_start if t["running"] else 0
    assert timers.remaining(t, now) == max(0, seconds * 1000 - ran - running_part)


# -- ballots ----------------------------------------------------------------------------------------


VOTERS = ["ana", "ben", "chai", "dao"]


def voted(votes: dict[str, str], **kw: Any) -> ballot.Ballot:
    b = ballot.new(["red", "blue", "green"], VOTERS, **kw)
    for voter, option in votes.items():
        ballot.cast(b, voter, option)
    return b


@pytest.mark.parametrize(
    ("options", "voters", "weights", "code"),
    [
        (["red"], ["ana"], None, "reject.ballot_options"),
        (["red", "red"], ["ana"], None, "reject.ballot_options"),
        (["red", "blue"], [], None, "reject.ballot_no_voters"),
        (["red", "blue"], ["ana"], {"ben": 2}, "reject.ballot_weight_not_voter"),
    ],
)
def test_a_badly_formed_ballot_is_refused(
    options: list[str], voters: list[str], weights: Any, code: str
) -> None:
    assert code_of(ballot.new, options, voters, weights) == code


def test_weights_count_in_the_tally() -> None:
    b = voted({"ana": "red", "ben": "blue", "chai": "blue"}, weights={"ana": 3})
    ballot.close(b, random.Random(0))
    assert b["result"] == {
        "totals": {"red": 3, "blue": 2, "green": 0},
        "cast": 3,
        "tied": [],
        "winner": "red",
        "awaiting_host": False,
    }


def test_until_close_lets_a_voter_change_their_vote_and_only_the_last_one_counts() -> None:
    b = voted({"ana": "red"})
    ballot.cast(b, "ana", "blue")
    assert ballot.private(b, "ana") == {"eligible": True, "my_vote": "blue"}
    ballot.close(b, random.Random(0))
    assert b["result"]["totals"] == {"red": 0, "blue": 1, "green": 0}
    assert b["result"]["cast"] == 1


def test_final_refuses_a_second_vote_and_keeps_the_first() -> None:
    b = voted({"ana": "red"}, change="final")
    assert code_of(ballot.cast, b, "ana", "blue") == "reject.ballot_already_voted"
    assert code_of(ballot.cast, b, "ana", "red") == "reject.ballot_already_voted"
    assert ballot.private(b, "ana")["my_vote"] == "red"


def test_a_voter_not_on_the_roll_is_refused() -> None:
    b = ballot.new(["red", "blue"], ["ana", "ben"])
    assert code_of(ballot.cast, b, "chai", "red") == "reject.ballot_not_eligible"
    assert ballot.private(b, "chai") == {"eligible": False, "my_vote": None}
    assert b["votes"] == {}


def test_an_option_not_on_the_ballot_is_refused_and_named() -> None:
    b = ballot.new(["red", "blue"], ["ana"])
    with pytest.raises(Rejected) as err:
        ballot.cast(b, "ana", "purple")
    assert (err.value.code, err.value.params) == ("reject.ballot_unknown_option", {"option": "purple"})
    assert b["votes"] == {}


def test_a_closed_ballot_takes_no_vote_and_cannot_close_again() -> None:
    b = voted({"ana": "red"})
    ballot.close(b, random.Random(0))
    assert code_of(ballot.cast, b, "ben", "red") == "reject.ballot_closed"
    assert code_of(ballot.close, b, random.Random(0)) == "reject.ballot_closed"


TIE = {"ana": "red", "ben": "blue", "chai": "green", "dao": "blue"}  # with ana weight 2: red 2, blue 2


def test_a_tie_with_no_winner_rule_has_no_winner_and_names_the_tied_options() -> None:
    b = voted(TIE, weights={"ana": 2})
    ballot.close(b, random.Random(0))
    r = b["result"]
    assert (r["winner"], r["tied"], r["awaiting_host"]) == (None, ["red", "blue"], False)
    assert code_of(ballot.decide, b, "red") == "reject.ballot_no_tie"


@pytest.mark.parametrize("seed", range(5))
def test_a_random_tie_break_picks_a_tied_option_and_the_same_one_for_the_same_seed(seed: int) -> None:
    winners = set()
    for _ in range(3):
        b = voted(TIE, weights={"ana": 2}, tie="random")
        ballot.close(b, random.Random(seed))
        winners.add(b["result"]["winner"])
        assert b["result"]["tied"] == ["red", "blue"]
    assert len(winners) == 1 and winners <= {"red", "blue"}


def test_a_random_tie_break_really_depends_on_the_seed() -> None:
    winners = set()
    for seed in range(40):
        b = voted(TIE, weights={"ana": 2}, tie="random")
        ballot.close(b, random.Random(seed))
        winners.add(b["result"]["winner"])
    assert winners == {"red", "blue"}


def test_host_decides_leaves_the_winner_open_until_the_host_picks_a_tied_option() -> None:
    b = voted(TIE, weights={"ana": 2}, tie="host_decides")
    assert code_of(ballot.decide, b, "red") == "reject.ballot_no_tie"  # still open
    ballot.close(b, random.Random(0))
    assert (b["result"]["winner"], b["result"]["awaiting_host"]) == (None, True)
    assert code_of(ballot.decide, b, "green") == "reject.ballot_unknown_option"  # not among the tied
    ballot.decide(b, "blue")
    assert (b["result"]["winner"], b["result"]["awaiting_host"]) == ("blue", False)
    assert code_of(ballot.decide, b, "red") == "reject.ballot_no_tie"  # decided once


def test_host_decides_without_a_tie_needs_no_decision() -> None:
    b = voted({"ana": "red"}, tie="host_decides")
    ballot.close(b, random.Random(0))
    assert (b["result"]["winner"], b["result"]["awaiting_host"]) == ("red", False)
    assert code_of(ballot.decide, b, "red") == "reject.ballot_no_tie"


@pytest.mark.parametrize("tie", ["no_winner", "random", "host_decides"])
def test_a_ballot_with_no_votes_has_no_winner_whatever_the_tie_rule(tie: Any) -> None:
    b = voted({}, tie=tie)
    ballot.close(b, random.Random(0))
    assert b["result"] == {
        "totals": {"red": 0, "blue": 0, "green": 0},
        "cast": 0,
        "tied": [],
        "winner": None,
        "awaiting_host": False,
    }


def test_votes_of_weight_zero_elect_nobody() -> None:
    b = voted({"ana": "red"}, weights={"ana": 0}, tie="random")
    ballot.close(b, random.Random(0))
    assert (b["result"]["winner"], b["result"]["cast"]) == (None, 1)


def test_the_public_ballot_shows_how_many_voted_but_no_vote() -> None:
    b = voted({"ana": "red", "ben": "blue"})
    shown = ballot.public(b)
    assert shown["cast"] == 2 and shown["result"] is None
    assert "votes" not in shown
    assert "red" not in str({k: v for k, v in shown.items() if k != "options"})
    assert ballot.private(b, "ben") == {"eligible": True, "my_vote": "blue"}
    assert ballot.private(b, "chai") == {"eligible": True, "my_vote": None}


@given(
    st.dictionaries(st.sampled_from(VOTERS), st.sampled_from(["red", "blue", "green"])),
    st.dictionaries(st.sampled_from(VOTERS), st.integers(0, 5)),
    st.sampled_from(["no_winner", "random", "host_decides"]),
    st.integers(0, 2**32),
)
def test_a_tally_adds_each_voters_weight_once_and_a_winner_has_the_most(
    votes: dict[str, str], weights: dict[str, int], tie: Any, seed: int
) -> None:
    b = voted(votes, weights=weights, tie=tie)
    ballot.close(b, random.Random(seed))
    r = b["result"]
    assert sum(r["totals"].values()) == sum(weights.get(v, 1) for v in votes)
    assert r["cast"] == len(votes)
    top = max(r["totals"].values())
    if r["winner"] is not None:
        assert r["totals"][r["winner"]] == top > 0
    if len(r["tied"]) < 2:
        assert (r["winner"] is None) == (top == 0)


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
