"""GPIO buttons: press-to-inbox latency through our gpio thread against gpiozero's callback queueing
straight into the inbox (the baseline: no debounce, no gestures), idle CPU of the gpio thread (still,
and with an LED blinking), and the pure gesture logic's cost per raw edge. Mock pins (gpiozero's
MockFactory): the figures are the software's, not the wire's.

    python bench/bench_gpio.py [--presses 2000] [--idle 3]
"""

from __future__ import annotations

import argparse
import queue
import resource
import sys
import tempfile
import threading
import time
from pathlib import Path

from benchlib import fmt, peak_rss_mib, summary
from gpiozero import Button
from gpiozero.pins.mock import MockFactory, MockPWMPin

from companion.config import Config, GpioConfig, StorageConfig
from companion.core.contract import Player, Setup
from companion.core.eventlog import EventLog
from companion.core.referee import Referee
from companion.games import registry
from companion.gpio.starter import start
from companion.status import DeviceStatus, StatusBoard
from companion.table.loop import Table
from hardware.gpio.gestures import ButtonSpec, ComboSpec, Gestures


def cpu_s() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def ours(presses: int, idle: float, tmp: Path) -> tuple[list[int], float, float]:
    factory = MockFactory(pin_class=MockPWMPin)
    table = Table(Referee.start(registry(), EventLog(":memory:"), Setup("toolkit", (Player("ana", "Ana"),), {},
                                                                        seed=1), created_at=0))
    gpio = GpioConfig.model_validate({"enabled": True, "bounce_ms": 0, "combos": [], "buzzer": None,
                                      "led_broker": None, "buttons": [{"name": "red", "pin": 22, "press": "select"}]})
    status = StatusBoard()
    running = start(table, Config(storage=StorageConfig(path=tmp / "g.sqlite3"), gpio=gpio), status,
                    pin_factory=factory)
    pin, samples = factory.pin(22), []
    for _ in range(presses):
        t0 = time.perf_counter_ns()
        pin.drive_low()
        table.inbox.get(timeout=5)  # the press
        samples.append(time.perf_counter_ns() - t0)
        table.inbox.get(timeout=5)  # its release edge, queued with it
        pin.drive_high()
    before = cpu_s()
    threading.Event().wait(idle)
    still = (cpu_s() - before) / idle * 60
    status.set(DeviceStatus("reader", "pn532", "searching"))  # the reader LED blinks
    before = cpu_s()
    threading.Event().wait(idle)
    blinking = (cpu_s() - before) / idle * 60
    running.stop()
    factory.reset()
    return samples, still, blinking


def baseline(presses: int) -> list[int]:
    factory = MockFactory()
    inbox: queue.Queue[object] = queue.Queue()
    button = Button(22, pin_factory=factory)
    button.when_pressed = lambda: inbox.put("select")
    pin, samples = factory.pin(22), []
    for _ in range(presses):
        t0 = time.perf_counter_ns()
        pin.drive_low()
        inbox.get(timeout=5)
        samples.append(time.perf_counter_ns() - t0)
        pin.drive_high()
    button.close()
    factory.reset()
    return samples


def logic(edges: int) -> float:
    """Microseconds per raw edge: chattering presses of two buttons, with a combination in play."""
    g = Gestures([ButtonSpec("a", "next", "prev"), ButtonSpec("b", "select", "back")],
                 [ComboSpec(("a", "b"), "menu", 1000)], bounce_ms=30, hold_ms=800)
    t0, at = time.perf_counter_ns(), 0
    for i in range(edges):
        at += 7 if i % 8 else 900
        g.edge("a" if i % 16 < 8 else "b", i % 2 == 0, at)
        g.tick(at)
    return (time.perf_counter_ns() - t0) / 1000 / edges


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--presses", type=int, default=2000)
    parser.add_argument("--idle", type=float, default=3.0, help="seconds of each idle measurement")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        mine, still, blinking = ours(args.presses, args.idle, Path(tmp))
    base = baseline(args.presses)
    a, b = summary(mine), summary(base)
    per_edge = logic(200_000)
    print("#### GPIO buttons (gpiozero mock pins)\n")
    print("| path | p50 us | p99 us | max us | presses |")
    print("|---|---|---|---|---|")
    print(f"| pin -> gpio thread -> gesture -> table inbox (ours) | {fmt(a['p50'])} | {fmt(a['p99'])} | "
          f"{fmt(a['max'])} | {a['n']} |")
    print(f"| pin -> gpiozero callback -> queue (baseline) | {fmt(b['p50'])} | {fmt(b['p99'])} | "
          f"{fmt(b['max'])} | {b['n']} |")
    print(f"\nOurs / baseline at p50: {a['p50'] / b['p50']:.1f}x (one more thread hop and the gesture logic).")
    print(f"Gesture logic: {per_edge:.2f} us per raw edge (pure, 200,000 chattering edges).")
    print(f"Idle CPU of the gpio thread: {still:.3f} CPU-s/min still, {blinking:.3f} CPU-s/min with an LED "
          f"blinking (gpiozero's blink thread). Peak RSS {peak_rss_mib():.0f} MiB.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
