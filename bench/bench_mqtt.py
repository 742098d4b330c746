"""Referee-event-to-phone latency over MQTT through the managed Mosquitto, and the broker's CPU per message.

Run from the repository root::

    python bench/bench_mqtt.py [--events 200] [--rate 20] [--subscribers 1,10,50]

A real table (toolkit game, 4 players, a real SQLite log) with the real mirror publishes to a broker;
subscriber processes (paho, one client per simulated phone, spectator credentials) receive the public
view. Each event is a host dice roll queued with `Table.put`, paced at `--rate` a second. The latency
of one delivery is from the moment the referee told its outputs (an `Output` placed before the mirror
stamps it with CLOCK_MONOTONIC) to the moment a subscriber process read that view (same clock, another
process). Each event makes the mirror publish 7 messages (the public view, 4 player views, the host
view, one announcement) and the broker deliver one public view per subscriber.

The broker's CPU is read from /proc: CPU per 1,000 messages routed (received from the referee +
delivered to subscribers). (Until issue 32 an embedded broker ran beside it; Mosquitto is the one broker.)

Prints markdown; asserts nothing about time.
"""

from __future__ import annotations

import argparse
import json
import os
import queue
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
from benchlib import fmt, summary

from companion.core.contract import Player, Setup
from companion.core.eventlog import EventLog
from companion.core.referee import PUBLIC, Outcome, Referee
from companion.games import registry
from companion.phones.credentials import GameCredentials
from companion.phones.mirror import BrokerAddress, Mirror
from companion.phones.mosquitto import ManagedMosquitto
from companion.phones.runner import free_port
from companion.phones.topics import Topics
from companion.table.loop import Table
from companion.table.views import Views

PLAYERS = ["ana", "ben", "chai", "dao"]
PER_EVENT_IN = 7  # messages the mirror publishes per dice roll
TICK = os.sysconf("SC_CLK_TCK")


# -- child processes ------------------------------------------------------------------------------------


def subscribe() -> None:
    """Child: N clients on the public topic; prints 'ready', then one JSON list of (n, t_ns) per client."""
    cfg = json.loads(sys.stdin.readline())
    last, got, clients = cfg["last"], [], []
    ready, done = threading.Semaphore(0), threading.Semaphore(0)
    for user, password in cfg["creds"]:
        seen: list[tuple[int, int]] = []
        got.append(seen)
        c = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=user)
        c.username_pw_set(user, password)

        def on_message(c: mqtt.Client, u: Any, m: mqtt.MQTTMessage, seen: list[tuple[int, int]] = seen) -> None:
            now = time.monotonic_ns()
            n = json.loads(m.payload)["announced"]
            if m.retain and not seen:
                ready.release()
            seen.append((n, now))
            if n == last:
                done.release()

        c.on_message = on_message
        c.on_connect = lambda c, u, f, rc, p=None: c.subscribe(cfg["topic"], 1)
        c.connect(cfg["host"], cfg["port"])
        c.loop_start()
        clients.append(c)
    for _ in clients:
        if not ready.acquire(timeout=30):
            raise SystemExit("subscribers did not get the retained view")
    print("ready", flush=True)
    for _ in clients:
        done.acquire(timeout=cfg["timeout"])
    for c in clients:
        c.disconnect()
        c.loop_stop()
    print(json.dumps(got), flush=True)


# -- the referee side -----------------------------------------------------------------------------------


class Stamp:
    """An Output placed before the mirror: when the referee told its outputs, by announcement number."""

    def __init__(self) -> None:
        self.at: dict[int, int] = {}
        self.seen = queue.Queue[int]()

    def changed(self, views: Views, outcomes: list[Outcome]) -> None:
        n = views.public["announced"]
        self.at[n] = time.monotonic_ns()
        self.seen.put(n)


def cpu_s(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK


def _child(mode: str, cfg: dict[str, Any]) -> subprocess.Popen[str]:
    """A child process of this script."""
    proc = subprocess.Popen([sys.executable, __file__, mode], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            text=True)
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(json.dumps(cfg) + "\n")
    proc.stdin.flush()
    line = proc.stdout.readline().strip()
    if line != "ready":
        raise SystemExit(f"{mode} child did not start: {line!r}")
    return proc


def run_broker(game: GameCredentials, table: Table, stamp: Stamp, counts: list[int], events: int,
               rate: float) -> dict[int, dict[str, Any]]:
    prefix, port, ws_port = "bench", free_port(), free_port()
    mosq = ManagedMosquitto(prefix, "127.0.0.1", port, ws_port, game.referee_password)
    mosq.start()
    mosq.set_game(game)
    assert mosq._proc is not None
    pid, stop = mosq._proc.pid, mosq.close
    topics = Topics(prefix, game.table)
    mirror = Mirror(table, topics, game, BrokerAddress("127.0.0.1", port, password=game.referee_password),
                    broker_name="mosquitto")
    table.outputs[:] = [stamp, mirror]
    mirror.start()
    if not mirror.connected.wait(30):
        raise SystemExit("the mirror did not connect to Mosquitto")
    out: dict[int, dict[str, Any]] = {}
    try:
        for n_subs in counts:
            first = table.referee.view(PUBLIC)["announced"] + 1
            last = first + events - 1
            subs = _child("--subscribe", {"host": "127.0.0.1", "port": port, "topic": topics.public, "last": last,
                                          "timeout": 60, "creds": [[c.user, c.password]
                                                                   for c in game.spectators[:n_subs]]})
            cpu0 = cpu_s(pid)
            gap = 1.0 / rate
            start = time.monotonic()
            for k in range(events):
                target = start + k * gap
                time.sleep(max(0.0, target - time.monotonic()))  # pacing the load, not waiting for a result
                table.put({"by": "host", "move": "dice.roll"})
            assert subs.stdout is not None
            got = json.loads(subs.stdout.readline())
            subs.wait(30)
            cpu = cpu_s(pid) - cpu0
            lat = [t - stamp.at[n] for seen in got for n, t in seen if first <= n <= last and n in stamp.at]
            delivered = len(lat)
            routed = events * PER_EVENT_IN + delivered
            out[n_subs] = {**summary(lat), "lost": events * n_subs - delivered,
                           "cpu_ms_per_1000": 1000 * cpu * 1000 / routed, "routed": routed}
    finally:
        mirror.disconnect()
        stop()
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--events", type=int, default=200, help="dice rolls per row (200)")
    parser.add_argument("--rate", type=float, default=20.0, help="events a second (20)")
    parser.add_argument("--subscribers", default="1,10,50", help="subscriber counts (1,10,50)")
    parser.add_argument("--json", action="store_true", help="print the figures as one JSON object instead")
    args = parser.parse_args(argv)
    counts = [int(x) for x in args.subscribers.split(",")]
    results: dict[str, dict[int, dict[str, Any]]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for kind in ("mosquitto",):
            setup = Setup("toolkit", tuple(Player(p, p.title()) for p in PLAYERS), {}, seed=1)
            log = EventLog(Path(tmp) / f"{kind}.sqlite3", synchronous="NORMAL")
            referee = Referee.start(registry(), log, setup, created_at=0)
            game = GameCredentials.issue("bench", referee.game_id, PLAYERS, spectators=max(counts))
            table, stamp = Table(referee), Stamp()
            thread = threading.Thread(target=table.run, daemon=True)
            thread.start()
            try:
                results[kind] = run_broker(game, table, stamp, counts, args.events, args.rate)
            finally:
                table.stop()
                thread.join(10)
                log.close()
    m = results["mosquitto"]
    if args.json:
        print(json.dumps({kind: {str(n): row for n, row in rows.items()} for kind, rows in results.items()}))
        return 0
    print(f"### MQTT: referee event to phone ({args.events} events at {args.rate:g}/s, QoS 1, public view "
          f"~{len(json.dumps(referee.view(PUBLIC)))} B)\n")
    print("| subscribers | Mosquitto p50 / p99 (ms) | lost | messages routed per run | Mosquitto CPU ms / 1,000 msgs |")
    print("|---|---|---|---|---|")
    for n in counts:
        print(f"| {n} | {fmt(m[n]['p50'] / 1000)} / {fmt(m[n]['p99'] / 1000)} | {m[n]['lost']} | "
              f"{m[n]['routed']} | {m[n]['cpu_ms_per_1000']:.1f} |")
    print(f"\nLoad average (1 min) at the end: {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    if sys.argv[1:2] == ["--subscribe"]:
        subscribe()
    else:
        sys.exit(main())
