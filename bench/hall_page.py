"""A hall page's client for bench/bench_hall.py, and the latencies read from what it saw.

`watch` (a child process) does what the hall screen's page does (companion/hall/pages/web/js/
hall-data.js): an EventSource on `/events`, and on each `version` a fetch of `/hall.json` (gzip, one
fetch at a time; a version that came meanwhile is fetched right after). For every snapshot it keeps
when it was read (CLOCK_MONOTONIC, as the tables' publish log), when the hall took it (its `now_ms`)
and each table's card fingerprint (`hall_tables.card_fp`).

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


def _events(host: str, port: int, wake: threading.Condition, state: dict[str, int]) -> None:
    conn = http.client.HTTPConnection(host, port, timeout=60)
    conn.request("GET", "/events", headers={"Accept": "text/event-stream"})
    response = conn.getresponse()
    if response.status != 200:
        raise SystemExit(f"/events answered {response.status}")
    for raw in response:
        if raw.startswith(b"event: version"):
            with wake:
                state["pending"] += 1
                state["events"] += 1
                wake.notify()


def watch() -> None:
    """Child: follow the hall page on stdin's first line until stdin closes; print what it saw as JSON."""
    cfg = json.loads(sys.stdin.readline())
    host, port = cfg["host"], cfg["port"]
    wake = threading.Condition()
    state = {"pending": 0, "events": 0}
    threading.Thread(target=_events, args=(host, port, wake, state), daemon=True).start()
    seen: list[list[Any]] = []  # [read at (monotonic ns), taken at (hall's ms), bytes, {table: fp}]
    stopping = threading.Event()
    threading.Thread(target=lambda: (sys.stdin.read(), stopping.set(), _poke(wake)), daemon=True).start()
    conn = http.client.HTTPConnection(host, port, timeout=30)
    print("ready", flush=True)
    while not stopping.is_set():
        with wake:
            wake.wait_for(lambda: state["pending"] > 0 or stopping.is_set())
            state["pending"] = 0
        if stopping.is_set():
            break
        conn.request("GET", "/hall.json", headers={"Accept-Encoding": "gzip", "Cache-Control": "no-cache"})
        response = conn.getresponse()
        body = response.read()
        snapshot = json.loads(gzip.decompress(body) if response.getheader("Content-Encoding") == "gzip" else body)
        read_at = time.monotonic_ns()
        seen.append([read_at, snapshot["hall"]["now_ms"], len(body),
                     {t["id"]: card_fp(t) for t in snapshot["tables"] if t["game"] is not None}])
    print(json.dumps({"seen": seen, "events": state["events"]}), flush=True)


def _poke(wake: threading.Condition) -> None:
    with wake:
        wake.notify_all()


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
            index = order.get(table, {}).get(fp)
            if index is None:
                continue
            best = max(index, reached[table][-1][2]) if reached[table] else index
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
