"""Shared helpers for the toolkit end-to-end tests (tests/test_toolkit_*.py, tests/core/test_corrections.py):
inline script lines, a runner on a real SQLite log, and the views and stored events to compare.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

from companion.core.eventlog import EventLog
from companion.core.inputs import Input
from companion.core.referee import Referee
from companion.games import registry
from companion.scripting import run

GAMES = registry()
PLAYERS = ["ana", "ben", "chai", "dao"]
AUDIENCES = ["public", "host", *(f"player:{p}" for p in PLAYERS)]
SETUP: dict[str, Any] = {
    "game": "toolkit",
    "players": [{"id": p, "name": p.title()} for p in PLAYERS],
    "seed": 2026,
}


def host(move: str, at: int, **args: Any) -> dict[str, Any]:
    return {"by": "host", "move": move, "args": args, "at": at}


def player(pid: str, move: str, at: int, **args: Any) -> dict[str, Any]:
    return {"by": f"player:{pid}", "move": move, "args": args, "at": at}


def vote(pid: str, option: str, at: int, name: str = "exile") -> dict[str, Any]:
    return player(pid, "ballot.vote", at, name=name, option=option)


def play(path: Path, *lines: dict[str, Any], setup: dict[str, Any] | None = None) -> Referee:
    """Run an inline script on a fresh SQLite file; every line must be accepted."""
    text = [json.dumps(setup or SETUP), *(json.dumps(line) for line in lines)]
    return run(GAMES, EventLog(path), text)


def views(ref: Referee) -> dict[str, Any]:
    return {aud: ref.view(aud) for aud in AUDIENCES}


def stored(ref: Referee) -> int:
    """How many events the SQLite file holds for this game (read back, not the in-memory list)."""
    return len(ref.log.events(ref.game_id))


def without_corrections(view: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in view.items() if k != "corrections"}


def said(ref: Referee) -> list[tuple[int, str, dict[str, Any]]]:
    return [(a["at"], a["msg"], a["params"]) for a in ref.view("public")["announcements"]]


# -- shared scenes ---------------------------------------------------------------------------------------

TIMER = [host("timer.create", 0, name="day", seconds=60, warnings=[30, 10]), host("timer.start", 1000, name="day")]


def scene(ana: str, ben: str, ben_hp: int = -2) -> list[dict[str, Any]]:
    """Roles dealt, a hidden counter, a ballot where Ana and Ben voted and Chai and Dao have not."""
    return [
        host("roles.deal", 0, name="roles", roles=["wolf", "seer", "villager", "villager"]),
        host("counter.create", 500, name="hp", initial=10, low=0, high=10),
        host("ballot.open", 1000, name="exile", options=["red", "blue", "green"]),
        player("ben", "counter.adjust", 1500, name="hp", delta=ben_hp),
        vote("ana", ana, 2000),
        vote("ben", ben, 3000),
    ]


def submit_refused(ref: Referee, inp: Input) -> tuple[str, dict[str, Any]]:
    before, state, count = views(ref), copy.deepcopy(ref.state), stored(ref)
    outcome = ref.submit(inp)
    assert not outcome.accepted and outcome.reason is not None
    assert (views(ref), ref.state, stored(ref)) == (before, state, count)
    return outcome.reason.code, dict(outcome.reason.params)
