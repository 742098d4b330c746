"""The hall's pages for tests: served on loopback from a hand-written hall (`WrittenHall`): snapshots
written out by hand in the exact shape `HallModel.snapshot()` gives (docs/hall.md), a roster, and an
organiser's actions that seat players in the order given and count the calls. A real object, no mock:
the pages cannot tell it from the hall process, which is built and tested on its own (tests/hall).
"""

from __future__ import annotations

import contextlib
import copy
import csv
import io
import threading
from collections.abc import Iterator
from typing import Any

from playwright.sync_api import Browser, Page

from companion.hall.pages.server import HallPages

KEY = "organiser-key-0123456789abcdef"
NOW = 1_795_000_000_000  # the hall's clock in the snapshots (ms)


def person(pid: str, name: str) -> dict[str, str]:
    return {"id": pid, "name": name}


ROSTER = [person("ana-1a", "Ana"), person("ben-2b", "Ben"), person("cai-3c", "Cai"), person("dao-4d", "Dao"),
          person("eli-5e", "Eli"), person("fay-6f", "Fay"), person("p-7g", "สมชาย"), person("p-8h", "李明")]


def table(tid: str, name: str, game: str, players: list[dict[str, str]], **fields: Any) -> dict[str, Any]:
    """One table of the snapshot, every field the brief names; `fields` change some."""
    out: dict[str, Any] = {"id": tid, "name": name, "language": "en", "online": True, "status": "online",
                           "game": game, "number": 1, "phase": None, "round": None, "turn": None,
                           "players": players, "timers": [], "announcements": [], "ended": False, "ranking": None}
    out.update(fields)
    return out


def six_tables(now: int = NOW) -> dict[str, Any]:
    """A league night: six tables, one of them offline, a running timer, announcements from each game."""
    a, b, c, d, e, f, g, h = ROSTER
    tables = [
        table("t1", "Table 1", "lockdown", [a, b], phase="action", round=2, turn="ana-1a",
              timers=[{"name": "turn", "running": True, "deadline_ms": now + 95_000, "remaining_ms": 95_000,
                       "duration_ms": 120_000}],
              announcements=[{"at": 1, "msg": "lockdown.turn", "params": {"player": "ben-2b"}},
                             {"at": 2, "msg": "lockdown.turn", "params": {"player": "ana-1a"}}]),
        table("t2", "Table 2", "room25", [c, d], phase="programming", round=3,
              announcements=[{"at": 1, "msg": "room25.turn_started", "params": {"turn": 3, "last": 8}}]),
        table("t3", "Table 3", "betrayal", [e, f], phase="turn", turn="fay-6f",
              announcements=[{"at": 1, "msg": "betrayal.room_found", "params": {
                  "player": "eli-5e", "room": "kind.betrayal.room.attic", "floor": "kind.betrayal.floor.upper"}}]),
        table("t4", "Table 4", "jailbreak", [g, h], phase="action", number=2,
              announcements=[{"at": 1, "msg": "jailbreak.card_used", "params": {
                  "player": "p-7g", "card": "kind.jailbreak.card.vodka"}}]),
        table("t5", "Table 5", "lab_escape", [a, c], online=False, status="offline", phase="move",
              announcements=[{"at": 1, "msg": "lab_escape.turn_started", "params": {"player": "cai-3c", "turn": 4}}]),
        table("t6", "Table 6", "toolkit", [b, d, f], number=3, ended=True, ranking=[["dao-4d"], ["ben-2b", "fay-6f"]],
              announcements=[{"at": 1, "msg": "toolkit.timer_expired", "params": {"name": "sunrise"}}]),
    ]
    standings = [
        {"rank": 1, "id": "dao-4d", "name": "Dao", "games": 2, "wins": 2, "points": 7, "mu": 29.1, "sigma": 7.2,
         "ordinal": 7.5},
        {"rank": 2, "id": "ben-2b", "name": "Ben", "games": 2, "wins": 0, "points": 4, "mu": 24.0, "sigma": 7.5,
         "ordinal": 1.5},
        {"rank": 3, "id": "p-8h", "name": "李明", "games": 1, "wins": 0, "points": 1, "mu": 22.2, "sigma": 7.9,
         "ordinal": -1.5},
    ]
    return {"hall": {"name": "Cafe Meeple league night", "now_ms": now}, "tables": tables,
            "standings": standings, "seating": None}


class WrittenHall:
    """The hall as the pages see it: `snapshot()` and `wait_changed()` over snapshots a test writes."""

    def __init__(self, snapshot: dict[str, Any]) -> None:
        self._snapshot = snapshot
        self._version = 0
        self._changed = threading.Condition()

    def snapshot(self) -> dict[str, Any]:
        with self._changed:
            return copy.deepcopy(self._snapshot)

    def wait_changed(self, since: int, timeout: float) -> int:
        with self._changed:
            self._changed.wait_for(lambda: self._version != since, timeout=timeout)
            return self._version

    def write(self, snapshot: dict[str, Any]) -> None:
        """A new snapshot, as the hall makes one when a table's view, status or result arrives."""
        with self._changed:
            self._snapshot = snapshot
            self._version += 1
            self._changed.notify_all()

    def change(self, tid: str, **fields: Any) -> None:
        snap = self.snapshot()
        for entry in snap["tables"]:
            if entry["id"] == tid:
                entry.update(fields)
        self.write(snap)


class Roster:
    def __init__(self, players: list[dict[str, str]]) -> None:
        self._players = players

    def players(self) -> list[dict[str, str]]:
        return [dict(p) for p in self._players]


class Organising:
    """The organiser's actions: a seating fills the tables in order, `high` players each at most (the real
    order by rating is the league's, tested there), and goes into the hall's snapshot; the CSV is the
    snapshot's standings, written as the league's `to_csv` does (a header, then one row per player)."""

    def __init__(self, hall: WrittenHall, high: int = 4) -> None:
        self.hall = hall
        self.high = high
        self.calls: list[tuple[str, list[str], list[str]]] = []
        self.round_options: list[dict[str, Any]] = []

    def send_seating(self, game: str, present_ids: list[str], tables: list[str],
                     **round_options: Any) -> dict[str, Any]:
        self.calls.append((game, present_ids, tables))
        self.round_options.append(round_options)
        names = {p["id"]: p for p in ROSTER}
        groups = [present_ids[i:i + self.high] for i in range(0, len(present_ids), self.high)]
        snap = self.hall.snapshot()
        seating = {"round": len(self.calls), "game": game,
                   "tables": {tid: [names[pid] for pid in group] for tid, group in zip(tables, groups, strict=False)}}
        snap["seating"] = seating
        self.hall.write(snap)
        return seating

    def add_player(self, name: str, who: str | None = None) -> str:
        raise ValueError("the written hall's roster is fixed")  # the real one: tests/hall/test_hall_corrections.py

    def standings_csv(self) -> str:
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        columns = ("rank", "id", "name", "games", "wins", "points", "mu", "sigma", "ordinal")
        writer.writerow(columns)
        for row in self.hall.snapshot()["standings"]:
            writer.writerow([row[k] for k in columns])
        return out.getvalue()


@contextlib.contextmanager
def serving(hall: WrittenHall, **options: Any) -> Iterator[tuple[HallPages, Organising]]:
    """The hall's pages on a free loopback port, over `hall`."""
    actions = Organising(hall)
    options.setdefault("organiser_key", KEY)
    pages = HallPages(hall, Roster(ROSTER), actions, "127.0.0.1", 0, **options)
    pages.start()
    try:
        yield pages, actions
    finally:
        pages.stop()


TV = {"width": 1920, "height": 1080}
PHONE = {"width": 390, "height": 844}


@contextlib.contextmanager
def opened(browser: Browser, url: str, size: dict[str, int] = TV, locale: str = "en-US") -> Iterator[Page]:
    phone = size["width"] < 800
    context = browser.new_context(viewport=size, locale=locale, is_mobile=phone, has_touch=phone,  # type: ignore[arg-type]
                                  accept_downloads=True)
    try:
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda err: errors.append(str(err)))
        page.goto(url)
        yield page
        assert errors == []
    finally:
        context.close()
