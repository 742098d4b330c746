"""The hall screen's live updates: Server-Sent Events on `/events`, one event per new snapshot version.

Each event carries only the version (`event: version`, `data: 7`); the page then fetches `/hall.json`
(gzipped, and one fetch however many versions came meanwhile). At most `max_streams` streams at once
(each holds a thread); one more is answered 503, and the page falls back to fetching `/hall.json` every
few seconds. A stream sends a comment every `KEEPALIVE` seconds, so a phone that left is found out at
the next write (bounded by the write timeout), and no stream sends more often than every `MIN_GAP`
seconds (a hall of 100 tables changes many times a second; a TV needs no more).
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from companion.hall.pages.parts import Model

KEEPALIVE = 15.0  # seconds between comments on a quiet stream
MIN_GAP = 0.25  # seconds between two events of one stream
RETRY_MS = 3000  # how soon a browser reconnects a stream that broke


class Streams:
    """Counts the open streams; `enter` is False when `max_streams` are open already."""

    def __init__(self, max_streams: int) -> None:
        self.max_streams = max_streams
        self.stopping = threading.Event()
        self._lock = threading.Lock()
        self._open = 0

    def enter(self) -> bool:
        with self._lock:
            if self._open >= self.max_streams:
                return False
            self._open += 1
            return True

    def leave(self) -> None:
        with self._lock:
            self._open -= 1

    @property
    def open(self) -> int:
        with self._lock:
            return self._open


def stream(model: Model, write: Callable[[bytes], object], stopping: threading.Event) -> None:
    """Write the snapshot's versions as events until the server stops or a write fails (OSError)."""
    write(f"retry: {RETRY_MS}\n\n".encode())
    version = model.wait_changed(-1, 0)  # versions start at 0: the current one, at once
    write(f"event: version\ndata: {version}\n\n".encode())
    while not stopping.is_set():
        newer = model.wait_changed(version, KEEPALIVE)
        if newer == version:
            write(b": still here\n\n")
            continue
        version = newer
        write(f"event: version\ndata: {version}\n\n".encode())
        stopping.wait(MIN_GAP)
