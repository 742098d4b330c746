"""The toolkit game end to end: command ids (a resent input is applied once) and a restart that resumes
from the SQLite log with identical views, deadlines and command ids."""

from __future__ import annotations

import copy
from pathlib import Path

from companion.core.clock import advance
from companion.core.eventlog import EventLog
from companion.core.inputs import Input
from companion.core.referee import Referee
from tests.kits.toolkit_script import GAMES, TIMER, host, play, player, said, scene, stored, submit_refused, views, vote

# -- command ids and restarts -----------------------------------------------------------------------------


def test_an_input_resent_with_the_same_id_is_applied_once(tmp_path: Path) -> None:
    ref = play(tmp_path / "log.sqlite3", host("counter.create", 0, name="coins", initial=5))
    spend = Input("counter.adjust", "player:ana", {"name": "coins", "delta": -2}, 1000, id="phone-ana-1")
    first = ref.submit(spend)
    after_first, count = views(ref), stored(ref)
    again = ref.submit(spend)
    assert (first.accepted, first.duplicate) == (True, False)
    assert (again.accepted, again.duplicate, again.seq) == (True, True, first.seq)
    assert (views(ref), stored(ref)) == (after_first, count)
    assert ref.view("player:ana")["private"]["counters"]["coins"] == 3
    other = Input("counter.adjust", "player:ana", {"name": "coins", "delta": -3}, 2000, id="phone-ana-1")
    assert submit_refused(ref, other) == ("reject.command_id_reused", {"id": "phone-ana-1"})


def test_a_command_id_reused_by_another_player_is_never_acknowledged_without_being_applied(
    tmp_path: Path,
) -> None:
    """Two phones that number their commands the same way ("1", "2", ...): Ben's vote is not a retry of
    Ana's, so it must be applied, or refused with a reason; answering "accepted" while dropping it
    would show Ben a vote the referee never counted."""
    ref = play(tmp_path / "log.sqlite3", host("ballot.open", 0, name="exile", options=["red", "blue"]))
    assert ref.submit(Input("ballot.vote", "player:ana", {"name": "exile", "option": "red"}, 1000, id="1")).accepted
    outcome = ref.submit(Input("ballot.vote", "player:ben", {"name": "exile", "option": "blue"}, 2000, id="1"))
    counted = ref.view("player:ben")["private"]["ballots"]["exile"]["my_vote"]
    assert (outcome.accepted, counted) in {(True, "blue"), (False, None)}, outcome.to_json()


def test_a_script_with_a_repeated_command_id_applies_it_once(tmp_path: Path) -> None:
    roll = {**player("chai", "dice.roll", 1000), "id": "chai-1"}
    ref = play(tmp_path / "log.sqlite3", roll, {**roll, "at": 2000}, host("dice.roll", 3000))
    assert [r["by"] for r in ref.view("public")["table"]["rolls"]] == ["player:chai", "host"]
    assert stored(ref) == 2


def test_a_restart_resumes_with_identical_views_deadlines_and_command_ids(tmp_path: Path) -> None:
    path = tmp_path / "log.sqlite3"
    ref = play(
        path,
        *scene("red", "blue"),
        *TIMER,
        {**player("chai", "dice.roll", 3000, count=2), "id": "chai-roll"},
        host("host.amend", 3500, seq=7, args={"name": "day", "seconds": 80, "warnings": [30, 10]}),
        host("host.undo", 4000),
        {**vote("dao", "green", 5000), "id": "dao-vote"},
        {"clock": 40_000},
    )
    before, state, deadlines = views(ref), copy.deepcopy(ref.state), list(ref.deadlines())
    events = [(e.seq, e.input) for e in ref.events]
    ref.log.close()

    log = EventLog(path)
    resumed = Referee.resume(GAMES, log)
    assert resumed is not None
    assert views(resumed) == before
    assert resumed.state == state
    assert list(resumed.deadlines()) == deadlines
    assert [(e.seq, e.input) for e in resumed.events] == events
    resent = resumed.submit(Input("ballot.vote", "player:dao", {"name": "exile", "option": "green"}, 41_000,
                                  id="dao-vote"))
    assert (resent.duplicate, resent.seq) == (True, next(seq for seq, i in events if i.id == "dao-vote"))
    assert resumed.view("player:dao")["private"]["ballots"]["exile"]["my_vote"] == "green"
    # the game goes on from where it was: the amended 80 s timer started at 1 s still fires on time
    assert [d.at for d in deadlines] == [51_000, 71_000, 81_000]
    outcomes = advance(resumed, 100_000)
    assert [o.accepted for o in outcomes] == [True, True, True]
    assert said(resumed)[-1] == (81_000, "toolkit.timer_expired", {"name": "day"})
    log.close()
