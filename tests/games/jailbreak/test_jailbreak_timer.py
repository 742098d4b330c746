"""The Jailbreak turn timer through the real referee and clock (`companion.core.clock.advance`, as the
live loop and the script runner use it), on a SQLite log: warnings and expiry are logged clock inputs,
expiry ends the turn (docs/games/jailbreak.md), and a restart pauses a running timer."""

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
    "game": "jailbreak",
    "players": [{"id": p, "name": p.title()} for p in ("ana", "ben", "chai")],
    "options": {"sheriffs": ["ana"], "turn_seconds": 60},
    "seed": 4,
}


def play(path: Path, *lines: dict[str, Any]) -> Referee:
    return run(registry(), EventLog(path), [json.dumps(SETUP), *(json.dumps(line) for line in lines)])


def said(ref: Referee) -> list[tuple[int, str, dict[str, Any]]]:
    return [(a["at"], a["msg"], a["params"]) for a in ref.view("public")["announcements"]]


def test_the_first_timer_waits_for_the_host(tmp_path: Path) -> None:
    ref = play(tmp_path / "log.sqlite3", {"clock": 500_000})
    assert ref.view("public")["table"]["timers"]["turn"]["running"] is False
    assert ref.view("public")["turn"] == "ana"


def test_the_timer_warns_then_ends_the_turn_and_the_next_turn_gets_a_fresh_one(tmp_path: Path) -> None:
    ref = play(tmp_path / "log.sqlite3", {"by": "host", "move": "timer.start", "args": {}, "at": 1000},
               {"by": "player:ana", "move": "key.use", "args": {}, "at": 5000}, {"clock": 61_000})
    assert (51_000, "jailbreak.timer_warning", {"seconds": 10, "player": "ana"}) in said(ref)
    assert (61_000, "jailbreak.timer_expired", {"player": "ana"}) in said(ref)
    assert [(e.input.move, e.input.at) for e in ref.events if e.input.by == "clock"] == [
        ("timer.warn", 51_000), ("timer.expire", 61_000)]
    public = ref.view("public")
    # ana's key stood; her turn ended; counter-clockwise from ana (seats ana, ben, chai) is chai
    assert public["table"]["people"]["ana"]["scene"] == 2 and public["turn"] == "chai"
    assert public["table"]["timers"]["turn"]["deadline"] == 121_000


def test_after_a_restart_a_running_timer_is_paused_for_the_host_to_resume(tmp_path: Path) -> None:
    path = tmp_path / "log.sqlite3"
    ref = play(path, {"by": "host", "move": "timer.start", "args": {}, "at": 1000})
    again = Referee(registry(), EventLog(path), ref.game_id)
    assert again.game.on_resume(again.state) == [("timer.pause", {})]
    for move, args in again.game.on_resume(again.state):
        assert again.submit(Input(move, "host", args, 20_000)).accepted
    assert again.view("public")["table"]["timers"]["turn"]["remaining"] == 41_000
    host = [p["move"] for p in again.view("host")["prompts"]]
    assert host == ["timer.resume", "timer.start", "hand.set", "timer.set"]  # resume, or start again from full
