"""The main loop's clock: deadlines fire as inputs, stamped with their deadline, before later inputs."""

from __future__ import annotations

import io
from dataclasses import dataclass
from pathlib import Path

from companion.core.contract import Player, Setup
from companion.core.eventlog import EventLog
from companion.core.referee import Outcome, Referee
from companion.games import registry
from companion.table.console_input import read_lines
from companion.table.loop import Table
from companion.table.views import Views


@dataclass
class FakeClock:
    now: int = 0

    def now_ms(self) -> int:
        return self.now


class Recorder:
    def __init__(self) -> None:
        self.seen: list[list[Outcome]] = []

    def changed(self, views: Views, outcomes: list[Outcome]) -> None:
        self.seen.append(outcomes)


def table(tmp_path: Path, clock: FakeClock) -> Table:
    setup = Setup("toolkit", (Player("ana", "Ana"), Player("ben", "Ben")), {}, seed=3)
    referee = Referee.start(registry(), EventLog(tmp_path / "t.sqlite3"), setup, created_at=0)
    return Table(referee, clock=clock)


def host(move: str, **args: object) -> dict[str, object]:
    return {"by": "host", "move": move, "args": args}


def test_a_vote_after_the_deadline_lands_after_the_expiry(tmp_path: Path) -> None:
    clock = FakeClock(1_000)
    t = table(tmp_path, clock)
    assert t.handle(host("timer.create", name="turn", seconds=30, warnings=[10])).accepted
    assert t.handle(host("timer.start", name="turn")).accepted
    assert t.handle(host("ballot.open", name="b", options=["x", "y"])).accepted
    clock.now = 1_000 + 45_000  # the loop was busy; the vote arrives 15 s after the deadline
    vote = t.handle({"by": "player:ana", "move": "ballot.vote", "args": {"name": "b", "option": "x"}})
    assert vote.accepted
    moves = [(ev.input.move, ev.input.by, ev.input.at) for ev in t.referee.events]
    assert moves[-3:] == [
        ("timer.warn", "clock", 21_000),
        ("timer.expire", "clock", 31_000),
        ("ballot.vote", "player:ana", 46_000),
    ]


def test_inputs_are_stamped_by_the_table_clock_not_by_the_sender(tmp_path: Path) -> None:
    clock = FakeClock(5_000)
    t = table(tmp_path, clock)
    t.handle({**host("dice.roll"), "at": 999_999_999})
    assert t.referee.events[-1].input.at == 5_000


def test_tick_fires_due_deadlines_and_tells_the_outputs(tmp_path: Path) -> None:
    clock = FakeClock(0)
    t = table(tmp_path, clock)
    rec = Recorder()
    t.outputs.append(rec)
    t.handle(host("timer.create", name="t", seconds=5))
    t.handle(host("timer.start", name="t"))
    seen = len(rec.seen)
    clock.now = 4_999
    t.tick()
    assert len(rec.seen) == seen  # nothing due yet: nobody is disturbed
    clock.now = 5_000
    t.tick()
    assert t.referee.state["timers"]["t"]["expired"]
    assert len(rec.seen) == seen + 1


def test_resume_paused_pauses_running_timers_after_a_restart(tmp_path: Path) -> None:
    clock = FakeClock(0)
    t = table(tmp_path, clock)
    t.handle(host("timer.create", name="t", seconds=60))
    t.handle(host("timer.start", name="t"))
    clock.now = 20_000
    outcomes = t.resume_paused()
    assert [o.accepted for o in outcomes] == [True]
    timer = t.referee.state["timers"]["t"]
    assert not timer["running"] and timer["remaining"] == 40_000


def test_console_lines_are_handled_by_the_main_loop_in_order(tmp_path: Path) -> None:
    clock = FakeClock(0)
    t = table(tmp_path, clock)
    replies: list[tuple[int, bool]] = []
    stdin = io.StringIO(
        '{"by": "host", "move": "dice.roll", "args": {}}\n'
        "not json\n"
        "\n"
        '{"by": "player:zed", "move": "dice.roll", "args": {}}\n'
        '{"by": "player:ben", "move": "dice.roll", "args": {"count": 2}}\n'
    )
    read_lines(stdin, t, lambda n: lambda o: replies.append((n, o.accepted)))
    t.run()  # returns when the console reaches end of input
    assert replies == [(1, True), (2, False), (4, False), (5, True)]
    assert [ev.input.by for ev in t.referee.events] == ["host", "player:ben"]


def test_a_timer_that_ran_out_during_a_power_cut_expires_before_the_pause(tmp_path: Path) -> None:
    clock = FakeClock(0)
    t = table(tmp_path, clock)
    t.handle(host("timer.create", name="short", seconds=10))
    t.handle(host("timer.create", name="long", seconds=600))
    t.handle(host("timer.start", name="short"))
    t.handle(host("timer.start", name="long"))
    clock.now = 120_000  # back after two minutes without power
    t.resume_paused()
    timers = t.referee.state["timers"]
    assert timers["short"]["expired"]
    assert [a["msg"] for a in t.referee.view("public")["announcements"]][-2:] == [
        "toolkit.timer_expired",
        "toolkit.timer_paused",
    ]
    assert (timers["long"]["running"], timers["long"]["remaining"]) == (False, 480_000)
