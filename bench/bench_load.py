"""Load: a 9-player Lockdown game played while 9 players' and 200 spectators' phones watch, per broker.

    python bench/bench_load.py [--spectators 200] [--inputs 203] [--rate 10] [--brokers mosquitto]

The scripted 9-player game (docs/games/lockdown/lockdown-9p.jsonl) is fed to a real Table (real SQLite
log on disk, the real mirror) at `--rate` inputs a second from a thread, while the kiosk runs on the main
thread on SDL's dummy driver, as `companion run` runs it. One subscriber process (or
`--subscriber-procs` of them, the clients dealt round-robin) holds 9 player and `--spectators`
spectator MQTT clients (paho, one connection and one network thread each) on the public view,
loopback only. In one process, every client's reading waits for the others' under the GIL: a view
reaches the last of 209 clients only after all of them have read and parsed it, which is the
measuring process's time, not the companion's (real phones read in parallel).

- Kiosk frame time: the kiosk's own measure of each frame it drew during the game (dirty regions);
  with `--json` also the kiosk thread's own CPU for each loop turn that drew a frame (`thread_time`:
  the work of the frame without the waits for the GIL or the machine's other processes).
- Event to phone: from the moment the referee told its outputs about announcement n (an Output placed
  first, CLOCK_MONOTONIC) to the moment each client first read a public view with announcement n
  (same clock, the subscriber process). Every client, every announcement. With `--json` also the first
  client's (per announcement, the earliest reader): the referee, the mirror and the broker's first
  delivery, without the broker's fan-out to the other clients and the subscriber process's reading.
- Referee CPU: this process's CPU (the table's loop, the mirror, the kiosk, the feeding thread) per
  minute of play (with `--json` also per thread: `table`, `MainThread` = the kiosk, `paho`, ...,
  from /proc/self/task); the broker's own CPU (the managed Mosquitto's process) beside it.

Bench code reuses bench_mqtt's subscriber process. Prints markdown; asserts nothing.
"""

from __future__ import annotations

import argparse
import json
import os
import queue
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import bench_mqtt
import pygame
from benchlib import disk_dir, fmt, percentile

from companion.core.eventlog import EventLog, setup_from_json
from companion.core.referee import PUBLIC, Outcome, Referee
from companion.games import registry
from companion.kiosk import kiosk as kiosk_mod
from companion.kiosk.engine import build, open_display
from companion.kiosk.kiosk import Settings
from companion.phones.credentials import GameCredentials
from companion.phones.mirror import BrokerAddress, Mirror
from companion.phones.mosquitto import ManagedMosquitto
from companion.phones.runner import free_port
from companion.phones.topics import Topics
from companion.status import StatusBoard
from companion.table.loop import Table
from companion.table.views import Views

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "docs" / "games" / "lockdown" / "lockdown-9p.jsonl"
THREADS = ("table", "MainThread", "paho", "other")  # MainThread: the kiosk's loop


def script() -> tuple[dict[str, Any], list[dict[str, Any]]]:
    lines = [json.loads(t) for t in SCRIPT.read_text(encoding="utf-8").splitlines() if t and not t.startswith("#")]
    return lines[0], [{k: v for k, v in m.items() if k != "at"} for m in lines[1:]]


class FirstStamp:
    """An Output placed first: when the referee told its outputs about each announcement number."""

    def __init__(self) -> None:
        self.at: dict[int, int] = {}

    def changed(self, views: Views, outcomes: list[Outcome]) -> None:
        self.at.setdefault(views.public["announced"], time.monotonic_ns())


def thread_cpu_s() -> dict[str, float]:
    """CPU seconds (user + system) of each thread of this process by its Python name, from /proc
    (the feeding thread, the broker's log reader and threads Python did not start, SDL's audio thread
    for one, are summed as "other")."""
    names = {str(t.native_id): t.name for t in threading.enumerate()}
    tick = os.sysconf("SC_CLK_TCK")
    out = dict.fromkeys(THREADS, 0.0)
    for tid in os.listdir("/proc/self/task"):
        try:
            fields = Path(f"/proc/self/task/{tid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:  # the thread ended meanwhile
            continue
        name = names.get(tid, "other")
        name = "paho" if name.startswith("paho-mqtt") else name if name in THREADS else "other"
        out[name] += (int(fields[11]) + int(fields[12])) / tick
    return out


def final_announced(setup: dict[str, Any], inputs: list[dict[str, Any]]) -> int:
    """The public view's last announcement number after `inputs` (a dry run on a table in memory)."""
    table = Table(Referee.start(registry(), EventLog(":memory:"), setup_from_json(setup), created_at=0))
    for raw in inputs:
        assert table.handle(raw).accepted, raw
    return int(table.referee.view(PUBLIC)["announced"])


def start_broker(kind: str, game: GameCredentials, port: int, ws_port: int) -> tuple[int, Any]:
    if kind == "mosquitto":
        mosq = ManagedMosquitto("bench", "127.0.0.1", port, ws_port, game.referee_password)
        mosq.start()
        mosq.set_game(game)
        assert mosq._proc is not None
        return mosq._proc.pid, mosq.close
    raise SystemExit(f"no broker {kind!r}: the managed Mosquitto is the one broker (issue 32)")


def run(kind: str, spectators: int, n_inputs: int, rate: float, where: Path,
        mirror_first: bool = False, sub_procs: int = 1) -> dict[str, Any]:
    setup, inputs = script()
    inputs = inputs[:n_inputs]
    last = final_announced(setup, inputs)
    log = EventLog(Path(tempfile.mkdtemp(dir=where)) / "load.sqlite3")
    referee = Referee.start(registry(), log, setup_from_json(setup), created_at=0)
    players = [p.id for p in referee.setup.players]
    game = GameCredentials.issue("bench", referee.game_id, players, spectators=spectators)
    table, stamp = Table(referee), FirstStamp()
    kiosk = build(pygame.display.get_surface(), table, registry(), Settings(attract=False), StatusBoard())
    port, ws_port = free_port(), free_port()
    broker_pid, stop_broker = start_broker(kind, game, port, ws_port)
    topics = Topics("bench", game.table)
    mirror = Mirror(table, topics, game, BrokerAddress("127.0.0.1", port, password=game.referee_password),
                    broker_name=kind)
    table.outputs.insert(0, stamp)
    if mirror_first:  # an experiment (--mirror-first): the phones' views before the kiosk's wake-up
        table.outputs.insert(1, mirror)
    else:  # as companion/wiring.py orders them: the kiosk's feed, then the mirror
        table.outputs.append(mirror)
    mirror.start()
    if not mirror.connected.wait(30):
        raise SystemExit(f"the mirror did not connect to {kind}")
    loop = threading.Thread(target=table.run, name="table", daemon=True)
    loop.start()
    creds = [[c.user, c.password] for c in [*game.players.values(), *game.spectators]]
    subs = [bench_mqtt._child("--subscribe", {"host": "127.0.0.1", "port": port, "topic": topics.public,
                                              "last": last, "timeout": 60, "creds": creds[k::sub_procs]})
            for k in range(sub_procs)]
    done = threading.Event()
    answers: queue.Queue[Outcome] = queue.Queue()

    def feed() -> None:
        start = time.monotonic()
        for k, raw in enumerate(inputs):
            time.sleep(max(0.0, start + k / rate - time.monotonic()))  # pacing the load, not waiting
            table.put(raw, lambda o: (answers.put(o), kiosk.waker.wake()))
        done.set()

    kiosk.process()  # its first frame (fonts opened, catalogs read) is the start-up's, not the load's
    frames: list[float] = []
    cpu0, wall0, bcpu0 = time.process_time(), time.perf_counter(), bench_mqtt.cpu_s(broker_pid)
    threads0 = thread_cpu_s()
    threading.Thread(target=feed, name="feed", daemon=True).start()
    budget = [kiosk_mod.FRAME_BUDGET_S] if hasattr(kiosk_mod, "FRAME_BUDGET_S") else []  # a baseline: none
    frame_cpu: list[float] = []  # the kiosk thread's own CPU for the turns that drew a frame (no GIL waits)
    while not (done.is_set() and answers.qsize() == len(inputs)):
        before, cpu_before = kiosk.frames, time.thread_time()
        kiosk.step(*budget)  # as Kiosk.run turns
        if kiosk.frames > before:
            frames.append(kiosk.last_frame_ms)
            frame_cpu.append((time.thread_time() - cpu_before) * 1000)
    wall, cpu = time.perf_counter() - wall0, time.process_time() - cpu0
    threads_cpu = {name: s - threads0.get(name, 0.0) for name, s in thread_cpu_s().items()}
    got = []
    for sub in subs:
        assert sub.stdout is not None
        got += json.loads(sub.stdout.readline())
        sub.wait(60)
    bcpu = bench_mqtt.cpu_s(broker_pid) - bcpu0
    refused = [o for o in list(answers.queue) if not o.accepted]
    lat: list[float] = []
    earliest: dict[int, int] = {}  # announcement -> the first moment any client read it
    lost = 0
    for seen in got:
        first: dict[int, int] = {}
        for n, t in seen:
            first.setdefault(n, t)
        lat += [(t - stamp.at[n]) / 1e6 for n, t in first.items() if n in stamp.at]
        lost += sum(1 for n in stamp.at if n not in first)
        for n, t in first.items():
            earliest[n] = min(t, earliest.get(n, t))
    first_lat = sorted((t - stamp.at[n]) / 1e6 for n, t in earliest.items() if n in stamp.at)
    mirror.disconnect()
    table.stop()
    loop.join(30)
    stop_broker()
    log.close()
    lat.sort()
    frames.sort()
    frame_cpu.sort()
    return {"clients": len(creds), "inputs": len(inputs), "refused": len(refused), "wall": wall,
            "frame_p50": percentile(frames, 0.5), "frame_p99": percentile(frames, 0.99), "frames": len(frames),
            "frame_cpu_p50": percentile(frame_cpu, 0.5), "frame_cpu_p99": percentile(frame_cpu, 0.99),
            "lat_p50": percentile(lat, 0.5), "lat_p99": percentile(lat, 0.99), "deliveries": len(lat), "lost": lost,
            "first_p50": percentile(first_lat, 0.5), "first_p99": percentile(first_lat, 0.99),
            "threads_cpu_per_min": {name: s / wall * 60 for name, s in threads_cpu.items()},
            "cpu_per_min": cpu / wall * 60, "broker_cpu_per_min": bcpu / wall * 60}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--spectators", type=int, default=200, help="spectator clients (200)")
    parser.add_argument("--inputs", type=int, default=203, help="inputs of the 9-player script to play (all: 203)")
    parser.add_argument("--rate", type=float, default=10.0, help="inputs a second (10)")
    parser.add_argument("--brokers", default="mosquitto")
    parser.add_argument("--dir", default=None, help="where the SQLite log goes (a real disk)")
    parser.add_argument("--json", action="store_true", help="print the figures as one JSON object instead")
    parser.add_argument("--mirror-first", action="store_true",
                        help="tell the mirror before the kiosk's feed (an experiment; companion run: feed first)")
    parser.add_argument("--subscriber-procs", type=int, default=1,
                        help="processes the phones' clients are spread over (1: every client in one process)")
    args = parser.parse_args(argv)
    where = disk_dir(args.dir)
    open_display("800x480", False, "dummy")
    rows = {kind: run(kind, args.spectators, args.inputs, args.rate, where, args.mirror_first, args.subscriber_procs)
            for kind in args.brokers.split(",")}
    if args.json:
        print(json.dumps(rows))
        return 0
    print(f"### Load: 9 players + {args.spectators} spectators on each broker, lockdown-9p at {args.rate:g} inputs/s\n")
    print("| broker | clients | inputs (refused) | kiosk frame p50 / p99 ms | event to phone p50 / p99 ms "
          "| deliveries (lost) | companion CPU s/min | broker CPU s/min |")
    print("|---|---|---|---|---|---|---|---|")
    for kind, r in rows.items():
        print(f"| {kind} | {r['clients']} | {r['inputs']} ({r['refused']}) | {fmt(r['frame_p50'])} / "
              f"{fmt(r['frame_p99'])} | {fmt(r['lat_p50'])} / {fmt(r['lat_p99'])} | {r['deliveries']} "
              f"({r['lost']}) | {r['cpu_per_min']:.1f} | {r['broker_cpu_per_min']:.1f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
