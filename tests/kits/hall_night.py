"""A league night with real processes: `companion hall run` on the organiser's own central Mosquitto, and
tables that are each a `companion run --jsonl --no-display` process with its own managed Mosquitto
bridged to it (tests/kits/fault_kit.py's `Child`). The hall's pages are read as a page reads them: a
Server-Sent Events stream of versions, and `/hall.json` fetched on each one. No sleeps: every wait is
on a line, a message or an event, with a guard timeout.
"""

from __future__ import annotations

import http.client
import json
import queue
import subprocess
import sys
import threading
import time
import tomllib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.hall import protocol
from companion.phones.runner import free_port
from tests.kits.fault_kit import Child, Ports, child_env, start_game
from tests.kits.hall_kit import HALL_PASSWORD, PREFIX, Central
from tests.kits.hall_scripts import renamed

GUARD_S = 60.0  # only a guard against a hung process; no timing is asserted


def hall_cli(db: Path, *args: str) -> str:
    """`companion hall ARGS --db DB`, its standard output (it must succeed)."""
    done = subprocess.run([sys.executable, "-m", "companion", "hall", *args, "--db", str(db)],
                          capture_output=True, text=True, timeout=GUARD_S)
    assert done.returncode == 0, done.stderr
    return done.stdout


def table_password(db: Path, name: str, table_id: str, central_port: int) -> str:
    """Add a table with `companion hall table add` and read its password from the config it prints."""
    printed = tomllib.loads(hall_cli(db, "table", "add", name, "--id", table_id,
                                     "--url", f"mqtt://127.0.0.1:{central_port}"))
    assert printed["table"]["id"] == table_id and printed["hall"]["name"] == name
    return str(printed["hall"]["password"])


class HallProcess:
    """`companion hall run` on an external central broker, its pages on a free port of 127.0.0.1."""

    def __init__(self, db: Path, central: Central, name: str) -> None:
        self.page_port = free_port()
        url = f"mqtt://{protocol.HALL_USER}:{HALL_PASSWORD}@127.0.0.1:{central.port}"
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "companion", "hall", "--lang", "en", "run", "--db", str(db), "--score", "every-game",
             "--broker", "external",
             "--url", url, "--host", "127.0.0.1", "--page-port", str(self.page_port), "--name", name,
             "--prefix", PREFIX],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        self.said: queue.Queue[str] = queue.Queue()
        self.console: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()
        line = self.wait_said("organiser?key=")
        self.organiser_url = line[line.index("http://"):].strip()

    def _read(self) -> None:
        assert self.proc.stderr is not None
        for line in self.proc.stderr:
            self.console.append(line)
            self.said.put(line)

    def wait_said(self, text: str) -> str:
        deadline = time.monotonic() + GUARD_S  # overall, however many other lines come
        while True:
            try:
                line = self.said.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                raise AssertionError(f"the hall did not say {text!r}; it said: {''.join(self.console)}") from None
            if text in line:
                return line

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.page_port}"

    def get(self, path: str) -> bytes:
        conn = http.client.HTTPConnection("127.0.0.1", self.page_port, timeout=GUARD_S)
        try:
            conn.request("GET", path)
            answer = conn.getresponse()
            assert answer.status == 200, (path, answer.status)
            return answer.read()
        finally:
            conn.close()

    def until(self, what: str, ok: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
        """The hall's snapshot once `ok` holds, as the hall screen follows it (its event stream)."""
        conn = http.client.HTTPConnection("127.0.0.1", self.page_port, timeout=GUARD_S)
        last: dict[str, Any] = {}
        try:
            conn.request("GET", "/events")
            stream = conn.getresponse()
            assert stream.status == 200
            deadline = time.monotonic() + GUARD_S  # a guard: the stream's comments would keep it open forever
            while time.monotonic() < deadline:
                line = stream.readline()
                if not line:
                    raise AssertionError(f"the hall's event stream ended before {what}")
                if line.startswith(b"data:"):
                    last = json.loads(self.get("/hall.json"))
                    if ok(last):
                        return last
            raise TimeoutError
        except TimeoutError:
            shown = json.dumps(last)[:2000]
            raise AssertionError(f"the hall never showed {what}; its last snapshot: {shown}") from None
        finally:
            conn.close()

    def stop(self) -> int:
        if self.proc.poll() is None:
            self.proc.terminate()
        return self.proc.wait(GUARD_S)


@dataclass
class NightTable:
    """One table of the night: its id and name, its scripted game played by league players, its process."""

    id: str
    name: str
    script: str
    people: dict[str, tuple[str, str]]  # the script's player id -> (league id, name)
    folder: Path
    password: str = ""
    ports: Ports = field(default_factory=Ports.pick)
    child: Child | None = None
    sent: int = 0

    def __post_init__(self) -> None:
        self.setup, self.moves = renamed(self.script, self.people)
        self.db = self.folder / "table.sqlite3"

    def env(self, central_port: int) -> dict[str, str]:
        return child_env(self.folder, self.ports, broker="mosquitto", COMPANION_TABLE__ID=self.id,
                         COMPANION_MQTT__PREFIX=PREFIX, COMPANION_HALL__URL=f"mqtt://127.0.0.1:{central_port}",
                         COMPANION_HALL__NAME=self.name, COMPANION_HALL__PASSWORD=self.password,
                         XDG_STATE_HOME=str(self.folder / "state"))

    def start(self, central_port: int, first: bool = True) -> None:
        if first:
            self.folder.mkdir(parents=True, exist_ok=True)
            start_game(self.db, self.setup)
        self.ports = Ports.pick()  # just before the start: ports picked long before may have been taken since
        self.child = Child(self.db, self.env(central_port), self.setup)
        try:
            self.child.wait_said("ws://", timeout=GUARD_S)  # its broker (with the bridge in its config) is up
        except queue.Empty:
            raise AssertionError(f"table {self.id} did not start; it said: {''.join(self.child.console)}") from None

    def play(self, upto: int) -> None:
        """Send the script's inputs up to `upto` (exclusive); each must be accepted."""
        assert self.child is not None
        for cmd in self.moves[self.sent:upto]:
            self.child.send(cmd)
            reply = self.child.reply()
            assert reply["ok"], (self.id, cmd, reply)
        self.sent = max(self.sent, upto)

    def kill(self) -> None:
        assert self.child is not None
        self.child.kill()

    def close(self) -> None:
        """End the table as its host would (end of input), so it stops its own broker; killed only if hung
        (a killed companion leaves its Mosquitto running, for the next start to stop)."""
        if self.child is not None and self.child.proc.poll() is None:
            try:
                self.child.finish()
            except subprocess.TimeoutExpired:
                self.child.kill()
