"""The hall's side for the table's hall tests: a central Mosquitto (a plain config file, a password file
and the ACL of companion/hall/protocol.py) and a table bridged to it (the real `Table`, the managed
Mosquitto with the bridge in its config, the mirror, the hall's results and seating).

Readiness is read from Mosquitto's own log lines, never waited for with a sleep.
"""

from __future__ import annotations

import contextlib
import os
import pwd
import queue
import shutil
import subprocess
import tempfile
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.config import Config
from companion.core.contract import Player, Setup
from companion.core.eventlog import EventLog
from companion.core.referee import Referee
from companion.games import registry
from companion.hall import protocol
from companion.hall.table.starter import RunningHall, bridge_config, start_hall
from companion.phones.runner import Phones, free_port, start_phones
from companion.phones.serve import Served
from companion.status import StatusBoard
from companion.table.loop import Table
from tests.kits.phones_kit import WAIT_S, Phone, close_phones

PREFIX = "companion"
HALL_PASSWORD = "hall-secret-9"
PLAYERS = ["ana", "ben", "chai"]


class Central:
    """The hall's central Mosquitto on a free port of 127.0.0.1; tables log in as their table id."""

    def __init__(self, tables: dict[str, str], prefix: str = PREFIX, port: int | None = None) -> None:
        self.tables, self.prefix = tables, prefix
        self.port = port or free_port()
        self.dir = Path(tempfile.mkdtemp(prefix="hall-central-"))
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.log: list[str] = []
        self._proc: subprocess.Popen[str] | None = None
        self._write()

    def _write(self) -> None:
        users = {protocol.HALL_USER: HALL_PASSWORD, **self.tables}
        (self.dir / "passwd").write_text("".join(f"{u}:{p}\n" for u, p in users.items()))
        subprocess.run(["mosquitto_passwd", "-U", str(self.dir / "passwd")], check=True, capture_output=True)
        acl = [f"user {protocol.HALL_USER}", "topic readwrite #", ""]
        acl += [f"pattern {access} {pattern}" for access, pattern in protocol.central_acl_patterns(self.prefix)]
        (self.dir / "acl").write_text("\n".join(acl) + "\n")
        (self.dir / "mosquitto.conf").write_text("\n".join([
            "per_listener_settings false", "allow_anonymous false", f"password_file {self.dir / 'passwd'}",
            f"acl_file {self.dir / 'acl'}", "persistence false", "log_dest stderr", "log_type all",
            "log_timestamp false", f"listener {self.port} 127.0.0.1", ""]))
        if os.geteuid() == 0:  # run as root, Mosquitto drops to its own user, which must read the files
            with contextlib.suppress(KeyError):
                entry = pwd.getpwnam("mosquitto")
                for path in (self.dir, *self.dir.iterdir()):
                    os.chown(path, entry.pw_uid, entry.pw_gid)

    def start(self) -> None:
        self.lines = queue.Queue()
        self._proc = subprocess.Popen(["mosquitto", "-c", str(self.dir / "mosquitto.conf")], stdin=subprocess.DEVNULL,
                                      stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        threading.Thread(target=self._pump, args=(self._proc, self.lines), daemon=True).start()
        self.wait_line(" running")

    @staticmethod
    def _pump(proc: subprocess.Popen[str], lines: queue.Queue[str | None]) -> None:
        assert proc.stderr is not None
        for line in proc.stderr:
            lines.put(line)
        lines.put(None)

    def wait_line(self, text: str) -> str:
        """The next line of the broker's log that says `text` (the lines before it are kept in `log`)."""
        deadline = time.monotonic() + WAIT_S  # overall, however many other lines come
        while True:
            line = self.lines.get(timeout=max(0.0, deadline - time.monotonic()))
            if line is None:
                raise AssertionError(f"the central broker exited; it said: {''.join(self.log[-5:])}")
            self.log.append(line)
            if text in line:
                return line

    def stop(self) -> None:
        proc, self._proc = self._proc, None
        if proc is not None:
            close_phones(self.port)
            proc.terminate()
            proc.wait(WAIT_S)

    def kill(self) -> None:
        """SIGKILL, as a power cut of the hall's machine: no will, no goodbye (the phones on it stay open)."""
        proc, self._proc = self._proc, None
        if proc is not None:
            proc.kill()
            proc.wait(WAIT_S)

    def close(self) -> None:
        self.stop()
        shutil.rmtree(self.dir, ignore_errors=True)

    def hall_client(self) -> Phone:
        """The hall's own login, subscribed to everything on the central broker."""
        p = Phone("127.0.0.1", self.port, protocol.HALL_USER, HALL_PASSWORD, client_id="the-hall")
        assert not p.connect().is_failure
        p.subscribe("#")
        return p


@contextlib.contextmanager
def central(tables: dict[str, str]) -> Iterator[Central]:
    broker = Central(tables)
    broker.start()
    try:
        yield broker
    finally:
        broker.close()


def table_config(table_id: str, password: str, central_port: int, **hall: Any) -> Config:
    return Config.model_validate({"table": {"id": table_id}, "mqtt": {"broker": "mosquitto", "prefix": PREFIX},
                                  "hall": {"url": f"mqtt://127.0.0.1:{central_port}", "password": password,
                                           "keepalive": 5, **hall}})


@dataclass
class HallTable:
    table: Table
    phones: Phones
    hall: RunningHall
    thread: threading.Thread
    cfg: Config

    @property
    def referee(self) -> Referee:
        return self.table.referee

    @property
    def base(self) -> str:
        return protocol.base(PREFIX, self.cfg.table.id)


@contextlib.contextmanager
def hall_table(log_path: Path, cfg: Config, players: list[str] = PLAYERS) -> Iterator[HallTable]:
    """A toolkit table on the SQLite file `log_path` (its latest game, or a new one), bridged to the hall."""
    log = EventLog(log_path)
    referee = Referee.resume(registry(), log)
    if referee is None:
        setup = Setup("toolkit", tuple(Player(p, p.title()) for p in players), {}, seed=7)
        referee = Referee.start(registry(), log, setup, created_at=0)
    table = Table(referee)
    status = StatusBoard()
    phones = start_phones(table, broker="mosquitto", prefix=PREFIX, table_id=cfg.table.id, status=status,
                          state_dir=log_path.parent, broker_extra=bridge_config(cfg))
    hall = start_hall(table, cfg, Served(phones, None, None))
    assert hall is not None
    thread = threading.Thread(target=table.run, name="table", daemon=True)
    thread.start()
    try:
        assert phones.mirror.connected.wait(WAIT_S), "the mirror did not connect"
        yield HallTable(table, phones, hall, thread, cfg)
    finally:
        table.stop()
        thread.join(WAIT_S)
        close_phones(phones.address.port)
        phones.stop()
        log.close()


def host(t: HallTable, move: str, cid: str, **args: Any) -> Any:
    """A host input, as the kiosk's host menu sends it, answered by the table's loop."""
    answers: queue.Queue[Any] = queue.Queue()
    t.table.put({"by": "host", "move": move, "args": args, "id": cid}, answers.put)
    return answers.get(timeout=WAIT_S)


def player(t: HallTable, pid: str, move: str, cid: str, **args: Any) -> Any:
    answers: queue.Queue[Any] = queue.Queue()
    t.table.put({"by": f"player:{pid}", "move": move, "args": args, "id": cid}, answers.put)
    return answers.get(timeout=WAIT_S)


@contextlib.contextmanager
def bridged(log_path: Path, table_id: str, password: str, **hall_keys: Any) -> Iterator[tuple[Central, HallTable]]:
    """A central broker and one table bridged to it."""
    with central({table_id: password}) as hall, \
            hall_table(log_path, table_config(table_id, password, hall.port, **hall_keys)) as t:
        yield hall, t
