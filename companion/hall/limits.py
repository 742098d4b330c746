"""What one table may send the hall, per table (docs/hall.md, "A table's owner"): token buckets.

A table's owner may send anything, as fast as the network carries it. Every message of a table takes a
token from its `messages` bucket, every result also one from its `results` bucket; a message that finds
its bucket empty is dropped before it is read (counted, and said once per `REPORT_S` in the hall's log),
and a result new to the league (one the hall must write to its file) one from its `new` bucket,
so one table cannot keep the hall's MQTT thread from the others. An honest table stays far below: a few
public views a second while it plays, and at a reconnection its retained topics again (status, about,
public and the results of its last 50 games, companion/hall/table/results.py), which the bursts hold.
A result dropped here is not lost: it stays retained on the table's broker, whose bridge brings it again
at its next reconnection.

Dropping unread still costs the hall reading each message off its one connection, where a flood queues
in front of every other table's messages. So a table that keeps flooding (`MUTE_AFTER` messages dropped
within `REPORT_S`) is `flooding` once: the hall then takes its login off the central broker for a while
(companion/hall/run.py), which disconnects it (Mosquitto 2.0 drops a client whose login is gone at a
reload, checked on 2.0.11); its bridge reconnects once the login is back.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

MESSAGES_PER_S, MESSAGES_BURST = 20.0, 200  # any topic
RESULTS_PER_S, RESULTS_BURST = 0.2, 60  # results: a game takes minutes; 50 kept ones come again at a reconnection
NEW_PER_S, NEW_BURST = 0.1, 10  # results new to the league (each a SQLite write): a few games at a reconnection
REPORT_S = 10.0
MUTE_AFTER = 300  # messages dropped within REPORT_S: the table floods (an honest table drops none)


@dataclass
class Bucket:
    rate: float
    burst: int
    tokens: float = -1.0
    at: float = 0.0

    def take(self, now: float) -> bool:
        if self.tokens < 0:
            self.tokens, self.at = float(self.burst), now
        self.tokens = min(float(self.burst), self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False


@dataclass
class _Table:
    messages: Bucket
    results: Bucket
    new: Bucket
    dropped: int = 0
    reported: float = field(default=float("-inf"))
    window: float = field(default=float("-inf"))  # when the current count of drops began
    in_window: int = 0
    flooding: bool = False  # said once, until `forgive`


class TableLimits:
    """`allow(table, is_result)`: whether to read this message; `report(table)` says what was dropped,
    at most once per `REPORT_S` per table (None when there is nothing to say yet)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic, *, messages: tuple[float, int] = (
            MESSAGES_PER_S, MESSAGES_BURST), results: tuple[float, int] = (RESULTS_PER_S, RESULTS_BURST),
                 new: tuple[float, int] = (NEW_PER_S, NEW_BURST)) -> None:
        self._clock, self._messages, self._results, self._new = clock, messages, results, new
        self._tables: dict[str, _Table] = {}
        self._lock = threading.Lock()

    def allow(self, table: str, is_result: bool) -> bool:
        now = self._clock()
        with self._lock:
            t = self._tables.get(table)
            if t is None:
                t = self._tables[table] = _Table(Bucket(*self._messages), Bucket(*self._results), Bucket(*self._new))
            if t.messages.take(now) and (not is_result or t.results.take(now)):
                return True
            t.dropped += 1
            if now - t.window >= REPORT_S:
                t.window, t.in_window = now, 0
            t.in_window += 1
            return False

    def allow_new(self, table: str) -> bool:
        """Whether to write a result new to the league now (else it is dropped, counted as above)."""
        now = self._clock()
        with self._lock:
            t = self._tables.get(table)
            if t is None or t.new.take(now):
                return True
            t.dropped += 1
            if now - t.window >= REPORT_S:
                t.window, t.in_window = now, 0
            t.in_window += 1
            return False

    def flooding(self, table: str) -> bool:
        """True once when `table` has had `MUTE_AFTER` messages dropped within `REPORT_S` (then not again
        until `forgive`)."""
        with self._lock:
            t = self._tables.get(table)
            if t is None or t.flooding or t.in_window < MUTE_AFTER:
                return False
            t.flooding = True
            return True

    def forgive(self, table: str) -> None:
        """The table is heard again with full buckets (its mute is over)."""
        with self._lock:
            self._tables.pop(table, None)

    def report(self, table: str) -> int | None:
        """How many of `table`'s messages were dropped since the last report, if it is time to say so."""
        now = self._clock()
        with self._lock:
            t = self._tables.get(table)
            if t is None or not t.dropped or now - t.reported < REPORT_S:
                return None
            dropped, t.dropped, t.reported = t.dropped, 0, now
            return dropped
