"""Stand-ins for the hall's store and league maths, used by the hall-process tests ONLY while
companion/hall/store.py and companion/hall/league/ are not on this branch (they are built beside it):
`store_and_league()` gives the real ones as soon as they can be imported.

The stand-in store is a real SQLite file with the brief's `HallStore` API (a duplicate (table, key) is
refused by a UNIQUE constraint); the stand-in league seats by rating in groups of at most max_players
and keeps no ratings or standings (the league's own tests check those).
"""

from __future__ import annotations

import importlib
import json
import secrets
import sqlite3
import threading
from itertools import pairwise
from pathlib import Path
from typing import Any

from companion.hall.hooks import League, Store


class StandInStore:
    def __init__(self, path: Path) -> None:
        self._db = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
        self._lock = threading.Lock()
        self._db.executescript(
            "CREATE TABLE IF NOT EXISTS tables (id TEXT PRIMARY KEY, password TEXT NOT NULL);"
            "CREATE TABLE IF NOT EXISTS results (n INTEGER PRIMARY KEY, tbl TEXT, key TEXT, body TEXT,"
            " UNIQUE (tbl, key));"
            "CREATE TABLE IF NOT EXISTS players (id TEXT PRIMARY KEY, name TEXT);"
            "CREATE TABLE IF NOT EXISTS seatings (n INTEGER PRIMARY KEY, body TEXT);")

    def add_table(self, table_id: str) -> str:
        password = secrets.token_urlsafe(18)
        with self._lock:
            self._db.execute("INSERT INTO tables VALUES (?, ?)", (table_id, password))
        return password

    def table_passwords(self) -> dict[str, str]:
        with self._lock:
            return dict(self._db.execute("SELECT id, password FROM tables").fetchall())

    def add_result(self, result: dict[str, Any]) -> bool:
        with self._lock:
            cur = self._db.execute("INSERT OR IGNORE INTO results (tbl, key, body) VALUES (?, ?, ?)",
                                   (result["table"], result["key"], json.dumps(result)))
            return cur.rowcount == 1

    def results(self) -> list[dict[str, Any]]:
        with self._lock:
            return [json.loads(b) for (b,) in self._db.execute("SELECT body FROM results ORDER BY n")]

    def add_player(self, name: str) -> str:
        player_id = "p-" + secrets.token_hex(2)
        with self._lock:
            self._db.execute("INSERT INTO players VALUES (?, ?)", (player_id, name))
        return player_id

    def players(self) -> list[dict[str, str]]:
        with self._lock:
            return [{"id": i, "name": n} for i, n in self._db.execute("SELECT id, name FROM players ORDER BY id")]

    def save_seating(self, seating: dict[str, Any]) -> None:
        with self._lock:
            self._db.execute("INSERT INTO seatings (body) VALUES (?)", (json.dumps(seating),))

    def last_seating(self) -> dict[str, Any] | None:
        with self._lock:
            row = self._db.execute("SELECT body FROM seatings ORDER BY n DESC LIMIT 1").fetchone()
        return None if row is None else json.loads(row[0])


def _seat(players: list[tuple[str, float]], low: int, high: int, met: set[frozenset[str]]) -> list[list[str]]:
    ranked = [pid for pid, _ in sorted(players, key=lambda p: (-p[1], p[0]))]
    count = -(-len(ranked) // high)
    size, extra = divmod(len(ranked), count)
    cuts = [i * size + min(i, extra) for i in range(count + 1)]
    return [ranked[a:b] for a, b in pairwise(cuts)]


STANDIN_LEAGUE = League(seat=_seat, rate=lambda results, roster: {}, standings=lambda results, roster: [],
                        to_csv=lambda rows: "")


def store_and_league(path: Path) -> tuple[Store, League]:
    """The real store and league once they are importable, else the stand-ins above."""
    try:
        store: Store = importlib.import_module("companion.hall.store").HallStore(path)
    except ModuleNotFoundError:
        store = StandInStore(path)
    try:
        from companion.hall import hooks

        league = hooks.league()
    except ModuleNotFoundError:
        league = STANDIN_LEAGUE
    return store, league
