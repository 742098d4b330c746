"""The durable event log: SQLite in WAL mode, one row per accepted input, written before anyone is told.

Beside the games, `settings` keeps a few values of the table's own that must outlive a restart on the
same file (the hall's id of this log and the hall seatings already applied: companion/hall/table/).

`synchronous` defaults to FULL: with WAL, NORMAL survives a killed process but may lose the last
commits on a power cut, and a table's game must survive pulling the plug. The cost was measured
(bench/bench_eventlog.py, docs/performance.md).
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.core.contract import Player, Setup
from companion.core.corrections import Event
from companion.core.inputs import Input
from companion.statedir import create_private_file

SCHEMA_VERSION = 1
SYNCHRONOUS_LEVELS = ("OFF", "NORMAL", "FULL", "EXTRA")

_SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    setup TEXT NOT NULL,
    created_at INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS events (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    input TEXT NOT NULL,
    cmd_key TEXT,
    PRIMARY KEY (game_id, seq),
    UNIQUE (game_id, cmd_key)
);
CREATE TABLE IF NOT EXISTS settings (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
"""


class LogError(Exception):
    """The log could not be read or written (disk full, read-only, corrupt)."""


@dataclass(frozen=True)
class StoredGame:
    id: int
    setup: Setup
    created_at: int


def setup_from_json(obj: dict[str, Any]) -> Setup:
    players = tuple(
        Player(id=p, name=p) if isinstance(p, str) else Player(id=p["id"], name=p.get("name", p["id"]))
        for p in obj["players"]
    )
    return Setup(game=obj["game"], players=players, options=dict(obj.get("options", {})), seed=int(obj["seed"]),
                 moderator=obj.get("moderator") is True)


class EventLog:
    """An append-only log of games and their events in one SQLite file."""

    def __init__(self, path: str | Path, synchronous: str = "FULL", read_only: bool = False) -> None:
        """Open (or create) the log; `read_only` opens an existing one without writing a byte to it,
        beside a companion that is running on it (`companion show`, `export`)."""
        if synchronous not in SYNCHRONOUS_LEVELS:
            raise ValueError(f"synchronous must be one of {SYNCHRONOUS_LEVELS}, not {synchronous!r}")
        self.path = Path(path)
        if read_only:
            self._db = self._open_read_only()
            return
        if str(path) != ":memory:":  # it holds secrets: 0600 whatever the umask (SQLite gives its -wal and
            with contextlib.suppress(OSError):  # -shm the same mode); if it cannot be created, SQLite says why
                create_private_file(self.path)
        try:
            self._db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute(f"PRAGMA synchronous={synchronous}")
            version = self._db.execute("PRAGMA user_version").fetchone()[0]
            if version > SCHEMA_VERSION:
                raise LogError(f"{self.path} was written by a newer companion (schema {version})")
            self._db.executescript(_SCHEMA)
            self._db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
        except sqlite3.Error as err:
            raise LogError(f"cannot open the event log {self.path}: {err}") from err

    def _open_read_only(self) -> sqlite3.Connection:
        try:
            db = sqlite3.connect(f"{self.path.absolute().as_uri()}?mode=ro", uri=True, isolation_level=None,
                                 check_same_thread=False)
            version = db.execute("PRAGMA user_version").fetchone()[0]
        except sqlite3.Error as err:
            raise LogError(f"cannot read the event log {self.path}: {err}") from err
        if version == 0:
            db.close()
            raise LogError(f"{self.path} is not a game log (or holds no game yet)")
        if version > SCHEMA_VERSION:
            db.close()
            raise LogError(f"{self.path} was written by a newer companion (schema {version})")
        return db

    def close(self) -> None:
        self._db.close()

    def create_game(self, setup: Setup, created_at: int) -> int:
        try:
            cur = self._db.execute(
                "INSERT INTO games (setup, created_at) VALUES (?, ?)",
                (json.dumps(setup.to_json(), ensure_ascii=False), created_at),
            )
        except sqlite3.Error as err:
            raise LogError(f"cannot start a game in {self.path}: {err}") from err
        assert cur.lastrowid is not None
        return cur.lastrowid

    def latest_game(self) -> StoredGame | None:
        row = self._db.execute("SELECT id, setup, created_at FROM games ORDER BY id DESC LIMIT 1").fetchone()
        return None if row is None else StoredGame(row[0], setup_from_json(json.loads(row[1])), row[2])

    def game(self, game_id: int) -> StoredGame | None:
        row = self._db.execute("SELECT id, setup, created_at FROM games WHERE id = ?", (game_id,)).fetchone()
        return None if row is None else StoredGame(row[0], setup_from_json(json.loads(row[1])), row[2])

    def game_ids(self, limit: int) -> list[int]:
        """The numbers of the last `limit` games, oldest first."""
        rows = self._db.execute("SELECT id FROM games ORDER BY id DESC LIMIT ?", (limit,)).fetchall()
        return [row[0] for row in reversed(rows)]

    def setting(self, key: str) -> str | None:
        """A value the table keeps with its log (not a game's: the hall's log id, the seatings applied)."""
        row = self._db.execute("SELECT value FROM settings WHERE key = ?", (key,)).fetchone()
        return None if row is None else str(row[0])

    def set_setting(self, key: str, value: str) -> None:
        try:
            self._db.execute("INSERT INTO settings (key, value) VALUES (?, ?) "
                             "ON CONFLICT (key) DO UPDATE SET value = excluded.value", (key, value))
        except sqlite3.Error as err:
            raise LogError(f"cannot write a setting to {self.path}: {err}") from err

    def append(self, game_id: int, seq: int, inp: Input) -> None:
        """Durably append one event; returns only once it is committed at the chosen level."""
        try:
            self._db.execute(
                "INSERT INTO events (game_id, seq, input, cmd_key) VALUES (?, ?, ?, ?)",
                (game_id, seq, json.dumps(inp.to_json(), ensure_ascii=False, sort_keys=True), inp.command_key),
            )
        except sqlite3.Error as err:
            raise LogError(f"cannot append to the event log {self.path}: {err}") from err

    def events(self, game_id: int) -> list[Event]:
        rows = self._db.execute(
            "SELECT seq, input FROM events WHERE game_id = ? ORDER BY seq", (game_id,)
        ).fetchall()
        return [Event(seq, Input.from_json(json.loads(text))) for seq, text in rows]

    def integrity_ok(self) -> bool:
        return bool(self._db.execute("PRAGMA integrity_check").fetchone()[0] == "ok")
