"""The league recomputed off the MQTT thread, at most once per `every_s` (docs/hall.md, "A table's owner").

A new result only asks (`request`: a flag and an event, nothing more on paho's thread); this worker's
thread then recomputes the standings from the league file, and again after `every_s` if more were asked
meanwhile. So 1,200 results in a tenth of a second cost a handful of recomputations, not 1,200, and the
MQTT thread keeps serving every table.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable

logger = logging.getLogger(__name__)
EVERY_S = 0.25


class Coalescer:
    def __init__(self, work: Callable[[], None], every_s: float = EVERY_S, name: str = "hall-league") -> None:
        self._work, self.every_s, self._name = work, every_s, name
        self._asked = threading.Event()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.runs = 0  # recomputations done (tests and the bench read it)

    def request(self) -> None:
        self._asked.set()

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name=self._name, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.is_set():
            self._asked.wait()
            if self._stop.is_set():
                return
            self._asked.clear()
            try:
                self._work()
            except Exception:  # the next request tries again; this thread must not end
                logger.exception("recomputing the league failed")
            self.runs += 1
            self._stop.wait(self.every_s)  # requests meanwhile are served together after it

    def stop(self) -> None:
        self._stop.set()
        self._asked.set()
        if self._thread is not None:
            self._thread.join(self.every_s + 5)
