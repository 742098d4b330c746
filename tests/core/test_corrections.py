"""Corrections around the clock, and timers a host lengthens before starting them."""

from __future__ import annotations

from pathlib import Path

from companion.core.clock import advance
from companion.core.inputs import Input
from companion.core.referee import Referee
from tests.kits.toolkit_script import host, play, vote

TIMER = [
    host("timer.create", 0, name="day", seconds=60, warnings=[30]),
    host("timer.start", 1000, name="day"),
    host("ballot.open", 2000, name="exile", options=["red", "blue"]),
]


def moves(ref: Referee) -> list[tuple[str, str]]:
    from companion.core.corrections import effective

    return [(e.input.by, e.input.move) for e in effective(ref.events)]


def test_undo_takes_back_what_people_sent_not_the_clock(tmp_path: Path) -> None:
    ref = play(tmp_path / "log.sqlite3", *TIMER, vote("ana", "red", 20_000), {"clock": 35_000})
    assert moves(ref)[-2:] == [("player:ana", "ballot.vote"), ("clock", "timer.warn")]
    assert ref.submit(Input("host.undo", "host", {"count": 1}, 36_000)).accepted
    assert moves(ref)[-1] == ("clock", "timer.warn")  # the warning was given; it stays given
    assert ref.view("player:ana")["private"]["ballots"]["exile"]["my_vote"] is None
    assert ref.view("public")["table"]["timers"]["day"]["running"]


def test_a_clock_input_that_no_longer_fits_is_skipped(tmp_path: Path) -> None:
    ref = play(tmp_path / "log.sqlite3", *TIMER, {"clock": 40_000})
    assert ref.view("public")["announcements"][-1]["msg"] == "toolkit.timer_warning"
    # undo the ballot and the timer's start: the 30 s warning it gave no longer fits a stopped timer
    assert ref.submit(Input("host.undo", "host", {"count": 2}, 41_000)).accepted
    timer = ref.state["timers"]["day"]
    assert (timer["running"], timer["warned"]) == (False, [])
    assert "toolkit.timer_warning" not in [a["msg"] for a in ref.view("public")["announcements"]]
    assert list(ref.deadlines()) == []
    # started again, it warns and expires on its new deadlines
    assert ref.submit(Input("timer.start", "host", {"name": "day"}, 50_000)).accepted
    fired = advance(ref, 200_000)
    assert [(e.input.move, e.input.at) for e in ref.events[-2:]] == [("timer.warn", 80_000), ("timer.expire", 110_000)]
    assert all(o.accepted for o in fired)


def test_an_amendment_with_a_bad_argument_names_the_field(tmp_path: Path) -> None:
    ref = play(tmp_path / "log.sqlite3", *TIMER)
    out = ref.submit(Input("host.amend", "host", {"seq": 1, "args": {"name": "day", "seconds": -5}}, 3000))
    assert out.reason is not None
    assert (out.reason.code, out.reason.params["field"]) == ("reject.bad_argument", "seconds")


def test_extending_a_timer_before_its_start_lengthens_it(tmp_path: Path) -> None:
    ref = play(tmp_path / "log.sqlite3", host("timer.create", 0, name="t", seconds=60),
               host("timer.extend", 500, name="t", seconds=30), host("timer.start", 1000, name="t"))
    assert [d.at for d in ref.deadlines()] == [91_000]


def test_a_voter_listed_twice_is_refused(tmp_path: Path) -> None:
    ref = play(tmp_path / "log.sqlite3")
    out = ref.submit(Input("ballot.open", "host", {"name": "b", "options": ["x", "y"], "voters": ["ana", "ana"]}, 0))
    assert out.reason is not None and out.reason.code == "reject.ballot_duplicate_voter"
