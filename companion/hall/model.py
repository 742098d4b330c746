"""What the hall knows of every table, for its pages (`HallModel.snapshot`, docs/hall.md).

Built only from the public topics a table's bridge brings (companion/hall/public.py checks each), so the
snapshot is public by construction. Thread-safe: the watcher's thread writes, the pages' threads read,
and a page waits for the next change with `wait_changed` (its Server-Sent Events). A payload that is
not what its topic carries raises `BadPayload` before anything is changed.

Online: the table's bridge says "1" and its referee "online" or "headless". Offline: the bridge's will
("0", Mosquitto publishes it on the central broker when the table's link drops) or the referee's own
"offline". Anything else not yet heard: "unknown". A running timer is counted down on the hall's clock
to its `deadline_ms` (tables and hall keep NTP time).
"""

from __future__ import annotations

import dataclasses
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from companion.hall import public
from companion.hall.protocol import BadPayload

CASUAL_SHOWN = 20


def wall_ms() -> int:
    return int(time.time() * 1000)


@dataclass
class _Table:
    id: str
    name: str | None = None
    language: str | None = None
    bridge: bool | None = None
    status: str | None = None
    view: dict[str, Any] | None = None
    last_n: int = 0
    offline_since: int | None = None  # the hall's clock when it last went offline (None: it is not)
    seated: dict[str, Any] | None = None  # its answer to the last seating (protocol.parse_seated)
    announcements: deque[dict[str, Any]] = field(default_factory=lambda: deque(maxlen=public.ANNOUNCEMENTS_KEPT))

    def shown_status(self) -> str:
        if self.bridge is False or self.status == "offline":
            return "offline"
        return self.status or "unknown"

    def online(self) -> bool:
        return self.bridge is True and self.status in ("online", "headless")


SEATING_SHOWN = ("seating", "round", "game", "tables", "byes", "minutes", "opened_ms", "cancelled")  # public


class HallModel:
    def __init__(self, name: str, clock: Callable[[], int] = wall_ms) -> None:
        self.name = name
        self._clock = clock
        self._tables: dict[str, _Table] = {}
        self._standings: list[dict[str, Any]] = []
        self._seating: dict[str, Any] | None = None
        self._casual: list[dict[str, Any]] = []
        self._checked_in = 0  # how many players checked themselves in (checkin.py): the organiser's page follows it
        self._version = 0
        self._changed = threading.Condition()

    # -- changes (the watcher's thread) -------------------------------------------------------------------

    def _table(self, table_id: str) -> _Table:
        return self._tables.setdefault(table_id, _Table(table_id))

    def _bump(self) -> None:
        self._version += 1
        self._changed.notify_all()

    def set_checked_in(self, count: int) -> None:
        with self._changed:
            if count != self._checked_in:
                self._checked_in = count
                self._bump()

    def know_tables(self, table_ids: Iterable[str]) -> None:
        """The tables the organiser added: shown (as unknown) before their first message."""
        with self._changed:
            for t in table_ids:
                self._table(t)
            self._bump()

    def _since(self, t: _Table) -> None:
        if t.shown_status() != "offline":
            t.offline_since = None
        elif t.offline_since is None:
            t.offline_since = self._clock()

    def on_status(self, table_id: str, payload: bytes) -> None:
        value = public.status(payload)
        with self._changed:
            t = self._table(table_id)
            t.status = value
            self._since(t)
            self._bump()

    def on_bridge(self, table_id: str, payload: bytes) -> None:
        value = public.bridge(payload)
        with self._changed:
            t = self._table(table_id)
            t.bridge = value
            self._since(t)
            self._bump()

    def on_about(self, table_id: str, about: dict[str, str]) -> None:
        with self._changed:
            t = self._table(table_id)
            t.name, t.language = about["name"], about["language"]
            self._bump()

    def on_public(self, table_id: str, payload: bytes) -> None:
        view = public.view(payload)
        with self._changed:
            t = self._table(table_id)
            t.view = view
            t.announcements.clear()
            t.announcements.extend(view["announcements"])
            t.last_n = view["announced"]
            self._bump()

    def on_event(self, table_id: str, payload: bytes) -> None:
        n, item = public.event(payload)
        with self._changed:
            t = self._table(table_id)
            if n <= t.last_n:
                return  # already in the public view
            t.announcements.append(item)
            t.last_n = n
            self._bump()

    def on_seated(self, table_id: str, answer: dict[str, Any]) -> None:
        with self._changed:
            self._table(table_id).seated = dict(answer)
            self._bump()

    def set_standings(self, rows: Iterable[Any]) -> None:
        with self._changed:
            self._standings = [row_dict(row) for row in rows]
            self._bump()

    def set_casual(self, results: Iterable[Mapping[str, Any]]) -> None:
        """The casual games (league/rounds.py: kept, never scored), the newest `CASUAL_SHOWN` shown."""
        shown = [{"table": r["table"], "number": r["number"], "game": r["game"],
                  "players": [dict(p) for p in r["players"]], "ranking": r["ranking"]} for r in results]
        with self._changed:
            self._casual = shown[-CASUAL_SHOWN:]
            self._bump()

    def set_seating(self, seating: dict[str, Any] | None) -> None:
        if seating is not None and not {"round", "game", "tables"} <= seating.keys():
            raise BadPayload("seating: round, game and tables are needed")
        with self._changed:
            self._seating = None if seating is None else {
                k: seating[k] for k in SEATING_SHOWN if k in seating}
            self._bump()

    # -- reading (any thread) -----------------------------------------------------------------------------

    @property
    def version(self) -> int:
        with self._changed:
            return self._version

    def wait_changed(self, since: int, timeout: float) -> int:
        """The version after `since` (at once if it has already moved), or `since` after `timeout` s."""
        with self._changed:
            self._changed.wait_for(lambda: self._version != since, timeout)
            return self._version

    def snapshot(self) -> dict[str, Any]:
        now = self._clock()
        with self._changed:
            tables = [_shown(t, now) for t in sorted(self._tables.values(), key=lambda t: (t.name or t.id, t.id))]
            return {"hall": {"name": self.name, "now_ms": now, "checked_in": self._checked_in}, "tables": tables,
                    "standings": [dict(r) for r in self._standings], "casual": [dict(c) for c in self._casual],
                    "seating": None if self._seating is None else dict(self._seating)}


def _shown(t: _Table, now: int) -> dict[str, Any]:
    v = t.view or {}
    timers = []
    for timer in [] if v.get("ended") else v.get("timers", []):  # an ended game's clocks stopped with it
        left = max(0, timer["deadline_ms"] - now) if timer["running"] else timer["remaining_ms"]
        timers.append({**timer, "remaining_ms": left})
    return {"id": t.id, "name": t.name or t.id, "language": t.language, "online": t.online(),
            "status": t.shown_status(), "offline_since_ms": t.offline_since,
            "game": v.get("game"), "number": v.get("number"), "phase": v.get("phase"),
            "round": v.get("round"), "turn": v.get("turn"),
            "players": [dict(p) for p in v.get("players", [])], "timers": timers,
            "announcements": list(t.announcements), "ended": bool(v.get("ended")), "ranking": v.get("ranking"),
            "seated": None if t.seated is None else dict(t.seated)}


def row_dict(row: Any) -> dict[str, Any]:
    """A standings row (a dataclass, a named tuple or a mapping) as a plain dict."""
    if dataclasses.is_dataclass(row) and not isinstance(row, type):
        return dataclasses.asdict(row)
    if hasattr(row, "_asdict"):
        return dict(row._asdict())
    return dict(row)
