"""Views once per change: how often the game's view functions run per accepted input, and the table's
time per input, with the outputs of a full table attached, in the 9-player Lockdown game.

    python bench/bench_views_once.py [--inputs 203] [--repeat 3]

The scripted 9-player game (docs/games/lockdown/lockdown-9p.jsonl) is played through a real Table
(`Table.handle`, on this thread) on an in-memory log, so the time is the referee's and the outputs' and
no disk's. Attached in `companion run`'s order (companion/wiring.py): the console (into a
discarded buffer), the kiosk's feed (no display: its queue only, drained after each input), the MQTT
mirror (the 9 seats and the host; not connected, so a publish only queues in paho) and the GPIO view
tap (mock pins, 9 turn LEDs, its own thread). The game handed to the referee is wrapped to count its
calls of `view_public`, `view_player` and `view_host`. Timed per input: the wall time and this
thread's CPU time of `Table.handle`, and the CPU time between an output placed first and one placed
last (the outputs' share, views included).

The same script runs against an older checkout (`PYTHONPATH=/path/to/old python bench/...`, e.g. a
`git archive` of commit 8ae57ff): only the Table's module moved, so the old behaviour's figures come
from the same code.
"""

from __future__ import annotations

import argparse
import io
import json
import queue
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

from benchlib import fmt, summary
from gpiozero.pins.mock import MockFactory, MockPWMPin

from companion.config import Config, GpioConfig, StorageConfig
from companion.console import ConsoleOutput
from companion.core.eventlog import EventLog, setup_from_json
from companion.core.referee import Referee
from companion.games import registry
from companion.gpio.starter import start as start_gpio
from companion.kiosk.feed import KioskFeed
from companion.kiosk.wake import Waker
from companion.phones.credentials import GameCredentials
from companion.phones.mirror import BrokerAddress, Mirror
from companion.phones.topics import Topics
from companion.status import StatusBoard

try:
    from companion.table.loop import Table
except ImportError:  # a checkout from before companion/table/ (the old behaviour's baseline)
    from companion.service import Table  # type: ignore[import-not-found, no-redef]

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "docs" / "games" / "lockdown" / "lockdown-9p.jsonl"


class Stamp:
    """An output that notes this thread's CPU time when told (one first, one last: the outputs between)."""

    def __init__(self) -> None:
        self.at: list[int] = []

    def changed(self, *told: Any) -> None:  # (views, outcomes) now, (referee, outcomes) before
        self.at.append(time.thread_time_ns())


class CountedGame:
    """The real game, counting how often the referee asks it for a view."""

    def __init__(self, game: Any) -> None:
        self.game = game
        self.calls: Counter[str] = Counter()

    def __getattr__(self, name: str) -> Any:
        return getattr(self.game, name)

    def view_public(self, state: Any) -> Any:
        self.calls["view_public"] += 1
        return self.game.view_public(state)

    def view_player(self, state: Any, pid: str) -> Any:
        self.calls["view_player"] += 1
        return self.game.view_player(state, pid)

    def view_host(self, state: Any) -> Any:
        self.calls["view_host"] += 1
        return self.game.view_host(state)


def script() -> tuple[dict[str, Any], list[dict[str, Any]]]:
    lines = [json.loads(t) for t in SCRIPT.read_text(encoding="utf-8").splitlines() if t and not t.startswith("#")]
    return lines[0], [{k: v for k, v in m.items() if k != "at"} for m in lines[1:]]


def play(n_inputs: int, tmp: Path) -> dict[str, Any]:
    setup, inputs = script()
    counted = CountedGame(registry()["lockdown"])
    games = {**registry(), "lockdown": counted}
    referee = Referee.start(games, EventLog(":memory:"), setup_from_json(setup), created_at=0)  # type: ignore[arg-type]
    table = Table(referee)
    players = [p.id for p in referee.setup.players]
    first, last = Stamp(), Stamp()
    table.outputs += [first, ConsoleOutput(io.StringIO(), "en")]
    feed = KioskFeed(Waker())
    feed.attach(table)
    game = GameCredentials.issue("bench", referee.game_id, players)
    mirror = Mirror(table, Topics("bench", game.table), game, BrokerAddress("127.0.0.1", 1, password="-"))
    table.outputs.append(mirror)
    gpio = GpioConfig.model_validate({"enabled": True, "buttons": [], "combos": [], "buzzer": None,
                                      "led_reader": None, "led_broker": None, "turn_leds": list(range(4, 13))})
    buttons = start_gpio(table, Config(storage=StorageConfig(path=tmp / "g.sqlite3"), gpio=gpio), StatusBoard(),
                         pin_factory=MockFactory(pin_class=MockPWMPin))
    table.outputs.append(last)
    per_input: list[int] = []
    times: list[int] = []
    cpu: list[int] = []
    try:
        for raw in inputs[:n_inputs]:
            before = counted.calls["view_public"]
            t0, c0 = time.perf_counter_ns(), time.thread_time_ns()
            outcome = table.handle(raw)
            cpu.append(time.thread_time_ns() - c0)
            times.append(time.perf_counter_ns() - t0)
            assert outcome.accepted, (raw, outcome.reason)
            per_input.append(counted.calls["view_public"] - before)
            while True:  # the kiosk's loop would read these
                try:
                    feed.inbox.get_nowait()
                except queue.Empty:
                    break
    finally:
        buttons.stop()
        mirror._client.loop_stop()
        referee.log.close()
    n = len(times)
    outputs = [b - a for a, b in zip(first.at, last.at, strict=True)]
    return {"inputs": n, "view_public": per_input, "calls": dict(counted.calls), "times": times, "cpu": cpu,
            "outputs": outputs, "per_input": {k: v / n for k, v in counted.calls.items()}}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--inputs", type=int, default=203, help="inputs of the script to play (203: all)")
    parser.add_argument("--repeat", type=int, default=3, help="plays of the script; times are over all")
    args = parser.parse_args()
    runs = []
    with tempfile.TemporaryDirectory() as tmp:
        for _ in range(args.repeat):
            runs.append(play(args.inputs, Path(tmp)))
    times = [t for run in runs for t in run["times"]]
    cpu = [t for run in runs for t in run["cpu"]]
    outputs = [t for run in runs for t in run["outputs"]]
    counts = runs[0]["view_public"]
    print(f"## Views once per change: the 9-player Lockdown game, {runs[0]['inputs']} inputs x {args.repeat}\n")
    print("| figure | value |")
    print("|---|---|")
    print(f"| `view_public` calls per accepted input (mean / max) | {sum(counts) / len(counts):.2f} / {max(counts)} |")
    for name, mean in sorted(runs[0]["per_input"].items()):
        if name == "view_public":
            continue
        print(f"| `{name}` calls per accepted input (mean) | {mean:.2f} |")
    for what, ns in (("table time per input (wall)", times), ("table's CPU per input", cpu),
                     ("the outputs' CPU per input (views included)", outputs)):
        s, mean = summary(ns), sum(ns) / len(ns) / 1000
        print(f"| {what}, p50 / p99 / mean (us) | {fmt(s['p50'])} / {fmt(s['p99'])} / {fmt(mean)} |")


if __name__ == "__main__":
    main()
