"""Reader board: tap-to-event latency over a real pty, against a raw pty round trip of the same bytes.

Run from the repository root::

    python bench/bench_board.py [--taps 500] [--replugs 20]

- **Driver**: the emulator lays a tag on a reader (`BoardEmulator.place`: the firmware's protocol
  engine encodes TAG_PLACED and writes it to the pty master); the time until `BoardDriver` has emitted
  `TagPlaced` on its reader thread (pyserial read, COBS/CRC decode, session rules, HOST_ACK written).
- **Baseline**: the same frame bytes written to the same kind of pty and read by a pyserial reader
  thread that only waits for the 00 delimiter and hands the bytes over: what the pty and pyserial
  cost by themselves. The ratio is what our framing and session add on top.
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


def driver_latency(directory: str, taps: int) -> tuple[list[int], float]:
    """ns from place() to TagPlaced emitted, per tap; and CPU seconds per tap (both processes' work:
    the emulator runs in this process too)."""
    emu = BoardEmulator(os.path.join(directory, "companion-board0"), readers=4)
    stamps: queue.Queue[tuple[int, DeviceEvent]] = queue.Queue()
    driver = BoardDriver("board0", emu.path, repeat_window=0.0)
    emu.plug()
    driver.start(lambda event: stamps.put((time.perf_counter_ns(), event)))

    def wait_for(kind: type, state: str | None = None) -> int:
        while True:
            at, event = stamps.get(timeout=WAIT)
            if isinstance(event, kind) and (state is None or getattr(event, "state", None) == state):
                return at

    wait_for(ReaderStatus, "ok")
    samples = []
    cpu0 = cpu_seconds()
    for i in range(taps):
        start = time.perf_counter_ns()
        emu.place(i % 4, f"{i:08X}")
        samples.append(wait_for(TagPlaced) - start)
        emu.remove(i % 4)
        wait_for(TagRemoved)
    cpu = (cpu_seconds() - cpu0) / taps
    driver.stop()
    emu.close()
    return samples, cpu


def baseline_latency(directory: str, taps: int) -> list[int]:
    """ns from writing a tap frame to a pyserial reader thread having all of it."""
    plug = PtyPlug(os.path.join(directory, "raw"))
    plug.plug()
    port = open_serial(plug.path)
    got: queue.Queue[int] = queue.Queue()
    stop = threading.Event()

    def reader() -> None:
        buf = b""
        while not stop.is_set():
            buf += port.read(port.in_waiting or 1)
            while b"\x00" in buf:
                _, buf = buf.split(b"\x00", 1)
                got.put(time.perf_counter_ns())

    thread = threading.Thread(target=reader, daemon=True)
    thread.start()
    frames = [
        codec.encode(codec.Message(codec.TAG_PLACED, i & 0xFF, reader=i % 4, tag_type=1, uid=i.to_bytes(4, "big")))
        for i in range(taps)
    ]
    samples = []
    for frame in frames:
        start = time.perf_counter_ns()
        plug.write(frame)
        samples.append(got.get(timeout=WAIT) - start)
    stop.set()
    thread.join(1.0)
    port.close()
    plug.unplug()
    return samples


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
        baseline = summary(baseline_latency(directory, args.taps))
        driver_ns, cpu = driver_latency(directory, args.taps)
        driver = summary(driver_ns)
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
