"""Soak: an evening of 12 hours of Lockdown on an accelerated (fake) clock; memory and descriptors flat?

    python bench/bench_soak.py [--hours 12] [--break-minutes 10] [--dir DIR]

One process plays the scripted 9-player Lockdown game (docs/games/lockdown/lockdown-9p.jsonl) again
and again, back to back, on one SQLite log on disk, each game with its phones (the managed Mosquitto as
a child process, the mirror, and one player's phone subscribed), until the table's clock has covered
`--hours`. The clock is injected: it jumps to each input's scripted time (4 s apart) and by
`--break-minutes` between games, so 12 hours of play take a minute or two. After each game: RSS
(/proc/self/statm), open file descriptors (/proc/self/fd), threads, and the log's size.

Prints start, end and the least-squares slope per game-hour of each, and the event-log bytes per game
(the events' JSON and the file's growth after a WAL checkpoint). Asserts nothing. The kiosk is not in
this loop (bench/bench_kiosk.py covers its memory).
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import queue
import sqlite3
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
from benchlib import disk_dir

from companion.core.eventlog import EventLog, setup_from_json
from companion.core.referee import Referee
from companion.games import registry
from companion.phones.runner import start_phones
from companion.table.loop import Table

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "docs" / "games" / "lockdown" / "lockdown-9p.jsonl"
HOUR_MS = 3_600_000


class FakeClock:
    def __init__(self) -> None:
        self.ms = 1_795_000_000_000

    def now_ms(self) -> int:
        return self.ms


def rss_mib() -> float:
    with open("/proc/self/statm") as fh:
        return int(fh.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def fds() -> int:
    return len(os.listdir("/proc/self/fd"))


def slope(xs: list[float], ys: list[float]) -> float:
    n = len(xs)
    mx, my = sum(xs) / n, sum(ys) / n
    var = sum((x - mx) ** 2 for x in xs)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / var if var else 0.0


def phone(address: Any, user: str, password: str, topic: str) -> tuple[mqtt.Client, queue.Queue[bytes]]:
    got: queue.Queue[bytes] = queue.Queue()
    c = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=user)
    c.username_pw_set(user, password)
    c.on_connect = lambda c, u, f, rc, p=None: c.subscribe(topic, 1)
    c.on_message = lambda c, u, m: got.put(bytes(m.payload))
    c.connect(address.host, address.port)
    c.loop_start()
    return c, got


def play_one(db: Path, state_dir: Path, clock: FakeClock, setup: dict[str, Any], lines: list[dict[str, Any]]) -> int:
    """One game with phones; returns the inputs accepted."""
    referee = Referee.start(registry(), EventLog(db), setup_from_json(setup), created_at=clock.now_ms())
    table = Table(referee, clock=clock)
    phones = start_phones(table, broker="mosquitto", state_dir=state_dir)
    if not phones.mirror.connected.wait(30):
        raise SystemExit("the mirror did not connect")
    pid = referee.setup.players[0].id
    cred = phones.game.players[pid]
    client, got = phone(phones.address, cred.user, cred.password, phones.topics.view(cred.user))
    got.get(timeout=30)  # the retained view: the phone is in
    start, accepted = clock.ms, 0
    for line in lines:
        clock.ms = start + int(line["at"])
        raw = {k: v for k, v in line.items() if k != "at"}
        accepted += table.handle(raw).accepted
    client.disconnect()
    client.loop_stop()
    phones.stop()
    referee.log.close()
    return accepted


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--hours", type=float, default=12.0, help="table time to cover (12)")
    parser.add_argument("--break-minutes", type=float, default=10.0, help="table time between games (10)")
    parser.add_argument("--dir", default=None, help="where the SQLite log goes (a real disk)")
    args = parser.parse_args(argv)
    where = Path(tempfile.mkdtemp(dir=disk_dir(args.dir)))
    db = where / "soak.sqlite3"
    parsed = [json.loads(t) for t in SCRIPT.read_text(encoding="utf-8").splitlines() if t and not t.startswith("#")]
    setup, lines = parsed[0], parsed[1:]
    clock = FakeClock()
    t0_ms, wall0 = clock.ms, time.perf_counter()
    samples: list[tuple[float, float, int, int, int]] = []  # (table hours, RSS MiB, fds, threads, log bytes)
    inputs = games = 0
    while clock.ms - t0_ms < args.hours * HOUR_MS:
        inputs += play_one(db, where, clock, setup, lines)
        games += 1
        clock.ms += int(args.break_minutes * 60_000)
        gc.collect()
        with sqlite3.connect(db) as con:
            con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        samples.append(((clock.ms - t0_ms) / HOUR_MS, rss_mib(), fds(), threading.active_count(),
                        db.stat().st_size))
    wall = time.perf_counter() - wall0
    with sqlite3.connect(db) as con:
        json_bytes = con.execute("SELECT SUM(LENGTH(input)) FROM events").fetchone()[0]
        rows = con.execute("SELECT COUNT(*) FROM events").fetchone()[0]
    hours = [s[0] for s in samples]
    first, last = samples[0], samples[-1]

    def row(name: str, i: int, unit: str) -> str:
        ys = [float(s[i]) for s in samples]
        return (f"| {name} | {first[i]:.1f} {unit} | {last[i]:.1f} {unit} | {slope(hours, ys):+.3f} {unit}/h "
                f"| {min(ys):.1f} .. {max(ys):.1f} |")

    print(f"### Soak: {games} games of lockdown-9p back to back, {hours[-1]:.1f} h of table time in {wall:.0f} s\n")
    print(f"Each game with its phones (managed Mosquitto, mirror, one phone); {inputs} inputs accepted of "
          f"{games * len(lines)}. Sampled after each game (after the first game: start).\n")
    print("| measure | after game 1 | after the last | slope | range |")
    print("|---|---|---|---|---|")
    print(row("RSS", 1, "MiB"))
    print(row("open file descriptors", 2, ""))
    print(row("threads", 3, ""))
    print(f"\n- Event log per game: {json_bytes / games / 1024:.0f} KiB of event JSON ({rows / games:.0f} events, "
          f"{json_bytes / rows:.0f} B each); the file grows {(last[4] - first[4]) / max(1, games - 1) / 1024:.0f} "
          f"KiB per game after a WAL checkpoint ({last[4] / 2**20:.1f} MiB after {games} games).")
    return 0


if __name__ == "__main__":
    sys.exit(main())
