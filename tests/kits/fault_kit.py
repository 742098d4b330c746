"""Helpers for the fault tests: a real `companion run --jsonl` child with phones on a real broker.

`Child` runs `python -m companion run --jsonl --no-display` on a SQLite file with the managed
Mosquitto on fixed loopback ports, reads its replies and its console lines on threads
into queues, and can be SIGKILLed at any instant. Tests wait on those queues with timeouts, never sleep.
"""

from __future__ import annotations

import json
import os
import queue
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.core.eventlog import EventLog, setup_from_json
from companion.core.inputs import Input
from companion.core.referee import Referee
from companion.games import registry
from companion.phones.runner import KEPT_FILE, free_ports
from companion.phones.topics import Topics
from companion.scripting import run as run_script
from tests.kits.phones_kit import Phone

GUARD_S = 30.0  # only a guard against a hung child; no timing is asserted
SCRIPTS = Path(__file__).resolve().parents[2] / "docs" / "games" / "lockdown"


def lockdown_game(name: str = "lockdown-2p.jsonl") -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The scripted 6-round Lockdown game: its setup line and its inputs, each given a command id."""
    lines = [json.loads(t) for t in (SCRIPTS / name).read_text(encoding="utf-8").splitlines()
             if t.strip() and not t.startswith("#")]
    setup, moves = lines[0], lines[1:]
    return setup, [{k: v for k, v in m.items() if k != "at"} | {"id": f"cmd-{i}"} for i, m in enumerate(moves)]


@dataclass(frozen=True)
class Ports:
    mqtt: int
    ws: int

    @classmethod
    def pick(cls) -> Ports:
        return cls(*free_ports(2))  # two different ports (one after another, the kernel may repeat one)


def child_env(tmp: Path, ports: Ports, broker: str = "mosquitto", **extra: str) -> dict[str, str]:
    return {**os.environ, "XDG_CONFIG_HOME": str(tmp / "cfg"), "COMPANION_TIMERS__RESUME_AFTER_RESTART": "keep",
            "COMPANION_MQTT__BROKER": broker, "COMPANION_MQTT__PORT": str(ports.mqtt),
            "COMPANION_MQTT__WS_PORT": str(ports.ws), "COMPANION_MQTT__PAGE_PORT": "0", **extra}


class Child:
    """A real `companion run --jsonl` process; replies and stderr lines land in queues."""

    def __init__(self, db: Path, env: dict[str, str], setup: dict[str, Any], umask: int = -1) -> None:
        """`umask` -1 keeps this process's (subprocess's default); 0o022 is a terminal's."""
        players = ",".join(p["id"] for p in setup["players"])
        options = [a for k, v in setup.get("options", {}).items() for a in ("--option", f"{k}={json.dumps(v)}")]
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "companion", "run", "--jsonl", "--no-display", "--db", str(db),
             "--game", setup["game"], "--players", players, *options],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, umask=umask,
        )
        self.replies: queue.Queue[dict[str, Any]] = queue.Queue()
        self.said: queue.Queue[str] = queue.Queue()
        self.console: list[str] = []
        threading.Thread(target=self._read_out, daemon=True).start()
        threading.Thread(target=self._read_err, daemon=True).start()

    def _read_out(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            obj = json.loads(line)
            if "line" in obj:
                self.replies.put(obj)

    def _read_err(self) -> None:
        assert self.proc.stderr is not None
        for line in self.proc.stderr:
            self.console.append(line)
            self.said.put(line)

    def wait_said(self, text: str, timeout: float = GUARD_S) -> str:
        deadline = time.monotonic() + timeout  # overall, however many other lines come
        while True:
            line = self.said.get(timeout=max(0.0, deadline - time.monotonic()))
            if text in line:
                return line

    def send(self, obj: dict[str, Any]) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps(obj) + "\n")
        self.proc.stdin.flush()

    def reply(self) -> dict[str, Any]:
        return self.replies.get(timeout=GUARD_S)

    def kill(self) -> None:
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(GUARD_S)

    def finish(self) -> int:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        return self.proc.wait(timeout=GUARD_S)


def start_game(db: Path, setup: dict[str, Any]) -> None:
    """Start the scripted game (its seed included) in the file; `companion run` then resumes it."""
    referee = Referee.start(registry(), EventLog(db), setup_from_json(setup), created_at=0)
    referee.log.close()


def resumed(db: Path) -> Referee:
    """The referee a restart builds from the file (read back from SQLite)."""
    referee = Referee.resume(registry(), EventLog(db))
    assert referee is not None
    return referee


def replayed(referee: Referee) -> Referee:
    """The same game replayed from its setup and logged inputs in a fresh in-memory log."""
    stored = referee.log.game(referee.game_id)
    assert stored is not None
    inputs: list[Input] = [ev.input for ev in referee.events]
    lines = [json.dumps(stored.setup.to_json())] + [json.dumps(i.to_json()) for i in inputs]
    return run_script(registry(), EventLog(":memory:"), lines)


def player_phone(state_dir: Path, ports: Ports, pid: str, table: str = "table1") -> tuple[Phone, Topics, str]:
    """A phone of player `pid` using the credentials its join link carries (kept in the state dir)."""
    creds = json.loads((state_dir / KEPT_FILE).read_text(encoding="utf-8"))
    user, password = creds["players"][pid]
    topics = Topics("companion", table)
    p = Phone("127.0.0.1", ports.mqtt, user, password)
    assert not p.connect().is_failure
    p.subscribe(topics.public, topics.view(user))
    return p, topics, user


def as_sent(view: Any) -> Any:
    """A view as a phone receives it (JSON: tuples become lists)."""
    return json.loads(json.dumps(view))


def drain(q: queue.Queue[Any]) -> None:
    while True:
        try:
            q.get_nowait()
        except queue.Empty:
            return
