"""PN532 and reader board: tap-to-input latency over a real pty, and our PN532 driver against Adafruit's.

Run from the repository root::

    python bench/bench_pn532.py [--taps 200] [--seconds 3] [--replugs 20] [--dir DIR]

The comparison needs the Adafruit library (it pulls in Blinka and about a dozen packages, which is
why the companion does not use it)::

    pip install -e '.[bench]'        # or: pip install adafruit-circuitpython-pn532

- **Tap to input** (both readers): the emulator lays a tag on the reader; the time until the
  referee has accepted the input the token means and told the table's outputs: driver thread ->
  `Table.put_device` -> main loop -> tap router -> token registry (SQLite) -> `on_token` ->
  `Referee.submit` (appended to the SQLite log at synchronous=FULL, on a real disk). Two enrolled dice
  tokens are placed in turn (each replaces the other, so no repeat window is waited for), at a random
  moment of the poll cycle. The PN532 driver runs with its defaults (a poll every 50 ms, a tap needs
  a confirming read); the board with its defaults (it reports on its own, no polling).
- **Replug** (PN532): from plugging a fresh pty in at the same path, after an unplug the driver
  noticed, to its "ok" status (the issue asks for under 2 s).
- **PN532, ours vs Adafruit** on the same emulator (which, like the chip by default, holds a poll
  with no tag until one comes): *reads per second* with a tag left on the reader (ours polling
  back-to-back, and at its default pace), *tap latency* from placing a tag at a random moment to the
  UID in hand (ours: `TagPlaced` emitted, confirm read included; Adafruit: `read_passive_target`
  returning in a loop), CPU time per read, and the CPU it burns waiting with no tag on the reader.
  The emulator runs in its own process here (driven through its control socket), so the CPU
  figures are the driver's alone. Adafruit's
  `read_passive_target` asks pyserial for more bytes than the answer holds, so every read lasts the
  port's whole timeout: it is run with the 1 s timeout of its examples and with 0.1 s.

Prints markdown; asserts nothing about time. A pty ignores the baud rate: a real PN532 at 115200 baud
adds ~87 us per byte (a poll and its answer are ~35 bytes, ~3 ms) plus the RF activation (~5 ms).
"""

from __future__ import annotations

import argparse
import logging
import os
import queue
import random
import resource
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from benchlib import disk_dir, fmt, peak_rss_mib, summary

from companion.config import Config, ReaderConfig, ReadersConfig, StorageConfig
from companion.core.contract import Player, Setup
from companion.core.eventlog import EventLog
from companion.core.referee import Outcome, Referee
from companion.core.rejection import Rejected
from companion.games import registry as games
from companion.status import StatusBoard
from companion.table.loop import Table
from companion.table.views import Views
from companion.taps.registry import Registry, Token, registry_path
from companion.taps.starter import start_readers
from firmware_protocol.emulator import BoardEmulator
from hardware.events import DeviceEvent, ReaderStatus, TagPlaced
from hardware.pn532.control import send
from hardware.pn532.driver import Pn532Driver
from hardware.pn532.emulator import Emulator

WAIT = 10.0
TOKENS = ("DEADBEEF", "04A1B2C3D4E5F6")


def cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


class Screen:
    """The table's outputs as the bench sees them: when an accepted input was told."""

    def __init__(self) -> None:
        self.told: queue.Queue[int] = queue.Queue()

    def changed(self, views: Views, outcomes: list[Outcome]) -> None:
        self.told.put(time.perf_counter_ns())

    def player_tapped(self, player_id: str) -> None: ...

    def identified_player(self) -> str | None:
        return None

    def use_registry(self, registry: Registry | None) -> None: ...

    def unknown_tag(self, uid: str, reader: str) -> None:
        raise SystemExit(f"bench: tag {uid} should be enrolled")

    def token_refused(self, token_label: str, reason: Rejected) -> None:
        raise SystemExit(f"bench: {token_label} refused: {reason.code}")


def tap_to_input(where: Path, driver: str, taps: int) -> list[int]:
    """ns from the emulator's place() to the outputs being told of the accepted input, per tap."""
    with tempfile.TemporaryDirectory(dir=where) as tmp:
        log_path = Path(tmp) / "companion.sqlite3"
        with Registry(registry_path(log_path)) as reg:
            for n, uid in enumerate(TOKENS):
                reg.enroll(Token(uid, "toolkit", "dice", "2d6", f"Dice {n}"))
        link = Path(tmp) / driver
        place: Callable[[str], None]
        if driver == "pn532":
            emu: Any = Emulator(link).plug()
            place = emu.place
        else:
            emu = BoardEmulator(str(link), readers=1)
            emu.plug()
            place = lambda uid: emu.place(0, uid)  # noqa: E731
        cfg = Config(storage=StorageConfig(path=log_path),
                     readers=ReadersConfig(devices=(ReaderConfig(name=driver, driver=driver, port=str(link)),),
                                           simulate="never"))  # type: ignore[arg-type]
        setup = Setup("toolkit", (Player("ana", "Ana"),), {}, seed=1)
        table = Table(Referee.start(games(), EventLog(log_path), setup, created_at=0))
        screen = Screen()
        table.outputs.append(screen)
        loop = threading.Thread(target=table.run, daemon=True)
        loop.start()
        readers = start_readers(table, cfg, StatusBoard(), screen)
        assert readers is not None
        samples: list[int] = []
        rng = random.Random(1)
        try:
            for i in range(taps + 2):
                time.sleep(rng.uniform(0.0, 0.06))  # a random moment of the poll cycle
                t0 = time.perf_counter_ns()
                place(TOKENS[i % 2])
                t1 = screen.told.get(timeout=WAIT)
                if i >= 2:  # the first taps warm up the caches
                    samples.append(t1 - t0)
        finally:
            readers.stop()
            table.stop()
            loop.join(WAIT)
            table.referee.log.close()
            emu.close()
    return samples


# -- ours vs Adafruit -----------------------------------------------------------------------------------


class Chip:
    """The PN532 emulator in its own process (so the CPU measured here is the driver's alone), driven
    through its control socket."""

    def __init__(self, where: Path) -> None:
        self.link, self.sock = where / "pn532", where / "pn532.sock"
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "hardware.pn532", "--link", str(self.link), "--control", str(self.sock)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        assert self.proc.stdout is not None
        self.proc.stdout.readline()  # its banner: the link and the socket are ready

    def cmd(self, line: str) -> None:
        answer = send(self.sock, line)
        if answer.startswith("error"):
            raise SystemExit(f"emulator: {line}: {answer}")

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        self.proc.wait(WAIT)


def ours_reads(chip: Chip, seconds: float, poll_interval: float) -> tuple[float, float, float]:
    """(reads per second and CPU ms per read with a tag left on, CPU % of a core with no tag)."""
    driver = Pn532Driver(str(chip.link), poll_interval=poll_interval)
    events: queue.Queue[DeviceEvent] = queue.Queue()
    driver.start(events.put)
    while not isinstance(events.get(timeout=WAIT), ReaderStatus):
        pass
    cpu, t0 = cpu_seconds(), time.perf_counter()
    time.sleep(seconds)
    idle = 100 * (cpu_seconds() - cpu) / (time.perf_counter() - t0)
    chip.cmd(f"place {TOKENS[0]}")
    while not isinstance(events.get(timeout=WAIT), TagPlaced):
        pass
    before, cpu = driver.polls, cpu_seconds()
    t0 = time.perf_counter()
    time.sleep(seconds)
    reads, elapsed, cpu = driver.polls - before, time.perf_counter() - t0, cpu_seconds() - cpu
    driver.stop()
    chip.cmd("remove")
    return reads / elapsed, 1000 * cpu / max(reads, 1), idle


def ours_latency(chip: Chip, taps: int) -> list[int]:
    driver = Pn532Driver(str(chip.link))
    events: queue.Queue[DeviceEvent] = queue.Queue()
    driver.start(events.put)
    rng = random.Random(2)
    samples = []
    try:
        for i in range(taps):
            time.sleep(rng.uniform(0.0, 0.06))
            t0 = time.perf_counter_ns()
            chip.cmd(f"place {TOKENS[i % 2]}")
            while not isinstance(events.get(timeout=WAIT), TagPlaced):
                pass
            samples.append(time.perf_counter_ns() - t0)
    finally:
        driver.stop()
        chip.cmd("remove")
    return samples


def adafruit(chip: Chip, port_timeout: float, seconds: float, taps: int) -> dict[str, Any]:
    """Adafruit's PN532_UART on a pyserial port: reads/s with a tag on, tap latency, CPU per read."""
    import serial
    from adafruit_pn532.uart import PN532_UART

    chip.cmd("replug")  # a freshly powered chip: our driver's MaxRetries setting would make Adafruit's reads raise
    port = serial.Serial(str(chip.link), 115200, timeout=port_timeout)
    try:
        pn532 = PN532_UART(port)
        cpu, t0 = cpu_seconds(), time.perf_counter()
        while time.perf_counter() - t0 < seconds:  # no tag: how much it costs to wait for one
            pn532.read_passive_target(timeout=1)
        idle = 100 * (cpu_seconds() - cpu) / (time.perf_counter() - t0)
        chip.cmd(f"place {TOKENS[0]}")
        reads, cpu, t0 = 0, cpu_seconds(), time.perf_counter()
        while time.perf_counter() - t0 < seconds:
            if pn532.read_passive_target(timeout=1) is not None:
                reads += 1
        elapsed, cpu = time.perf_counter() - t0, cpu_seconds() - cpu
        chip.cmd("remove")
        found: queue.Queue[tuple[int, bytes]] = queue.Queue()
        stop = threading.Event()

        def poll() -> None:  # the library's way: read_passive_target in a loop
            while not stop.is_set():
                try:
                    uid = pn532.read_passive_target(timeout=1)
                except RuntimeError:  # the library's answer to a frame it cannot read
                    continue
                if uid is not None:
                    found.put((time.perf_counter_ns(), bytes(uid)))

        reader = threading.Thread(target=poll, daemon=True)
        reader.start()
        rng = random.Random(3)
        samples = []
        for i in range(taps):
            time.sleep(rng.uniform(0.0, port_timeout))
            while not found.empty():
                found.get_nowait()
            uid = TOKENS[i % 2]
            t0_ns = time.perf_counter_ns()
            chip.cmd(f"place {uid}")
            while True:
                when, got = found.get(timeout=WAIT + 2 * port_timeout)
                if got.hex().upper() == uid:
                    samples.append(when - t0_ns)
                    break
            chip.cmd("remove")
        stop.set()
        reader.join(WAIT)
    finally:
        port.close()
    return {"rate": reads / elapsed, "cpu_ms": 1000 * cpu / max(reads, 1), "idle": idle, "latency": samples}


def replug_to_ok(replugs: int) -> list[int]:
    """ns from plugging a fresh pty in (after an unplug the driver saw) to the driver's "ok"."""
    samples = []
    with tempfile.TemporaryDirectory() as tmp, Emulator(Path(tmp) / "pn532") as emu:
        events: queue.Queue[DeviceEvent] = queue.Queue()
        driver = Pn532Driver(str(emu.link))
        driver.start(events.put)

        def wait(state: str) -> None:
            while True:
                event = events.get(timeout=WAIT)
                if isinstance(event, ReaderStatus) and event.state == state:
                    return

        wait("ok")
        for _ in range(replugs):
            emu.unplug()
            wait("missing")
            t0 = time.perf_counter_ns()
            emu.plug()
            wait("ok")
            samples.append(time.perf_counter_ns() - t0)
        driver.stop()
    return samples


def compare(seconds: float, taps: int) -> list[str]:
    with tempfile.TemporaryDirectory() as tmp:
        chip = Chip(Path(tmp))
        try:
            fast_rate, fast_cpu, _ = ours_reads(chip, seconds, poll_interval=0.0)
            paced_rate, paced_cpu, idle = ours_reads(chip, seconds, poll_interval=0.05)
            ours = summary(ours_latency(chip, taps))
            try:
                theirs = {t: adafruit(chip, t, seconds, max(5, taps // (10 if t >= 1 else 3))) for t in (1.0, 0.1)}
            except ImportError as err:
                return [f"Adafruit's library could not be imported: `{err}` (pip install -e '.[bench]')"]
        finally:
            chip.close()
    lines = [
        "#### PN532: our driver vs adafruit-circuitpython-pn532 (same emulator in its own process, same pty)",
        "",
        "| driver | reads/s (tag on) | CPU ms per read | idle CPU % (no tag) | tap latency p50 ms | p99 ms | taps |",
        "|---|---:|---:|---:|---:|---:|---:|",
        f"| ours, back-to-back polls | {fast_rate:,.0f} | {fast_cpu:.2f} | | | | |",
        f"| ours, default (poll every 50 ms) | {paced_rate:,.1f} | {paced_cpu:.2f} | {idle:.2f} | "
        f"{ours['p50'] / 1000:.1f} | {ours['p99'] / 1000:.1f} | {ours['n']} |",
    ]
    for timeout, t in theirs.items():
        lat = summary(t["latency"])
        lines.append(f"| Adafruit, port timeout {timeout:g} s | {t['rate']:,.1f} | {t['cpu_ms']:.2f} | "
                     f"{t['idle']:.2f} | {lat['p50'] / 1000:.1f} | {lat['p99'] / 1000:.1f} | {lat['n']} |")
    best = theirs[0.1]
    best_lat = summary(best["latency"])
    lines += [
        "",
        f"Ratios against Adafruit at 0.1 s: reads/s ours back-to-back {fast_rate / best['rate']:,.0f}x, "
        f"ours default {paced_rate / best['rate']:.1f}x; tap latency p50 "
        f"{best_lat['p50'] / ours['p50']:.1f}x lower with ours"
        f" ({summary(theirs[1.0]['latency'])['p50'] / ours['p50']:.0f}x against the 1 s timeout).",
    ]
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--taps", type=int, default=200, help="taps per reader for tap-to-input (200)")
    parser.add_argument("--seconds", type=float, default=3.0, help="seconds of reading per read-rate row (3)")
    parser.add_argument("--replugs", type=int, default=20, help="PN532 unplug/replug rounds (20)")
    parser.add_argument("--dir", default=None, help="where the SQLite files go (a real disk)")
    args = parser.parse_args(argv)
    logging.getLogger("hardware").setLevel(logging.ERROR)
    where = disk_dir(args.dir)
    load = os.getloadavg()[0]
    rows = []
    for driver in ("pn532", "board"):
        s = summary(tap_to_input(where, driver, args.taps))
        rows.append(f"| {driver} | {fmt(s['p50'])} | {fmt(s['p99'])} | {fmt(s['max'])} | {s['n']} |")
    print("#### Tap to referee input over a pty (emulator -> driver -> table -> registry -> referee, SQLite FULL)")
    print()
    print("| reader | p50 us | p99 us | max us | taps |")
    print("|---|---:|---:|---:|---:|")
    print("\n".join(rows))
    replug = summary(replug_to_ok(args.replugs))
    print()
    print(f"PN532 replug to \"ok\" (fresh pty at the same path after an unplug): p50 {replug['p50'] / 1000:.0f} ms, "
          f"p99 {replug['p99'] / 1000:.0f} ms, max {replug['max'] / 1000:.0f} ms over {replug['n']} replugs "
          "(the link's reopen backoff, 50-500 ms, then wake-up, SAMConfiguration, firmware, MaxRetries).")
    print()
    print("\n".join(compare(args.seconds, max(10, args.taps // 4))))
    print()
    print(f"Peak RSS {peak_rss_mib():.0f} MiB; 1-min load average {load:.2f} before, {os.getloadavg()[0]:.2f} after.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
