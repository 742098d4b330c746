"""A game survives `kill -9` at any instant: no acknowledged input lost, nothing half-applied.

The real `companion run` process is fed a scripted toolkit game over stdin and killed with SIGKILL at
random moments (after a random number of lines written and a random number of replies read, so kills
land before, during and after appends). After each kill it is restarted on the same SQLite file and
the sender re-sends every input it has no reply for, with the same command id, as a phone would.
"""

from __future__ import annotations

import json
import os
import queue
import random
import signal
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

from companion.core.eventlog import EventLog
from companion.core.inputs import Input
from companion.core.referee import Referee
from companion.games import registry
from companion.scripting import run as run_script

PLAYERS = ["ana", "ben", "chai", "dao"]
KILLS = 50
REPLY_GUARD_S = 30  # only a guard against a hung child; no timing is asserted


def scripted_game(seed: int) -> list[dict[str, Any]]:
    """A long toolkit game whose every input is accepted when played in order."""
    rnd = random.Random(seed)
    moves: list[dict[str, Any]] = [
        {"by": "host", "move": "counter.create", "args": {"name": "hp", "initial": 10, "low": 0, "high": 10}},
        {"by": "host", "move": "roles.deal", "args": {"name": "roles", "roles": ["wolf", "seer", "vil", "vil"]}},
        {"by": "host", "move": "timer.create", "args": {"name": "night", "seconds": 3600}},
    ]
    for b in range(14):
        name = f"vote{b}"
        moves.append({"by": "host", "move": "ballot.open",
                      "args": {"name": name, "options": PLAYERS, "weights": {"dao": 2}, "tie": "random"}})
        for pid in rnd.sample(PLAYERS, len(PLAYERS)):
            moves.append({"by": f"player:{pid}", "move": "ballot.vote",
                          "args": {"name": name, "option": rnd.choice(PLAYERS)}})
        moves.append({"by": "host", "move": "counter.adjust",
                      "args": {"name": "hp", "player": rnd.choice(PLAYERS), "delta": rnd.randint(-3, 2)}})
        moves.append({"by": f"player:{rnd.choice(PLAYERS)}", "move": "dice.roll", "args": {"count": 2}})
        if b % 4 == 3:
            moves.append({"by": "host", "move": "host.undo", "args": {"count": 1}})
        moves.append({"by": "host", "move": "ballot.close", "args": {"name": name}})
    return [{**m, "id": f"cmd-{i}"} for i, m in enumerate(moves)]


class Companion:
    """A real `companion run --jsonl` child process with a reader thread for its replies."""

    def __init__(self, db: Path, env: dict[str, str]) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "companion", "run", "--jsonl", "--db", str(db), "--game", "toolkit",
             "--players", ",".join(PLAYERS)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
        )
        self.replies: queue.Queue[dict[str, Any]] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            obj = json.loads(line)
            if "line" in obj:
                self.replies.put(obj)

    def send(self, obj: dict[str, Any]) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps(obj) + "\n")
        self.proc.stdin.flush()

    def reply(self) -> dict[str, Any]:
        return self.replies.get(timeout=REPLY_GUARD_S)

    def kill(self) -> None:
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()


def logged(db: Path) -> tuple[list[Input], Referee]:
    log = EventLog(db)
    referee = Referee.resume(registry(), log)
    assert referee is not None
    return [ev.input for ev in referee.events], referee


def test_sigkill_at_random_moments_loses_nothing_acknowledged(tmp_path: Path) -> None:
    game = scripted_game(seed=11)
    setup = {"game": "toolkit", "players": PLAYERS, "seed": 0}
    # Sanity: the script itself is a legal game.
    run_script(registry(), EventLog(":memory:"), [json.dumps(setup)] + [json.dumps({**m, "at": 0}) for m in game])

    db = tmp_path / "table.sqlite3"
    env = {**os.environ, "XDG_CONFIG_HOME": str(tmp_path / "cfg"), "COMPANION_TIMERS__RESUME_AFTER_RESTART": "keep"}
    rnd = random.Random(2026)
    acked: set[str] = set()
    next_unacked = 0
    kills = 0
    while kills < KILLS and next_unacked < len(game):
        child = Companion(db, env)
        in_flight = game[next_unacked : next_unacked + rnd.randint(1, 6)]
        for cmd in in_flight:
            child.send(cmd)
        for cmd in in_flight[: rnd.randint(0, len(in_flight))]:
            reply = child.reply()
            assert reply["ok"], reply
            acked.add(cmd["id"])
        child.kill()
        kills += 1
        # After the restart the log holds every acknowledged input, in order, each exactly once.
        inputs, _ = logged(db)
        ids = [i.id for i in inputs]
        assert ids == [m["id"] for m in game[: len(ids)]]
        assert acked <= set(ids)
        next_unacked = max((int(i.removeprefix("cmd-")) + 1 for i in acked), default=0)

    assert kills == KILLS
    # Finish the game in one last run, re-sending everything unacknowledged (duplicates are answered, not applied).
    child = Companion(db, env)
    for cmd in game[next_unacked:]:
        child.send(cmd)
        reply = child.reply()
        assert reply["ok"], reply
    assert child.proc.stdin is not None
    child.proc.stdin.close()
    assert child.proc.wait(timeout=REPLY_GUARD_S) == 0

    inputs, survivor = logged(db)
    assert [i.id for i in inputs] == [m["id"] for m in game]
    assert survivor.log.integrity_ok()
    # The killed-and-restarted referee ends exactly where one uninterrupted referee does.
    stored = survivor.log.game(survivor.game_id)
    assert stored is not None
    lines = [json.dumps(stored.setup.to_json())] + [json.dumps(i.to_json()) for i in inputs]
    uninterrupted = run_script(registry(), EventLog(":memory:"), lines)
    assert uninterrupted.state == survivor.state
    for audience in ["public", "host", *(f"player:{p}" for p in PLAYERS)]:
        assert uninterrupted.view(audience) == survivor.view(audience)
