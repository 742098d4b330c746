"""Table tests for the timer part (companion/parts/timers): start, pause, resume, extend, warnings and
expiry, as pure functions over plain dicts."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.core.contract import Deadline
from companion.parts import timers
from tests.kits.rejection_code import code_of

WARN, EXPIRE = "timer.warn", "timer.expire"


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
