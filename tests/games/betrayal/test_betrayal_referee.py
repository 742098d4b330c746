"""Betrayal through the real referee and SQLite log: a restart of a random game replays identically,
undoing a seeded roll and rolling again gives the same dice (undo is no re-roll), the host can amend a
room the table reported wrongly, and the goals reach only their side's phones."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from companion.core.eventlog import EventLog
from companion.core.inputs import Input
from companion.core.referee import Referee
from companion.games import registry
from companion.games.betrayal import bot
from tests.kits.betrayal_table import setup

GAMES = registry()
GAME = GAMES["betrayal"]
FOUR = ["vera", "mina", "tobias", "lin"]


def start(path: Path, **options: Any) -> Referee:
    return Referee.start(GAMES, EventLog(path), setup(FOUR, 5, today="03-01", **options), 0)


def submit(ref: Referee, by: str, move: str, **args: Any) -> str | None:
    outcome = ref.submit(Input(move, by, args, ref.state.get("now", 0) + 1000))
    return None if outcome.accepted else (outcome.reason.code if outcome.reason else "?")


def test_a_restart_replays_a_random_game_identically(tmp_path: Path) -> None:
    ref = start(tmp_path / "log.sqlite3")
    rnd = random.Random(4)
    for _ in range(400):
        inp = bot.BOT(ref.state, rnd, ref.state.get("now", 0) + 1000)
        if inp is None:
            break
        assert ref.submit(inp).accepted
    again = Referee.resume(GAMES, EventLog(tmp_path / "log.sqlite3"))
    assert again is not None
    for audience in ("public", "host", "player:ana", "player:ben"):
        assert again.view(audience) == ref.view(audience)


def test_undoing_a_roll_and_rolling_again_gives_the_same_dice(tmp_path: Path) -> None:
    ref = start(tmp_path / "log.sqlite3")
    assert submit(ref, "player:ana", "trait.roll", trait="knowledge") is None
    first = ref.state["last_roll"]["dice"]
    assert submit(ref, "host", "host.undo", count=1) is None
    assert ref.state["last_roll"] is None
    assert submit(ref, "player:ana", "trait.roll", trait="knowledge") is None
    assert ref.state["last_roll"]["dice"] == first


def test_the_host_amends_a_room_the_table_reported_wrongly(tmp_path: Path) -> None:
    ref = start(tmp_path / "log.sqlite3")
    assert submit(ref, "player:ana", "explore") is None
    assert submit(ref, "table", "room.reveal", room="corridor") is None  # meant the parlour
    seq = max(h["seq"] for h in ref.view("host")["history"])
    assert submit(ref, "host", "host.amend", seq=seq, args={"room": "parlour"}) is None
    assert "parlour" in ref.view("public")["table"]["rooms"] and "corridor" not in ref.view("public")["table"]["rooms"]
    assert ref.state["pending"]["card"] == "event"  # the parlour shows an event


def test_goals_reach_only_their_sides_phones_through_the_referee(tmp_path: Path) -> None:
    ref = start(tmp_path / "log.sqlite3")
    steps = [("player:ana", "explore", {}), ("table", "room.reveal", {"room": "conservatory"}),
             ("table", "card.reveal", {"card": "lantern"}), ("player:ana", "turn.end", {}),
             ("player:ana", "haunt.roll", {"dice": [0] * 6})]
    for by, move, args in steps:
        assert submit(ref, by, move, **args) is None
    traitor = ref.state["haunt"]["traitor"]
    assert traitor == "ana"  # haunt 4, lowest might: vera reveals and ties at 3, the revealer first
    mine = ref.view("player:ana")["private"]["goals"]
    theirs = ref.view("player:ben")["private"]["goals"]
    assert mine != theirs
    for audience in ("public", "host"):
        text = json.dumps(ref.view(audience), ensure_ascii=False)
        assert mine["zh"] not in text and theirs["th"] not in text
    assert mine["en"] not in json.dumps(ref.view("player:ben"), ensure_ascii=False)
