"""A seating is sent again until its table shows it started (docs/hall.md, "Seating the next round").

The seat list goes out retained at QoS 1, so a table that reconnects gets it; but a copy lost on the way
between the table's broker and its referee (seen once in several runs of the six-table test, under
load) would leave the table waiting for a list it never read. So, as with results, delivery is at least
once and applying is once: every `every_s` seconds the hall publishes again each seating whose table's
public view does not yet show that game with exactly those players, and a table applies a seating id
once (companion/hall/table/seating.py), answering a copy with nothing. A table still playing its game
keeps the list pending; the copies stop once its new game shows on the hall.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

logger = logging.getLogger(__name__)
EVERY_S = 5.0


@dataclass(frozen=True)
class Sent:
    topic: str
    payload: bytes
    game: str
    players: frozenset[str]
    seating: str = ""  # its key: a table that answers it refused is not sent it again


class Resender:
    """`track` each table's seating as it is sent; `check` drops those the snapshot shows as started
    and publishes the others again (its thread does so every `every_s` seconds from `start`)."""

    def __init__(self, snapshot: Callable[[], dict[str, Any]], publish: Callable[[str, bytes], Any],
                 every_s: float = EVERY_S) -> None:
        self._snapshot, self._publish, self.every_s = snapshot, publish, every_s
        self._sent: dict[str, Sent] = {}
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def track(self, table: str, sent: Sent) -> None:
        """The newest seating of `table` (a newer one replaces the one before)."""
        with self._lock:
            self._sent[table] = sent

    def forget(self, table: str, seating: str) -> None:
        """`table`'s seating `seating` was cancelled: not sent again."""
        with self._lock:
            if table in self._sent and self._sent[table].seating == seating:
                del self._sent[table]

    @property
    def waiting(self) -> list[str]:
        with self._lock:
            return sorted(self._sent)

    def check(self) -> None:
        tables = {t["id"]: t for t in self._snapshot()["tables"]}
        with self._lock:
            for table, sent in list(self._sent.items()):
                shown = tables.get(table)
                if shown is not None and shown["game"] == sent.game and not shown["ended"] and \
                        frozenset(p["id"] for p in shown["players"]) == sent.players:
                    del self._sent[table]  # it started: its game has those players
                elif shown is not None and (shown.get("seated") or {}).get("seating") == sent.seating and \
                        shown["seated"]["state"] == "refused":
                    del self._sent[table]  # refused: the organiser's page says why; a copy changes nothing
            again = list(self._sent.values())
        for sent in again:
            self._publish(sent.topic, sent.payload)

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name="hall-seating-resend", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.wait(self.every_s):
            try:
                self.check()
            except Exception:  # the next round tries again; this thread must not end
                logger.exception("sending the seatings again failed")

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(self.every_s + 1)
