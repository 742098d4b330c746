"""The 100 simulated tables of bench/bench_hall.py: what a table's bridge brings to the hall, at game pace.

Each simulated table is one paho client logged in to the central broker as its table id with its
password (as a table's bridge logs in), publishing what a bridge carries (companion/hall/protocol.py):
`about`, `status` "online", `bridge` "1" (its will "0", as Mosquitto's notification), then at game pace
the public view after each input of a real game (a docs/games/*.jsonl script replayed with the
referee, each table starting somewhere in its script), the announcements on `events` as the mirror
sends them, and at a game's end its result (`companion.hall.table.results.result_of`) before the next
game begins under the next number.

`card_fp` is what a hall page can tell of a table: the fields of its card that a public view sets,
hashed. A publish whose card differs from every earlier one of that table is one the page can be
seen to show (`measurable`), so the latency of every such publish is measured.
"""

from __future__ import annotations

import hashlib
import heapq
import json
import random
import sys
import tempfile
import threading
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt

from companion.core.clock import advance
from companion.core.eventlog import EventLog, setup_from_json
from companion.core.inputs import CLOCK
from companion.core.referee import PUBLIC, Referee
from companion.games import registry
from companion.hall import protocol, public
from companion.hall.table.results import result_key, result_of
from companion.scripting import ClockStep, parse
from companion.table.views import Views

ROOT = Path(__file__).resolve().parent.parent
SCRIPTS = [ROOT / "docs" / "games" / p for p in (
    "lockdown/lockdown-5p.jsonl", "room25/suspicion-5.jsonl", "jailbreak/jailbreak-5p-escape.jsonl",
    "betrayal/haunt-4.jsonl", "lab_escape/lab-escape-3p.jsonl", "lockdown/lockdown-9p.jsonl",
    "room25/cooperation-3.jsonl", "jailbreak/jailbreak-8p-escape.jsonl")]
FP_KEYS = ("game", "number", "phase", "round", "turn", "players", "announcements", "ended", "ranking")


def card_fp(card: Mapping[str, Any]) -> str:
    """A table's card as the hall shows it (a snapshot's table, or `public.view` of a payload), hashed."""
    text = json.dumps([card.get(k) for k in FP_KEYS], sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.blake2b(text.encode(), digest_size=8).hexdigest()


def views_of(path: Path) -> list[dict[str, Any]]:
    """The public view (as the mirror sends it) at the start of a scripted game and after each input."""
    setup_obj, steps = parse(path.read_text(encoding="utf-8").splitlines())
    with tempfile.TemporaryDirectory(prefix="bench-hall-") as tmp:
        log = EventLog(Path(tmp) / "script.sqlite3", synchronous="OFF")
        referee = Referee.start(registry(), log, setup_from_json({"seed": 0, **setup_obj}), created_at=0)
        out = [json.loads(Views.of(referee).json(PUBLIC))]
        for _, step in steps:
            if isinstance(step, ClockStep):
                advance(referee, step.at)
                continue
            if step.by != CLOCK:
                advance(referee, step.at)
            if referee.submit(step).accepted:
                out.append(json.loads(Views.of(referee).json(PUBLIC)))
        assert referee.view(PUBLIC)["ended"], f"{path.name} does not end"
        log.close()
    return out


def encode(view: Mapping[str, Any]) -> bytes:
    return json.dumps(view, ensure_ascii=False, separators=(",", ":")).encode()


class SimTable:
    """One simulated table: its client, its game (a script's views) and where it is in it."""

    def __init__(self, table_id: str, password: str, views: list[dict[str, Any]], prefix: str, rng: random.Random):
        self.id, self.views, self.prefix = table_id, views, prefix
        self.base = protocol.base(prefix, table_id)
        self.step = rng.randrange(len(views) - 1)  # somewhere in its game: the tables finish at different times
        self.number, self.announced = 1, 0
        self.key = f"{rng.getrandbits(64):016x}"
        self.seen: set[str] = set()
        self.client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=table_id)
        self.client.username_pw_set(table_id, password)
        self.client.will_set(protocol.bridge_topic(prefix, table_id), b"0", qos=1, retain=True)
        self.connected = threading.Event()
        self.client.on_connect = lambda c, u, f, rc, p=None: self.connected.set()

    def view(self) -> dict[str, Any]:
        return {**self.views[self.step], "number": self.number}

    def hello(self) -> list[mqtt.MQTTMessageInfo]:
        """What a table's bridge brings first: its retained about, status, bridge and public view."""
        pub = self.client.publish
        view = self.view()
        self.announced = view["announced"]
        self.seen.add(card_fp(public.view(encode(view))))
        return [pub(protocol.about_topic(self.prefix, self.id),
                    protocol.about_payload(name=f"Table {self.id[-3:]}", language="en"), qos=1, retain=True),
                pub(f"{self.base}/status", b"online", qos=1, retain=True),
                pub(protocol.bridge_topic(self.prefix, self.id), b"1", qos=1, retain=True),
                pub(f"{self.base}/public", encode(view), qos=1, retain=True)]

    def next_input(self) -> tuple[str, bool, int, bool]:
        """The table's next input as its bridge brings it: (the card's fingerprint, measurable, messages
        published, a result among them)."""
        if self.step + 1 >= len(self.views):  # the game ended: the next one begins
            self.step, self.number, self.announced = 0, self.number + 1, 0
        else:
            self.step += 1
        view = self.view()
        payload = encode(view)
        self.client.publish(f"{self.base}/public", payload, qos=1, retain=True)
        sent = 1
        fresh = view["announced"] - self.announced
        shown = view["announcements"][-fresh:] if fresh > 0 else []
        for n, item in enumerate(shown, start=view["announced"] - len(shown) + 1):
            self.client.publish(f"{self.base}/events", encode({"n": n, **item}), qos=1)
            sent += 1
        self.announced = view["announced"]
        result = result_of(view, table=self.id, key=result_key(self.key, self.number),
                           finished_ms=int(time.time() * 1000))
        if result is not None:
            self.client.publish(protocol.results_topic(self.prefix, self.id, self.number), result, qos=1, retain=True)
            sent += 1
        fp = card_fp(public.view(payload))
        measurable = fp not in self.seen
        self.seen.add(fp)
        return fp, measurable, sent, result is not None


def simulate() -> None:
    """Child: the tables of stdin's first line; 'ready' once all are in, then on a 'go' line play for
    `seconds` and print the publish log as one JSON object."""
    cfg = json.loads(sys.stdin.readline())
    rng = random.Random(cfg["seed"])
    scripts = [views_of(Path(p)) for p in cfg["scripts"]]
    tables = [SimTable(t, pw, scripts[i % len(scripts)], cfg["prefix"], rng) for i, (t, pw) in enumerate(cfg["tables"])]
    for t in tables:
        t.client.connect(cfg["host"], cfg["port"], keepalive=30)
        t.client.loop_start()
    for t in tables:
        if not t.connected.wait(30):
            raise SystemExit(f"table {t.id} did not connect")
    for info in [i for t in tables for i in t.hello()]:
        info.wait_for_publish(30)
    print("ready", flush=True)
    sys.stdin.readline()  # go
    lo, hi = cfg["pace"]
    start = time.monotonic()
    end = start + cfg["seconds"]
    due = [(start + rng.uniform(0, hi), i) for i in range(len(tables))]
    heapq.heapify(due)
    log: list[list[Any]] = []
    messages = results = 0
    while due and due[0][0] < end:
        at, i = heapq.heappop(due)
        time.sleep(max(0.0, at - time.monotonic()))  # the game's pace, not a wait for a result
        t_mono, t_wall = time.monotonic_ns(), time.time_ns() // 1_000_000
        fp, measurable, sent, finished = tables[i].next_input()
        messages += sent
        results += finished
        log.append([tables[i].id, fp, measurable, t_mono, t_wall])
        heapq.heappush(due, (at + rng.uniform(lo, hi), i))
    elapsed = time.monotonic() - start
    print(json.dumps({"log": log, "messages": messages, "results": results, "seconds": elapsed,
                      "view_bytes": sorted(len(encode(v)) for s in scripts for v in s)}), flush=True)
    sys.stdin.read()
    for t in tables:
        t.client.disconnect()
        t.client.loop_stop()
