"""Referee-event-to-phone latency over MQTT, both brokers side by side, and the brokers' CPU per message.

Run from the repository root::

    python bench/bench_mqtt.py [--events 200] [--rate 20] [--subscribers 1,10,50] [--baseline /path/to/main]

A real table (toolkit game, 4 players, a real SQLite log) with the real mirror publishes to a broker;
subscriber processes (paho, one client per simulated phone, spectator credentials) receive the public
view. Each event is a host dice roll queued with `Table.put`, paced at `--rate` a second. The latency
of one delivery is from the moment the referee told its outputs (an `Output` placed before the mirror
stamps it with CLOCK_MONOTONIC) to the moment a subscriber process read that view (same clock, another
process). Each event makes the mirror publish 7 messages (the public view, 4 player views, the host
view, one announcement) and the broker deliver one public view per subscriber.

Both brokers run as processes of their own (the embedded amqtt broker in a child Python process, as
the companion would run it but alone, so its CPU can be read from /proc): CPU per 1,000 messages routed
(received from the referee + delivered to subscribers), with Mosquitto as the baseline. With
`--baseline DIR` (another checkout of the project, e.g. today's main) that checkout's embedded broker
runs too, in the same run, and a third table compares the two embedded brokers.

Prints markdown; asserts nothing about time.
"""

from __future__ import annotations

import argparse
import cProfile
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
from companion.phones.credentials import Credential, GameCredentials
from companion.phones.embedded import EmbeddedBroker
from companion.phones.mirror import BrokerAddress, Mirror
from companion.phones.mosquitto import ManagedMosquitto
from companion.phones.runner import free_port
from companion.phones.topics import Topics
from companion.table.loop import Table
from companion.table.views import Views

PLAYERS = ["ana", "ben", "chai", "dao"]
PER_EVENT_IN = 7  # messages the mirror publishes per dice roll
TICK = os.sysconf("SC_CLK_TCK")


def _creds_json(game: GameCredentials) -> dict[str, Any]:
    pair = [[c.user, c.password] for c in (game.host,)]
    return {"table": game.table, "game": game.game, "referee": game.referee_password,
            "players": {p: [c.user, c.password] for p, c in game.players.items()}, "host": pair[0],
            "spectators": [[c.user, c.password] for c in game.spectators]}


def _creds_from(d: dict[str, Any]) -> GameCredentials:
    return GameCredentials(d["table"], d["game"], {p: Credential(*c) for p, c in d["players"].items()},
                           Credential(*d["host"]), tuple(Credential(*c) for c in d["spectators"]), d["referee"])


# -- child processes ------------------------------------------------------------------------------------


def serve_embedded() -> None:
    """Child: an embedded broker for the game on stdin's first line, until stdin closes."""
    cfg = json.loads(sys.stdin.readline())
    game = _creds_from(cfg["game"])
    broker = EmbeddedBroker(cfg["prefix"], "127.0.0.1", cfg["port"], cfg["ws_port"], game.referee_password)
    profile = cProfile.Profile(time.thread_time) if cfg.get("profile") else None
    if profile is not None:  # the broker's own thread only (it starts with this hook)
        threading.setprofile(lambda *_: profile.enable())
    broker.start()
    threading.setprofile(None)  # type: ignore[arg-type]
    broker.set_game(game)
    print("ready", flush=True)
    sys.stdin.read()
    broker.stop()
    if profile is not None:
        profile.dump_stats(cfg["profile"])


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


def _child(mode: str, cfg: dict[str, Any], tree: str | None = None) -> subprocess.Popen[str]:
    """A child process of this script; with `tree`, importing the project from that checkout."""
    env = None if tree is None else {**os.environ, "PYTHONPATH": tree}
    proc = subprocess.Popen([sys.executable, __file__, mode], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            text=True, env=env)
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(json.dumps(cfg) + "\n")
    proc.stdin.flush()
    line = proc.stdout.readline().strip()
    if line != "ready":
        raise SystemExit(f"{mode} child did not start: {line!r}")
    return proc


def run_broker(kind: str, game: GameCredentials, table: Table, stamp: Stamp, counts: list[int], events: int,
               rate: float, baseline: str | None = None, profile: str | None = None) -> dict[int, dict[str, Any]]:
    prefix, port, ws_port = "bench", free_port(), free_port()
    if kind == "mosquitto":
        mosq = ManagedMosquitto(prefix, "127.0.0.1", port, ws_port, game.referee_password)
        mosq.start()
        mosq.set_game(game)
        assert mosq._proc is not None
        pid, stop = mosq._proc.pid, mosq.close
    else:
        child = _child("--serve-embedded", {"prefix": prefix, "port": port, "ws_port": ws_port,
                                            "game": _creds_json(game),
                                            "profile": f"{profile}.{kind}" if profile else None},
                       baseline if kind == "baseline" else None)
        pid = child.pid

        def stop() -> None:
            assert child.stdin is not None
            child.stdin.close()
            child.wait(30)

    topics = Topics(prefix, game.table)
    mirror = Mirror(table, topics, game, BrokerAddress("127.0.0.1", port, password=game.referee_password),
                    broker_name="embedded" if kind == "baseline" else kind)
    table.outputs[:] = [stamp, mirror]
    mirror.start()
    if not mirror.connected.wait(30):
        raise SystemExit(f"the mirror did not connect to {kind}")
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
    parser.add_argument("--baseline", default=None, help="another checkout whose embedded broker runs beside")
    parser.add_argument("--profile", default=None, metavar="PATH",
                        help="cProfile (CPU time) of each embedded broker's thread, to PATH.embedded / PATH.baseline")
    args = parser.parse_args(argv)
    counts = [int(x) for x in args.subscribers.split(",")]
    results: dict[str, dict[int, dict[str, Any]]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for kind in ("mosquitto", "embedded", *(["baseline"] if args.baseline else [])):
            setup = Setup("toolkit", tuple(Player(p, p.title()) for p in PLAYERS), {}, seed=1)
            log = EventLog(Path(tmp) / f"{kind}.sqlite3", synchronous="NORMAL")
            referee = Referee.start(registry(), log, setup, created_at=0)
            game = GameCredentials.issue("bench", referee.game_id, PLAYERS, spectators=max(counts))
            table, stamp = Table(referee), Stamp()
            thread = threading.Thread(target=table.run, daemon=True)
            thread.start()
            try:
                results[kind] = run_broker(kind, game, table, stamp, counts, args.events, args.rate, args.baseline,
                                           args.profile)
            finally:
                table.stop()
                thread.join(10)
                log.close()
    m, e = results["mosquitto"], results["embedded"]
    if args.json:
        print(json.dumps({kind: {str(n): row for n, row in rows.items()} for kind, rows in results.items()}))
        return 0
    print(f"### MQTT: referee event to phone ({args.events} events at {args.rate:g}/s, QoS 1, public view "
          f"~{len(json.dumps(referee.view(PUBLIC)))} B)\n")
    print("| subscribers | Mosquitto p50 / p99 (ms) | embedded p50 / p99 (ms) | p50 ratio | lost (M / e) |")
    print("|---|---|---|---|---|")
    for n in counts:
        ratio = e[n]["p50"] / m[n]["p50"] if m[n]["p50"] else float("nan")
        print(f"| {n} | {fmt(m[n]['p50'] / 1000)} / {fmt(m[n]['p99'] / 1000)} | "
              f"{fmt(e[n]['p50'] / 1000)} / {fmt(e[n]['p99'] / 1000)} | {ratio:.1f}x | "
              f"{m[n]['lost']} / {e[n]['lost']} |")
    print("\n| subscribers | messages routed per run | Mosquitto CPU ms / 1,000 msgs | embedded CPU ms / 1,000 msgs | "
          "ratio |")
    print("|---|---|---|---|---|")
    for n in counts:
        mc, ec = m[n]["cpu_ms_per_1000"], e[n]["cpu_ms_per_1000"]
        print(f"| {n} | {m[n]['routed']} | {mc:.1f} | {ec:.1f} | {ec / mc if mc else float('nan'):.1f}x |")
    if "baseline" in results:
        b = results["baseline"]
        print(f"\n| subscribers | baseline embedded ({args.baseline}) CPU ms / 1,000 msgs | ratio to Mosquitto | "
              "this embedded | ratio to Mosquitto | this / baseline |")
        print("|---|---|---|---|---|---|")
        for n in counts:
            mc, ec, bc = m[n]["cpu_ms_per_1000"], e[n]["cpu_ms_per_1000"], b[n]["cpu_ms_per_1000"]
            print(f"| {n} | {bc:.1f} | {bc / mc if mc else float('nan'):.1f}x | {ec:.1f} | "
                  f"{ec / mc if mc else float('nan'):.1f}x | {ec / bc if bc else float('nan'):.2f} |")
    print(f"\nLoad average (1 min) at the end: {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    if sys.argv[1:2] == ["--serve-embedded"]:
        serve_embedded()
    elif sys.argv[1:2] == ["--subscribe"]:
        subscribe()
    else:
        sys.exit(main())
