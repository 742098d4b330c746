"""`/hall.json` as the pages are sent it: the snapshot encoded (and gzipped) once per version for all.

Every open page (the TV, the organiser's phone, each spectator's) fetches the whole snapshot at each
event of its stream, so under 100 tables every page fetches it about four times a second
(`stream.MIN_GAP`). Built, serialized and gzipped for each fetch, ten pages cost the hall process
about five times what one does (bench/bench_hall.py, docs/performance.md). Here one encoding serves
every fetch of one version for at most `MAX_AGE` seconds: the pages woken by one event share it.
Past `MAX_AGE` it is made again even at the same version, so a page's snapshot is never older than
that: its `now_ms` (the page's clock offset for the timers) and the timers' `remaining_ms` stay true
to within `MAX_AGE`.
"""

from __future__ import annotations

import gzip
import json
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from companion.hall.pages.parts import Model
from companion.phones.pageserver import GZIP_FROM

MAX_AGE = 0.25  # seconds one encoding is served at one version (the stream's MIN_GAP)


def to_json(obj: Any) -> bytes:
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":")).encode()


@dataclass(frozen=True)
class Encoded:
    version: int
    made: float  # `clock()` when it was made
    body: bytes
    gzipped: bytes | None  # None: too small to be worth it (GZIP_FROM)


class Snapshots:
    """The model's snapshot, encoded at most once per version and `max_age` seconds (`clock`'s)."""

    def __init__(self, model: Model, clock: Callable[[], float] = time.monotonic, max_age: float = MAX_AGE) -> None:
        self._model, self._clock, self.max_age = model, clock, max_age
        self._lock = threading.Lock()  # a page that comes while it is made waits for it, not a second one
        self._kept: Encoded | None = None
        self.made = 0  # encodings made (tests and the bench read it)

    def current(self) -> Encoded:
        with self._lock:
            now = self._clock()
            version = self._model.wait_changed(-1, 0)  # versions start at 0: the current one, at once
            kept = self._kept
            if kept is None or kept.version != version or now - kept.made >= self.max_age:
                # the version is read before the snapshot: what is kept is never older than its version
                body = to_json(self._model.snapshot())
                packed = gzip.compress(body, compresslevel=6, mtime=0) if len(body) >= GZIP_FROM else None
                kept = self._kept = Encoded(version, now, body, packed)
                self.made += 1
            return kept
