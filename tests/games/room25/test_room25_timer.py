"""Room 25's programming timer, end to end on a real SQLite log: the host sets its length, the clock
fires its warning and expiry, and whoever has not programmed when it runs out does nothing that turn
(docs/games/room25.md)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from companion.core.eventlog import EventLog
from companion.core.inputs import Input
from companion.core.referee import Referee
from companion.games import registry
from companion.scripting import run

SETUP = {
    "game": "room25",
    "players": [{"id": p, "name": p.title()} for p in ("ana", "ben", "chai")],
    "options": {"mode": "cooperation", "program_seconds": 60},
    "seed": 4,
}


def play(path: Path, *lines: dict[str, Any], options: dict[str, Any] | None = None) -> Referee:
    setup = {**SETUP, "options": {**SETUP["options"], **(options or {})}}  # type: ignore[dict-item]
    return run(registry(), EventLog(path), [json.dumps(setup), *(json.dumps(line) for line in lines)])


def host(move: str, at: int, **args: Any) -> dict[str, Any]:
    return {"by": "host", "move": move, "args": args, "at": at}


def plan(pid: str, at: int, *actions: str) -> dict[str, Any]:
    return {"by": f"player:{pid}", "move": "plan", "args": {"actions": list(actions)}, "at": at}


def said(ref: Referee) -> list[tuple[int, str, dict[str, Any]]]:
    return [(a["at"], a["msg"], a["params"]) for a in ref.view("public")["announcements"]]


def test_the_first_turns_timer_waits_for_the_host_then_warns_and_expires_on_its_deadline(tmp_path: Path) -> None:
    ref = play(tmp_path / "log.sqlite3", {"clock": 500_000})
    assert ref.view("public")["table"]["timers"]["programming"]["running"] is False
    ref = play(tmp_path / "b.sqlite3", host("timer.start", 1000), plan("ana", 5000, "look", "move"),
               {"clock": 61_000})
    assert (51_000, "room25.timer_warning", {"seconds": 10}) in said(ref)
    assert (61_000, "room25.timer_expired", {"players": ["ben", "chai"]}) in said(ref)
    assert [(e.input.move, e.input.at) for e in ref.events if e.input.by == "clock"] == [
        ("timer.warn", 51_000), ("timer.expire", 61_000)]


def test_who_has_not_programmed_when_time_is_up_does_nothing_this_turn(tmp_path: Path) -> None:
    ref = play(tmp_path / "log.sqlite3", host("timer.start", 1000), plan("ana", 5000, "look", "move"),
               {"clock": 61_000})
    public = ref.view("public")
    assert public["phase"] == "action" and public["turn"] == "ana"
    assert ref.state["program"]["committed"] == {"ana": ["look", "move"], "ben": [None, None],
                                                 "chai": [None, None]}
    ana = {"by": "player:ana", "move": "act.forfeit", "args": {}}
    ref = play(tmp_path / "b.sqlite3", host("timer.start", 1000), plan("ana", 5000, "look", "move"),
               {"clock": 61_000}, {**ana, "at": 62_000}, {**ana, "at": 63_000})
    public = ref.view("public")
    assert public["table"]["turn"] == 2 and public["phase"] == "programming"
    timer = public["table"]["timers"]["programming"]
    assert timer["running"] is True and timer["deadline"] == 63_000 + 60_000  # the next turn's timer runs


def test_the_timer_stops_when_everyone_has_programmed(tmp_path: Path) -> None:
    ref = play(tmp_path / "log.sqlite3", host("timer.start", 1000), plan("ana", 2000, "look", "move"),
               plan("ben", 3000, "look", "move"), plan("chai", 4000, "look", "move"), {"clock": 200_000})
    timer = ref.view("public")["table"]["timers"]["programming"]
    assert timer["running"] is False and timer["expired"] is False
    assert not [m for _, m, _ in said(ref) if m == "room25.timer_expired"]


def test_the_host_sets_the_length_or_turns_the_timer_off(tmp_path: Path) -> None:
    ref = play(tmp_path / "log.sqlite3", host("timer.set", 500, seconds=30), host("timer.start", 1000))
    assert ref.view("public")["table"]["timers"]["programming"]["deadline"] == 31_000
    ref = play(tmp_path / "b.sqlite3", host("timer.set", 500, seconds=0))
    assert ref.view("public")["table"]["timers"] == {}
    refused = ref.submit(Input("timer.start", "host", {}, 1000))
    assert refused.reason is not None and refused.reason.code == "reject.room25_no_timer"
    host_prompts = [p["move"] for p in ref.view("host")["prompts"]]
    assert host_prompts == ["timer.set"]


def test_after_a_restart_a_running_programming_timer_is_paused(tmp_path: Path) -> None:
    ref = play(tmp_path / "log.sqlite3", host("timer.start", 1000))
    assert ref.game.on_resume(ref.state) == [("timer.pause", {})]
    assert ref.submit(Input("timer.pause", "host", {}, 9000)).accepted
    assert ref.view("public")["table"]["timers"]["programming"]["remaining"] == 52_000
    assert ref.game.on_resume(ref.state) == []
    assert [p["move"] for p in ref.view("host")["prompts"]] == ["timer.resume", "timer.set"]
