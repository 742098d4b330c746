"""Room 25 through the real referee and SQLite log: a restart replays identically, host corrections
never tell a secret, and prompts reach only the player they are for."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from companion.core.eventlog import EventLog
from companion.core.fold import initial
from companion.core.inputs import Input
from companion.core.referee import Referee
from companion.games import registry
from tests.kits.room25_bot import next_input, setup
from tests.kits.room25_secrets import assert_invariants, assert_nothing_leaks

GAMES = registry()


def start(path: Path, mode: str = "suspicion", count: int = 5, seed: int = 11, **options: Any) -> Referee:
    return Referee.start(GAMES, EventLog(path), setup(mode, count, seed, **options), 0)


def bot_steps(ref: Referee, count: int, rnd: random.Random) -> None:
    for _ in range(count):
        inp = next_input(ref.state, rnd, ref.state.get("now", 0) + 1000)
        if inp is None:
            return
        outcome = ref.submit(inp)
        assert outcome.accepted, outcome.reason


def submit(ref: Referee, by: str, move: str, **args: Any) -> str | None:
    outcome = ref.submit(Input(move, by, args, ref.state.get("now", 0) + 1000))
    return None if outcome.accepted else (outcome.reason.code if outcome.reason else "?")


def views(ref: Referee) -> dict[str, Any]:
    audiences = ["public", "host", *(f"player:{p['id']}" for p in ref.state["players"])]
    return {a: ref.view(a) for a in audiences}


@pytest.mark.parametrize(("mode", "count", "tiles"), [("suspicion", 5, "digital"), ("cooperation", 3, "physical")])
def test_a_restart_replays_the_log_to_the_identical_game(tmp_path: Path, mode: str, count: int, tiles: str) -> None:
    ref = start(tmp_path / "log.sqlite3", mode, count, tiles=tiles)
    bot_steps(ref, 10_000, random.Random(5))
    assert ref.state["ended"]
    again = Referee.resume(GAMES, EventLog(tmp_path / "log.sqlite3"))
    assert again is not None
    assert again.state == ref.state
    assert views(again) == views(ref)


def test_the_host_history_never_shows_a_plan_and_an_undone_plan_leaves_no_trace(tmp_path: Path) -> None:
    ref = start(tmp_path / "log.sqlite3")
    before = ref.view("public")
    assert submit(ref, "player:ana", "plan", actions=["push", "control"]) is None
    assert ref.view("host")["history"] == [
        {"seq": 1, "by": "player:ana", "at": 1000, "msg": "history.acted", "params": {"by": "player:ana"}}
    ]
    assert "push" not in json.dumps(ref.view("host"))
    assert submit(ref, "host", "host.amend", seq=1, args={"actions": ["look", "move"]}) == "reject.amend_secret"
    assert submit(ref, "host", "host.undo", count=1) is None
    after = ref.view("public")
    assert after["corrections"] == 1
    assert {k: v for k, v in after.items() if k != "corrections"} == {
        k: v for k, v in before.items() if k != "corrections"}
    assert ref.view("player:ana")["private"]["plan"] is None


def plan_all(ref: Referee, actions: list[str]) -> None:
    for pid in list(ref.state["program"]["expected"]):
        assert submit(ref, f"player:{pid}", "plan", actions=actions) is None


def test_an_undone_move_closes_the_room_it_had_turned_up_again(tmp_path: Path) -> None:
    ref = start(tmp_path / "log.sqlite3", "cooperation", 3)
    plan_all(ref, ["move", "look"])
    before = ref.view("public")
    assert submit(ref, "player:ana", "act.move", direction="up") is None
    assert ref.view("public")["table"]["rooms"][7]["room"] is not None
    assert submit(ref, "host", "host.undo", count=1) is None
    after = ref.view("public")
    assert after["table"] == before["table"]
    assert_nothing_leaks(ref.state)


def seed_with(tile: int, kind: str) -> int:
    """A seed whose deal puts `kind` under `tile`."""
    return next(s for s in range(10_000) if initial(GAMES["room25"], setup("cooperation", 3, s))["tiles"][tile]["kind"]
                == kind)


@pytest.mark.parametrize("below", ["smoke", "empty", "death", "passage"])
def test_amending_a_move_is_refused_whatever_the_closed_rooms_are(tmp_path: Path, below: str) -> None:
    """An amendment refused only when the room it would enter asks for a choice would tell the host
    what that closed room is: moves are never amended, whatever lies under the tiles (undo instead)."""
    ref = start(tmp_path / "log.sqlite3", "cooperation", 3, seed_with(17, below))  # (3,2): below the start
    assert ref.state["tiles"][17]["kind"] == below
    plan_all(ref, ["move", "look"])
    assert submit(ref, "player:ana", "act.move", direction="up") is None
    seq = len(ref.events)
    assert submit(ref, "player:ben", "act.move", direction="up") is None
    assert submit(ref, "host", "host.amend", seq=seq, args={"direction": "down"}) == "reject.amend_secret"
    shown = [h for h in ref.view("host")["history"] if h["by"].startswith("player:")]
    assert shown and all("move" not in h and "args" not in h for h in shown)


@pytest.mark.parametrize("seed", range(6))
def test_undoing_any_number_of_inputs_reveals_nothing(tmp_path: Path, seed: int) -> None:
    rnd = random.Random(seed)
    mode, count = ("competition", 3) if seed % 2 else ("suspicion", 5)
    ref = start(tmp_path / "log.sqlite3", mode, count, seed)
    bot_steps(ref, rnd.randrange(20, 120), rnd)
    sent = sum(1 for e in ref.live if e.input.by != "clock")
    assert submit(ref, "host", "host.undo", count=min(sent, rnd.randrange(1, 30))) is None
    assert_invariants(ref.state)
    assert_nothing_leaks(ref.state)
    notices = [a for a in ref.view("public")["announcements"] if a["msg"] == "announce.correction"]
    assert all(set(a["params"]) == {"count"} for a in notices)


def test_prompts_reach_only_the_player_whose_choice_it_is(tmp_path: Path) -> None:
    ref = start(tmp_path / "log.sqlite3", "cooperation", 3)
    plan = ref.view("player:ana")["prompts"]
    assert [p["move"] for p in plan] == ["plan"]
    field = plan[0]["fields"][0]
    assert (field["kind"], field["min"], field["max"]) == ("choices", 2, 2)
    assert [c["value"] for c in field["choices"]] == ["look", "move", "push", "control"]
    plan_all(ref, ["move", "look"])
    ana = ref.view("player:ana")["prompts"]
    assert [p["move"] for p in ana] == ["act.move", "act.forfeit"]
    assert [c["value"] for c in ana[0]["fields"][0]["choices"]] == ["up", "down", "left", "right"]
    assert ref.view("player:ben")["prompts"] == []
    assert "prompts" not in ref.view("public")
