"""A hall page's client for bench/bench_hall.py, and the latencies read from what it saw.

`watch` (a child process) runs `pages` clients, each doing what the hall screen's page does
(companion/hall/pages/web/js/hall-data.js): an EventSource on `/events`, and on each `version` a
fetch of `/hall.json` (gzip, one fetch at a time; a version that came meanwhile is fetched right
after). For every snapshot the first page keeps when it was read (CLOCK_MONOTONIC, as the tables'
publish log), when the hall took it (its `now_ms`) and each table's card fingerprint
(`hall_tables.card_fp`); the others only read the body, as a TV's and spectators' pages load the hall.

`latencies` matches them: a measurable publish (a card the page had not seen) is shown from the first
snapshot that shows it or a later card of that table (a newer input may overtake it in one fetch).
"""

from __future__ import annotations

import gzip
import http.client
import json
import sys
import threading
import time
from collections import defaultdict
from typing import Any

from hall_tables import card_fp


class Follower:
    """One page: its stream and its fetches; with `record`, what each snapshot showed (else only counted)."""

    def __init__(self, host: str, port: int, record: bool, stopping: threading.Event) -> None:
        self.host, self.port, self.record, self.stopping = host, port, record, stopping
        self.wake = threading.Condition()
        self.pending = self.events = self.fetches = 0
        self.refused = self.reconnects = self.failed = 0  # streams refused; fetches asked again, failed
        self.seen: list[list[Any]] = []  # [read at (monotonic ns), taken at (hall's ms), bytes, {table: fp}]

    def start(self) -> None:
        threading.Thread(target=self._stream, daemon=True).start()
        threading.Thread(target=self._fetch, daemon=True).start()

    def poke(self) -> None:
        with self.wake:
            self.wake.notify_all()

    def _stream(self) -> None:
        conn = http.client.HTTPConnection(self.host, self.port, timeout=60)
        conn.request("GET", "/events", headers={"Accept": "text/event-stream"})
        response = conn.getresponse()
        if response.status != 200:  # the streams are full: the page would poll every few seconds instead
            self.refused += 1
            return
        for raw in response:
            if raw.startswith(b"event: version"):
                with self.wake:
                    self.pending += 1
                    self.events += 1
                    self.wake.notify()

    def _get(self, conn: http.client.HTTPConnection) -> tuple[http.client.HTTPResponse, bytes]:
        conn.request("GET", "/hall.json", headers={"Accept-Encoding": "gzip", "Cache-Control": "no-cache"})
        response = conn.getresponse()
        return response, response.read()

    def _fetch(self) -> None:
        conn = http.client.HTTPConnection(self.host, self.port, timeout=30)
        while True:
            with self.wake:
                self.wake.wait_for(lambda: self.pending > 0 or self.stopping.is_set())
                self.pending = 0
            if self.stopping.is_set():
                return
            try:
                response, body = self._get(conn)
            except (http.client.HTTPException, OSError):  # the server closed an idle keep-alive: a browser
                conn.close()                              # asks again on a new connection, so does this
                self.reconnects += 1
                try:
                    response, body = self._get(conn)
                except (http.client.HTTPException, OSError):
                    conn.close()
                    self.failed += 1
                    continue
            if response.status != 200:
                self.failed += 1
                continue
            self.fetches += 1
            if not self.record:
                continue
            gzipped = response.getheader("Content-Encoding") == "gzip"
            snapshot = json.loads(gzip.decompress(body) if gzipped else body)
            self.seen.append([time.monotonic_ns(), snapshot["hall"]["now_ms"], len(body),
                              {t["id"]: card_fp(t) for t in snapshot["tables"] if t["game"] is not None}])


def watch() -> None:
    """Child: `pages` hall pages on stdin's first line until stdin closes; print what the first saw as JSON
    (the others, a TV and spectators' phones, only load the hall as the pages do)."""
    cfg = json.loads(sys.stdin.readline())
    stopping = threading.Event()
    pages = [Follower(cfg["host"], cfg["port"], k == 0, stopping) for k in range(cfg["pages"])]
    for page in pages:
        page.start()
    print("ready", flush=True)
    sys.stdin.read()
    stopping.set()
    for page in pages:
        page.poke()
    time.sleep(0.5)  # a fetch under way ends
    counts = {k: sum(getattr(p, k) for p in pages) for k in ("fetches", "refused", "reconnects", "failed")}
    print(json.dumps({"seen": pages[0].seen, "events": pages[0].events, **counts}), flush=True)


def latencies(published: list[list[Any]], seen: list[list[Any]]) -> tuple[list[int], list[int], int]:
    """(publish to the page having it, in ns; publish to the hall's snapshot having it, in ms; publishes
    never seen). `published`: [table, fp, measurable, monotonic ns, wall ms] in publish order."""
    order: dict[str, dict[str, int]] = defaultdict(dict)  # table -> fp -> its index among the table's cards
    mine: list[tuple[str, int, int, int]] = []
    for table, fp, measurable, t_mono, t_wall in published:
        if measurable:
            index = order[table].setdefault(fp, len(order[table]))
            mine.append((table, index, t_mono, t_wall))
    # each table's cards as the page saw them: (read at, taken at, the newest index so far)
    reached: dict[str, list[tuple[int, int, int]]] = defaultdict(list)
    for read_at, taken_ms, _size, cards in seen:
        for table, fp in cards.items():
            found = order.get(table, {}).get(fp)
            if found is None:
                continue
            best = max(found, reached[table][-1][2]) if reached[table] else found
            reached[table].append((read_at, taken_ms, best))
    page, hall, missed = [], [], 0
    cursor: dict[str, int] = defaultdict(int)
    for table, index, t_mono, t_wall in mine:  # in publish order, so each table's cursor only moves on
        rows, k = reached[table], cursor[table]
        while k < len(rows) and (rows[k][2] < index or rows[k][0] < t_mono):
            k += 1
        cursor[table] = k
        if k == len(rows):
            missed += 1
            continue
        page.append(rows[k][0] - t_mono)
        hall.append(rows[k][1] - t_wall)
    return page, hall, missed
