"""The hall's SQLite file (docs/hall-league.md): the tables and their broker passwords, every result as it
arrived, the league's roster and the seatings handed out.

One file, WAL with `synchronous=FULL` (as the event log: a result the hall said it has survives a power
cut), created 0600 (it holds the tables' passwords). Safe to share between the hall's threads.

- A result is kept once per (table, key): the bridge delivers a retained result again after every
  reconnect, and the second copy changes nothing (`add_result` says False). The first copy stays.
- A table's password: random letters and digits (`PASSWORD_LENGTH`), safe in a URL and a config file;
  adding a table again gives the password it already has.
- A league player's id: their name in lower-case ASCII letters and digits, a dash and a short code
  (`mai-4f`); a name with no such letters (Thai, Chinese) gives `p-` and the code (`p-7k`). The code is
  unique in the league on its own and uses no characters a person mixes up (no 0/o, 1/i/l, u/v).
"""

from __future__ import annotations

import contextlib
import json
import re
import secrets
import sqlite3
import string
import threading
import unicodedata
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from companion.core.identity import SEAT_ID, SEAT_ID_MAX
from companion.hall.protocol import HALL_USER, KEY, MAX_NAME, TABLE_ID
from companion.statedir import create_private_file

SCHEMA_VERSION = 1
PASSWORD_LENGTH = 32
PASSWORD_ALPHABET = string.ascii_letters + string.digits
CODE_ALPHABET = "23456789abcdefghjkmnpqrstwxyz"
CODE_LENGTH = 2  # the shortest; longer once half the codes of a length are taken
# a slug, a dash and a code stay within the id a table takes (companion/core/identity.py: 16 characters)

_SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY,
    password TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS results (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    table_id TEXT NOT NULL,
    key TEXT NOT NULL,
    json TEXT NOT NULL,
    UNIQUE (table_id, key)
);
CREATE TABLE IF NOT EXISTS players (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL UNIQUE,
    name TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS seatings (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    json TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS corrections (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    at_ms INTEGER NOT NULL,
    who TEXT NOT NULL,
    kind TEXT NOT NULL,
    json TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS settings (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
"""


class StoreError(Exception):
    """The hall's file could not be opened, read or written (the text says which and why)."""


class HallStore:
    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._lock = threading.Lock()
        if str(path) != ":memory:":
            with contextlib.suppress(OSError):  # if it cannot be created, SQLite says why
                create_private_file(self.path)
        try:
            self._db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            version = self._db.execute("PRAGMA user_version").fetchone()[0]
            if version > SCHEMA_VERSION:
                raise StoreError(f"{self.path} was written by a newer companion (schema {version})")
            self._db.executescript(_SCHEMA)
            self._db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
        except sqlite3.Error as err:
            raise StoreError(f"cannot open the hall's file {self.path}: {err}") from err

    def close(self) -> None:
        with self._lock:
            self._db.close()

    @contextlib.contextmanager
    def _write(self, what: str) -> Iterator[sqlite3.Connection]:
        """One transaction, taken before reading what it decides on."""
        with self._lock:
            try:
                self._db.execute("BEGIN IMMEDIATE")
                try:
                    yield self._db
                    self._db.execute("COMMIT")
                except BaseException:
                    with contextlib.suppress(sqlite3.Error):
                        self._db.execute("ROLLBACK")
                    raise
            except sqlite3.Error as err:
                raise StoreError(f"cannot {what} in {self.path}: {err}") from err

    def _read(self, sql: str, args: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        with self._lock:
            try:
                return self._db.execute(sql, args).fetchall()
            except sqlite3.Error as err:
                raise StoreError(f"cannot read {self.path}: {err}") from err

    # -- tables ---------------------------------------------------------------------------------------

    def add_table(self, table_id: str) -> str:
        """The table's password on the central broker (a new one, or the one it has)."""
        if not isinstance(table_id, str) or not TABLE_ID.match(table_id) or table_id == HALL_USER:
            raise ValueError(f"a table id is 1-32 lower-case letters, digits, '-' or '_', not {HALL_USER!r}")
        with self._write("add a table") as db:
            row = db.execute("SELECT password FROM tables WHERE id = ?", (table_id,)).fetchone()
            if row is not None:
                return str(row[0])
            password = "".join(secrets.choice(PASSWORD_ALPHABET) for _ in range(PASSWORD_LENGTH))
            db.execute("INSERT INTO tables (id, password) VALUES (?, ?)", (table_id, password))
            return password

    def table_passwords(self) -> dict[str, str]:
        return {str(tid): str(pw) for tid, pw in self._read("SELECT id, password FROM tables ORDER BY id")}

    # -- results --------------------------------------------------------------------------------------

    def add_result(self, result: Mapping[str, Any]) -> bool:
        """Keep a parsed result (`protocol.parse_result`); False if this table's key is already kept."""
        table, key = result.get("table"), result.get("key")
        if not isinstance(table, str) or not TABLE_ID.match(table) or not isinstance(key, str) or not KEY.match(key):
            raise ValueError("a result needs its table id and key (as protocol.parse_result gives them)")
        text = json.dumps(dict(result), sort_keys=True)  # ASCII: a lone surrogate in a name cannot raise
        with self._write("keep a result") as db:
            cur = db.execute("INSERT OR IGNORE INTO results (table_id, key, json) VALUES (?, ?, ?)",
                             (table, key, text))
            return cur.rowcount == 1

    def result_keys(self) -> set[tuple[str, str]]:
        """(table, key) of every result kept."""
        return {(str(t), str(k)) for t, k in self._read("SELECT table_id, key FROM results")}

    def results(self) -> list[dict[str, Any]]:
        """Every result kept, in the order they arrived."""
        return [json.loads(text) for (text,) in self._read("SELECT json FROM results ORDER BY seq")]

    # -- players --------------------------------------------------------------------------------------

    def add_player(self, name: str) -> str:
        """Put a player on the league's roster; their new id (two players may share a name, never an id)."""
        name = _checked_name(name)
        with self._write("add a player") as db:
            used = {pid.rsplit("-", 1)[-1] for (pid,) in db.execute("SELECT id FROM players")}
            code = _new_code(used)
            pid = f"{slug(name, SEAT_ID_MAX - 1 - len(code))}-{code}"
            assert SEAT_ID.fullmatch(pid), pid
            db.execute("INSERT INTO players (id, name) VALUES (?, ?)", (pid, name))
            return pid

    def players(self) -> list[dict[str, str]]:
        """The roster, in the order players were added."""
        return [{"id": pid, "name": name} for pid, name in self._read("SELECT id, name FROM players ORDER BY seq")]

    # -- seatings -------------------------------------------------------------------------------------

    def save_seating(self, seating: Mapping[str, Any]) -> None:
        text = json.dumps(dict(seating), sort_keys=True)
        with self._write("keep a seating") as db:
            db.execute("INSERT INTO seatings (json) VALUES (?)", (text,))

    def seatings(self) -> list[dict[str, Any]]:
        """Every seating handed out, in order."""
        return [json.loads(text) for (text,) in self._read("SELECT json FROM seatings ORDER BY seq")]

    # -- corrections (league/corrections.py): the audit trail ----------------------------------------

    def add_correction(self, kind: str, args: Mapping[str, Any], who: str, at_ms: int) -> int:
        """Log a correction; its `seq` in the log (what an undo names)."""
        text = json.dumps(dict(args), sort_keys=True)
        with self._write("keep a correction") as db:
            cursor = db.execute("INSERT INTO corrections (at_ms, who, kind, json) VALUES (?, ?, ?, ?)",
                                (at_ms, who[:200], kind, text))
            return int(cursor.lastrowid or 0)

    def corrections(self) -> list[dict[str, Any]]:
        """Every correction, in order: {"seq", "at_ms", "who", "kind", "args"}."""
        rows = self._read("SELECT seq, at_ms, who, kind, json FROM corrections ORDER BY seq")
        return [{"seq": seq, "at_ms": at, "who": who, "kind": kind, "args": json.loads(text)}
                for seq, at, who, kind, text in rows]

    def rename_player(self, player_id: str, name: str) -> None:
        name = _checked_name(name)
        with self._write("rename a player") as db:
            if db.execute("UPDATE players SET name = ? WHERE id = ?", (name, player_id)).rowcount != 1:
                raise ValueError("no such player")

    def restore_player(self, player_id: str, name: str) -> None:
        """Put a removed (or merged) player back on the roster with their own id: an undo."""
        name = _checked_name(name)
        if not SEAT_ID.fullmatch(player_id):
            raise ValueError("not a player id")
        with self._write("restore a player") as db:
            db.execute("INSERT INTO players (id, name) VALUES (?, ?)", (player_id, name))

    def remove_player(self, player_id: str) -> None:
        with self._write("remove a player") as db:
            if db.execute("DELETE FROM players WHERE id = ?", (player_id,)).rowcount != 1:
                raise ValueError("no such player")

    # -- the league's settings ------------------------------------------------------------------------

    def setting(self, key: str, default: str) -> str:
        rows = self._read("SELECT value FROM settings WHERE key = ?", (key,))
        return str(rows[0][0]) if rows else default

    def set_setting(self, key: str, value: str) -> None:
        with self._write("keep a setting") as db:
            db.execute("INSERT OR REPLACE INTO settings (key, value) VALUES (?, ?)", (key, value))

    def last_seating(self) -> dict[str, Any] | None:
        rows = self._read("SELECT json FROM seatings ORDER BY seq DESC LIMIT 1")
        return json.loads(rows[0][0]) if rows else None


def _checked_name(name: Any) -> str:
    if not isinstance(name, str):
        raise ValueError("a player's name must be text")
    name = name.strip()
    if not 0 < len(name) <= MAX_NAME or not name.isprintable():
        raise ValueError(f"a player's name must be 1-{MAX_NAME} printable characters")
    return name


def slug(name: str, most: int = 10) -> str:
    """A name's part of a player id: lower-case ASCII letters and digits joined by '-', at most `most`
    characters, whole words while they fit, then the next word's initial ("Somchai Jaidee" gives
    `somchai-j`, "Anna-Maria Fitzgerald" `anna-maria-f`), or 'p' for a name with no such letters."""
    ascii_name = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode("ascii").lower()
    words = [w for w in re.split(r"[^a-z0-9]+", ascii_name) if w]
    out = words[0][:most] if words else "p"
    for word in words[1:]:
        if len(out) + 1 + len(word) > most:
            if len(out) + 2 <= most:
                out += "-" + word[0]
            break
        out += "-" + word
    return out


def _new_code(used: set[str]) -> str:
    """A random code no player has; one letter longer once half the codes of a length are taken (so a
    code is found in a try or two, and reading one off a card stays short)."""
    length = CODE_LENGTH
    while sum(len(code) == length for code in used) >= len(CODE_ALPHABET) ** length // 2:
        length += 1
    while True:
        code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(length))
        if code not in used:
            return code
