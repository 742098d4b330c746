"""Append latency of the SQLite event log at each `synchronous` level, and `Referee.submit` end to end.

Run from the repository root::

    python bench/bench_eventlog.py [--count 2000] [--dir DIR]

Every figure is measured on a real SQLite file (WAL, as the app opens it) in a temporary directory on a
real disk: a RAM-backed /tmp (tmpfs) would make every fsync free and the figures meaningless, so such a
directory is skipped (or flagged, if named with --dir). The inputs are realistic toolkit inputs (votes,
timer starts and pauses, counter changes, dice) of about 150 bytes of JSON each, with a command id as a
phone sends it.

- `EventLog.append` at OFF, NORMAL, FULL and EXTRA: the time of one call (one INSERT in autocommit, i.e.
  one transaction), over `--count` appends per level after a short warm-up. The levels run interleaved
  in rounds, each on its own file, so a drift of the disk during the run is shared fairly.
- `Referee.submit` end to end (authorize, copy of the state by `step`, validate, apply, append) at
  FULL, the level the app uses, and at OFF, which leaves the CPU part alone. The copy (`copy_state`, a
  pickle round trip) is of the whole state, so the cost grows with it: the report gives its size.

Prints a markdown table in microseconds; asserts nothing about time.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sqlite3
import sys
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

from benchlib import disk_dir, filesystem, fmt, json_values, summary

from companion.core.contract import Player, Setup, State
from companion.core.eventlog import SYNCHRONOUS_LEVELS, EventLog
from companion.core.inputs import Input
from companion.core.referee import Referee
from companion.games import registry

CHOSEN = "FULL"  # the app's level: see the module docstring of companion/core/eventlog.py
PLAYERS = ("ana", "ben", "chen", "dara", "eli", "fay")
OPTIONS = ("guilty", "innocent", "abstain")
WARMUP = 20
ROUNDS = 4


# -- inputs ---------------------------------------------------------------------------------------------


def setup() -> Setup:
    return Setup("toolkit", tuple(Player(p, p.title()) for p in PLAYERS), {}, 20240607)


def append_inputs(count: int, seed: int = 7) -> list[Input]:
    """A stream of realistic toolkit inputs as the log stores them (validity does not matter here)."""
    rng = random.Random(seed)
    out: list[Input] = []
    at = 0
    for i in range(count):
        at += rng.randint(200, 4000)
        pid = PLAYERS[i % len(PLAYERS)]
        cid = str(uuid.UUID(int=rng.getrandbits(128)))
        kind = i % 5
        if kind in (0, 1):
            inp = Input("ballot.vote", f"player:{pid}", {"name": "round-12", "option": "guilty"}, at, cid)
        elif kind == 2:
            inp = Input("timer.start", "host", {"name": "discussion"}, at, cid)
        elif kind == 3:
            inp = Input("counter.adjust", "host", {"name": "hp", "player": pid, "delta": -2}, at, cid)
        else:
            inp = Input("dice.roll", f"player:{pid}", {"count": 2, "sides": 6}, at, cid)
        out.append(inp)
    return out


def json_size(inp: Input) -> int:
    return len(json.dumps(inp.to_json(), ensure_ascii=False, sort_keys=True).encode())


class SubmitStream:
    """Accepted inputs for a toolkit game in steady state: votes, counters, a timer, dice."""

    def __init__(self, seed: int = 11) -> None:
        self.rng = random.Random(seed)
        self.at = 0
        self.i = 0
        self.paused = False

    def _cid(self) -> str:
        return str(uuid.UUID(int=self.rng.getrandbits(128)))

    def opening(self) -> list[Input]:
        return [
            Input("timer.create", "host", {"name": "discussion", "seconds": 86400, "warnings": [60]}, 0),
            Input("timer.start", "host", {"name": "discussion"}, 0),
            Input("ballot.open", "host", {"name": "round-1", "options": list(OPTIONS)}, 0),
            Input("counter.create", "host", {"name": "hp", "initial": 10, "low": 0, "high": 20}, 0),
        ]

    def __iter__(self) -> Iterator[Input]:
        return self

    def __next__(self) -> Input:
        self.i += 1
        self.at += self.rng.randint(200, 4000)
        pid = PLAYERS[self.i % len(PLAYERS)]
        kind = self.i % 10
        if kind < 5:
            args = {"name": "round-1", "option": self.rng.choice(OPTIONS)}
            return Input("ballot.vote", f"player:{pid}", args, self.at, self._cid())
        if kind < 7:
            args = {"name": "hp", "player": pid, "delta": self.rng.choice([-2, -1, 1])}
            return Input("counter.adjust", "host", args, self.at, self._cid())
        if kind == 7:
            self.paused = not self.paused
            move = "timer.pause" if self.paused else "timer.resume"
            return Input(move, "host", {"name": "discussion"}, self.at, self._cid())
        if kind == 8:
            return Input("counter.adjust", f"player:{pid}", {"name": "hp", "delta": -1}, self.at, self._cid())
        return Input("dice.roll", f"player:{pid}", {"count": 2, "sides": 6}, self.at, self._cid())


# -- the runs -------------------------------------------------------------------------------------------


def bench_appends(base: Path, count: int) -> dict[str, dict[str, float]]:
    """Append latency per level; the levels take turns in ROUNDS rounds, each on its own file."""
    inputs = append_inputs(WARMUP + count)
    logs = {lvl: EventLog(base / f"append-{lvl.lower()}.sqlite3", lvl) for lvl in SYNCHRONOUS_LEVELS}
    games = {lvl: log.create_game(setup(), 0) for lvl, log in logs.items()}
    samples: dict[str, list[int]] = {lvl: [] for lvl in SYNCHRONOUS_LEVELS}
    try:
        for lvl, log in logs.items():
            for seq, inp in enumerate(inputs[:WARMUP], start=1):
                log.append(games[lvl], seq, inp)
        chunk = math.ceil(count / ROUNDS)
        for start in range(WARMUP, WARMUP + count, chunk):
            stop = min(start + chunk, WARMUP + count)
            for lvl, log in logs.items():
                append, game_id, out = log.append, games[lvl], samples[lvl]
                for seq in range(start + 1, stop + 1):
                    inp = inputs[seq - 1]
                    t0 = time.perf_counter_ns()
                    append(game_id, seq, inp)
                    out.append(time.perf_counter_ns() - t0)
        for lvl, log in logs.items():
            if len(log.events(games[lvl])) != WARMUP + count:
                raise SystemExit(f"{lvl}: the log does not hold every appended event")
    finally:
        for log in logs.values():
            log.close()
    return {lvl: summary(ns) for lvl, ns in samples.items()}


def bench_submit(base: Path, count: int, level: str) -> tuple[dict[str, float], State]:
    """`Referee.submit` latency on a fresh toolkit game; also its state at the end."""
    log = EventLog(base / f"submit-{level.lower()}.sqlite3", synchronous=level)
    try:
        referee = Referee.start(registry(), log, setup(), 0)
        stream = SubmitStream()
        for inp in stream.opening():
            _accept(referee.submit, inp)
        for _ in range(WARMUP):
            _accept(referee.submit, next(stream))
        ns: list[int] = []
        submit = referee.submit
        for _ in range(count):
            inp = next(stream)
            t0 = time.perf_counter_ns()
            outcome = submit(inp)
            ns.append(time.perf_counter_ns() - t0)
            if not outcome.accepted:
                raise SystemExit(f"submit rejected {inp.move}: {outcome.reason}")
        return summary(ns), referee.state
    finally:
        log.close()


def _accept(submit: Callable[[Input], object], inp: Input) -> None:
    outcome = submit(inp)
    if not getattr(outcome, "accepted", False):
        raise SystemExit(f"setup input rejected: {inp.move}: {getattr(outcome, 'reason', '?')}")


# -- output ---------------------------------------------------------------------------------------------


def _row(what: str, level: str, s: dict[str, float], ref: float) -> str:
    cells = [what, level, fmt(s["p50"]), fmt(s["p99"]), fmt(s["max"]), f"{s['p50'] / ref:.2f}×"]
    return "| " + " | ".join(cells) + " |"


def markdown(
    appends: dict[str, dict[str, float]], submits: dict[str, dict[str, float]], count: int, sizes: list[int]
) -> str:
    ref = appends[CHOSEN]["p50"]
    lines = [
        f"#### Event log append latency ({count} appends per row, µs)",
        "",
        "| what | synchronous | p50 µs | p99 µs | max µs | p50 vs FULL append |",
        "| --- | --- | ---: | ---: | ---: | ---: |",
    ]
    for lvl in SYNCHRONOUS_LEVELS:
        level = lvl + (" (chosen)" if lvl == CHOSEN else "")
        lines.append(_row("`EventLog.append`", level, appends[lvl], ref))
    for lvl, s in submits.items():
        what = "`Referee.submit` end to end" + (" (CPU part only)" if lvl == "OFF" else "")
        lines.append(_row(what, lvl, s, ref))
    lines += [
        "",
        f"Input JSON as stored: mean {sum(sizes) / len(sizes):.0f} B, {min(sizes)}-{max(sizes)} B. "
        f"FULL costs {appends['FULL']['p50'] / appends['NORMAL']['p50']:.1f}× NORMAL at p50 "
        f"(+{fmt(appends['FULL']['p50'] - appends['NORMAL']['p50'])} µs per input).",
    ]
    return "\n".join(lines)


def closing(where: Path, end_state: State) -> str:
    """The note under the table: where the files were, and how big the submit game's state grew."""
    device, mount, fstype = filesystem(where)
    return (
        f"Files in {where} on {device} ({fstype}, mounted at {mount}); SQLite {sqlite3.sqlite_version}, "
        f"WAL. The submit game's state holds {json_values(end_state):,} JSON values at its end "
        f"({len(end_state['announcements'])} announcements kept of {end_state['announced']}, "
        f"{len(end_state['rolls'])} rolls); each submit copies the whole state, so its cost grows with it."
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--count", type=int, default=2000, help="measured appends/submits per row (2000)")
    parser.add_argument("--dir", default=None, help="where to create the temporary SQLite files")
    args = parser.parse_args(argv)
    if args.count < 1:
        parser.error("--count must be at least 1")
    where = disk_dir(args.dir)
    sizes = [json_size(i) for i in append_inputs(WARMUP + args.count)]
    with tempfile.TemporaryDirectory(prefix="companion-bench-", dir=where) as tmp:
        appends = bench_appends(Path(tmp), args.count)
        submit_full, end_state = bench_submit(Path(tmp), args.count, CHOSEN)
        submit_off, _ = bench_submit(Path(tmp), args.count, "OFF")
    print(markdown(appends, {CHOSEN: submit_full, "OFF": submit_off}, args.count, sizes))
    print(f"\n{closing(where, end_state)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
