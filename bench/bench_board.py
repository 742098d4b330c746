"""Reader board: tap-to-event latency over a real pty, against a raw pty round trip of the same bytes.

Run from the repository root::

    python bench/bench_board.py [--taps 500] [--replugs 20]

- **Driver**: the emulator lays a tag on a reader (`BoardEmulator.place`: the firmware's protocol
  engine encodes TAG_PLACED and writes it to the pty master); the time until `BoardDriver` has emitted
  `TagPlaced` on its reader thread (pyserial read, COBS/CRC decode, session rules, HOST_ACK written).
- **Baseline**: the same frame bytes written to the same kind of pty and read by a pyserial reader
  thread that only waits for the 00 delimiter and hands the bytes over: what the pty and pyserial
  cost by themselves. The ratio is what our framing and session add on top.
- Both run in turn, one tap each, so the machine's load falls on both alike.
- **Replug**: from `plug()` of a fresh pty at the same symlink (after an unplug the driver noticed)
  to the driver's "ok" status (its reopen backoff, HELLO_REQUEST, HELLO).

Prints markdown; asserts nothing about time. A pty ignores the baud rate: on a real 115200-baud
USB-serial link add ~87 us per byte (a tap frame is 15 bytes, ~1.3 ms).
"""

from __future__ import annotations

import argparse
import logging
import os
import queue
import resource
import sys
import tempfile
import threading
import time

from benchlib import fmt, peak_rss_mib, summary

from firmware_protocol import codec
from firmware_protocol.emulator import BoardEmulator
from firmware_protocol.pty_plug import PtyPlug
from hardware.board import BoardDriver
from hardware.events import DeviceEvent, ReaderStatus, TagPlaced, TagRemoved
from hardware.serial_link import open_serial

WAIT = 10.0


def cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


class DriverPath:
    """The emulator lays a tag; time until the driver emits TagPlaced (then the tag is lifted again)."""

    def __init__(self, directory: str) -> None:
        self.emu = BoardEmulator(os.path.join(directory, "companion-board0"), readers=4)
        self.stamps: queue.Queue[tuple[int, DeviceEvent]] = queue.Queue()
        self.driver = BoardDriver("board0", self.emu.path, repeat_window=0.0)
        self.emu.plug()
        self.driver.start(lambda event: self.stamps.put((time.perf_counter_ns(), event)))
        self.wait_for(ReaderStatus, "ok")
        self.taps = 0

    def wait_for(self, kind: type, state: str | None = None) -> int:
        while True:
            at, event = self.stamps.get(timeout=WAIT)
            if isinstance(event, kind) and (state is None or getattr(event, "state", None) == state):
                return at

    def sample(self) -> int:
        slot = self.taps % 4
        start = time.perf_counter_ns()
        self.emu.place(slot, f"{self.taps:08X}")
        took = self.wait_for(TagPlaced) - start
        self.emu.remove(slot)
        self.wait_for(TagRemoved)
        self.taps += 1
        return took

    def close(self) -> None:
        self.driver.stop()
        self.emu.close()


class BaselinePath:
    """The same frame bytes written to a pty; time until a pyserial reader thread has all of them."""

    def __init__(self, directory: str) -> None:
        self.plug = PtyPlug(os.path.join(directory, "raw"))
        self.plug.plug()
        self.port = open_serial(self.plug.path)
        self.got: queue.Queue[int] = queue.Queue()
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()
        self.count = 0

    def _read(self) -> None:
        buf = b""
        while not self.stop.is_set():
            buf += self.port.read(self.port.in_waiting or 1)
            while b"\x00" in buf:
                _, buf = buf.split(b"\x00", 1)
                self.got.put(time.perf_counter_ns())

    def sample(self) -> int:
        i = self.count
        self.count += 1
        frame = codec.encode(
            codec.Message(codec.TAG_PLACED, i & 0xFF, reader=i % 4, tag_type=1, uid=i.to_bytes(4, "big"))
        )
        start = time.perf_counter_ns()
        self.plug.write(frame)
        return self.got.get(timeout=WAIT) - start

    def close(self) -> None:
        self.stop.set()
        self.thread.join(1.0)
        self.port.close()
        self.plug.unplug()


def latencies(directory: str, taps: int) -> tuple[list[int], list[int], float]:
    """Driver and baseline samples taken in turn (so both see the same machine load), and the CPU
    seconds per driver tap (placement and removal; the emulator runs in this process too)."""
    driver, baseline = DriverPath(directory), BaselinePath(directory)
    driver_ns: list[int] = []
    baseline_ns: list[int] = []
    cpu = 0.0
    try:
        for _ in range(taps):
            baseline_ns.append(baseline.sample())
            cpu0 = cpu_seconds()
            driver_ns.append(driver.sample())
            cpu += cpu_seconds() - cpu0
    finally:
        driver.close()
        baseline.close()
    return driver_ns, baseline_ns, cpu / taps


def replug_times(directory: str, count: int) -> list[int]:
    emu = BoardEmulator(os.path.join(directory, "companion-board1"), readers=2)
    states: queue.Queue[tuple[int, str]] = queue.Queue()
    driver = BoardDriver("board1", emu.path)

    def emit(event: DeviceEvent) -> None:
        if isinstance(event, ReaderStatus):
            states.put((time.perf_counter_ns(), event.state))

    def wait_state(state: str) -> int:
        while True:
            at, got = states.get(timeout=WAIT)
            if got == state:
                return at

    emu.plug()
    driver.start(emit)
    wait_state("ok")
    samples = []
    for _ in range(count):
        emu.unplug()
        wait_state("missing")
        start = time.perf_counter_ns()
        emu.plug()
        samples.append(wait_state("ok") - start)
    driver.stop()
    emu.close()
    return samples


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--taps", type=int, default=500)
    parser.add_argument("--replugs", type=int, default=20)
    args = parser.parse_args(argv)
    logging.getLogger("hardware").setLevel(logging.ERROR)  # each replug logs a warning otherwise
    with tempfile.TemporaryDirectory() as directory:
        driver_ns, baseline_ns, cpu = latencies(directory, args.taps)
        driver, baseline = summary(driver_ns), summary(baseline_ns)
        replug = summary(replug_times(directory, args.replugs))
    print("### Reader board over a pty\n")
    print(f"`python bench/bench_board.py --taps {args.taps} --replugs {args.replugs}`\n")
    print("| path | p50 (us) | p99 (us) | max (us) | n |")
    print("|---|---:|---:|---:|---:|")
    print(
        f"| tap -> `TagPlaced` (emulator, pty, SerialLink, decode, session) | {fmt(driver['p50'])} "
        f"| {fmt(driver['p99'])} | {fmt(driver['max'])} | {driver['n']} |"
    )
    print(
        f"| baseline: same frame, raw pty + pyserial thread | {fmt(baseline['p50'])} | {fmt(baseline['p99'])} "
        f"| {fmt(baseline['max'])} | {baseline['n']} |"
    )
    print(
        f"| replug -> status ok | {fmt(replug['p50'])} | {fmt(replug['p99'])} | {fmt(replug['max'])} | {replug['n']} |"
    )
    print()
    print(
        f"- Ratio driver / baseline: p50 {driver['p50'] / baseline['p50']:.1f}x, "
        f"p99 {driver['p99'] / baseline['p99']:.1f}x"
    )
    print(f"- CPU per tap (placement and removal, emulator and driver together): {cpu * 1e6:,.0f} us")
    print(f"- Peak RSS of the process: {peak_rss_mib():.1f} MiB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
