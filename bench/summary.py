"""The one performance table: picks the headline figures out of the benchmarks' markdown reports.

`run_all.py` runs the benchmarks and hands their printed reports here by script name; `table()` returns
one markdown table, each figure with its method, the command that reproduces it, and what to expect on
a Raspberry Pi (none is measured here: there is no Pi on this machine). A figure whose report is
missing or changed shape reads "n/a (...)" rather than a wrong number.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

Reports = dict[str, str]


def cells(report: str, row_start: str) -> list[str]:
    """The cells of the first markdown table row whose first cell starts with `row_start`."""
    for line in report.splitlines():
        if line.startswith("|"):
            parts = [c.strip() for c in line.strip().strip("|").split("|")]
            if parts and parts[0].startswith(row_start):
                return parts
    raise LookupError(f"no row {row_start!r}")


def found(report: str, pattern: str) -> str:
    m = re.search(pattern, report)
    if m is None:
        raise LookupError(f"no {pattern!r}")
    return m.group(1)


@dataclass(frozen=True)
class Figure:
    name: str
    source: str  # the bench script whose report holds it
    value: Callable[[str], str]
    method: str
    pi: str


PI_CPU = ("not measured (no Pi here); CPU-bound Python: expect ~3-4x this on a Pi 4 (Cortex-A72 at 1.5-1.8 GHz "
          "against an EPYC vCPU), ~2x on a Pi 5")


def _kiosk_rss(r: str) -> str:
    return found(r, r"(\d+) MiB with the Latin, Thai and CJK fonts") + " MiB"


def _load(broker: str, col: int) -> Callable[[str], str]:
    return lambda r: cells(r, broker)[col]


FIGURES = [
    Figure("tap to screen p50 / p99 (ms)", "bench_kiosk.py", lambda r: cells(r, "kiosk: self-pipe")[2],
           "an input put on the Table from another thread (the path of a reader's tap after the router), after "
           "the screen was idle, until the frame showing its announcement is drawn; SDL dummy driver; includes "
           "the durable SQLite append", PI_CPU + "; plus pushing pixels (kmsdrm/X11) and the SD card's fsync"),
    Figure("tap (reader) to referee input p50 / p99 (ms)", "bench_pn532.py",
           lambda r: " / ".join(f"{float(x.replace(',', '')) / 1000:.1f}" for x in cells(r, "pn532")[1:3]),
           "PN532 emulator lays a tag on the reader over a real pty -> our driver -> table -> token registry -> "
           "referee (SQLite FULL)", "not measured; on a Pi the UART at 115200 baud adds ~2 ms per frame"),
    Figure("referee event to phone page p50 / p99 (ms), Mosquitto", "bench_phone_page.py",
           lambda r: cells(r, "mosquitto")[2],
           "host input handed to the table until the DOM of a real headless Chromium page seated as a player "
           "shows the announcement, over WebSockets on loopback; a tap to a phone adds the row above",
           "not measured; Wi-Fi adds its own latency (typically 2-20 ms on a quiet 2.4 GHz network)"),
    Figure("idle CPU (s per minute)", "bench_kiosk.py", lambda r: cells(r, "kiosk: self-pipe")[1],
           "process CPU (all threads) of the kiosk and table on the play screen with a running timer, over a "
           "bounded window, scaled to a minute", PI_CPU),
    Figure("RSS (MiB)", "bench_kiosk.py", _kiosk_rss,
           "the kiosk process after drawing every screen in Chinese and Thai (Latin, Thai, CJK fonts open)",
           "about the same on a 64-bit Pi OS (same Python, same fonts)"),
    Figure("start-up to first frame (ms)", "bench_kiosk.py",
           lambda r: found(r, r"first frame in Chinese \(new process\): p50 (\d+) ms"),
           "exec of a new kiosk process until its first frame is on the display, font cache warm (p50)",
           PI_CPU + "; imports from an SD card are slower when cold"),
    Figure("replay (events/s)", "bench_replay.py", lambda r: cells(r, "`Referee(...)` reopen")[2],
           "reopen a toolkit game from its SQLite file on disk: open, read, corrections, fold", PI_CPU),
    Figure("event-log append p99 (µs)", "bench_eventlog.py", lambda r: _append_p99(r),
           "one `EventLog.append` (one INSERT, one transaction) at synchronous=FULL, WAL, on the VM's virtio "
           "disk", "not measured; an SD card's fsync is typically 2-20 ms, so expect p99 of tens of ms"),
    Figure("broker fan-out: event to phone p50 / p99 (ms), 9 players + 200 spectators, Mosquitto", "bench_load.py",
           _load("mosquitto", 4), "while a 9-player Lockdown game is played at 10 inputs/s and the kiosk "
           "runs: every client's first view of each announcement, from the referee's telling its outputs",
           "not measured; Mosquitto is C: the referee's side dominates"),
    Figure("kiosk frame p99 under that load (ms)", "bench_load.py",
           lambda r: cells(r, "mosquitto")[3].split("/")[1].strip(), "the kiosk's own frame time (dirty regions, "
           "dummy driver) during the load run", PI_CPU),
    Figure("referee CPU under that load (s/min)", "bench_load.py",
           lambda r: cells(r, "mosquitto")[6] + " (Mosquitto: " + cells(r, "mosquitto")[7] + ")",
           "CPU of the process holding the table, mirror and kiosk per minute of play; the broker's process "
           "beside it", PI_CPU),
    Figure("soak: RSS and file descriptors, start -> end (slope per hour)", "bench_soak.py",
           lambda r: f"{cells(r, 'RSS')[1]} -> {cells(r, 'RSS')[2]} ({cells(r, 'RSS')[3]}); "
           f"fds {cells(r, 'open file')[1]} -> {cells(r, 'open file')[2]} ({cells(r, 'open file')[3]})",
           "9-player Lockdown games with their phones back to back on a fake clock covering the hours given; "
           "sampled after each game", "not measured; memory per game is the same Python objects on a Pi"),
    Figure("event log per game", "bench_soak.py", lambda r: found(r, r"Event log per game: (\d+ KiB) of event JSON"),
           "the events' JSON of one 9-player, 6-round Lockdown game (203 inputs)", "the same on a Pi"),
    Figure("PN532: our driver vs Adafruit, tap latency p50 (ms)", "bench_pn532.py",
           lambda r: cells(r, "ours, default")[4] + " vs " + cells(r, "Adafruit, port timeout 0.1")[4],
           "same emulator in its own process, same pty; ours polls every 50 ms, Adafruit's library with its "
           "port timeout at 0.1 s", "not measured; both are bound by the serial link on a Pi"),
]


def _append_p99(r: str) -> str:
    for line in r.splitlines():
        if line.startswith("| `EventLog.append` | FULL"):
            return [c.strip() for c in line.strip().strip("|").split("|")][3]
    raise LookupError("no FULL append row")


def table(reports: Reports, commands: dict[str, str]) -> str:
    rows = ["| figure | this machine (x86) | method | on a Raspberry Pi | command |", "|---|---|---|---|---|"]
    for f in FIGURES:
        report = reports.get(f.source)
        try:
            value = f.value(report) if report is not None else "n/a (not run)"
        except (LookupError, IndexError, ValueError) as err:
            value = f"n/a ({err})"
        rows.append(f"| {f.name} | {value} | {f.method} | {f.pi} | `{commands.get(f.source, f.source)}` |")
    return "\n".join(rows)
