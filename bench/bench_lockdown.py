"""Lockdown: how long a 9-player settlement takes, and a whole 6-round game's replay.

Run from the repository root::

    python bench/bench_lockdown.py [--samples 300] [--repeat 5] [--dir DIR]

The 9-player game is the scripted demo docs/games/lockdown/lockdown-9p.jsonl (bots at every seat,
played to the end of round 6). Measured:

- settlement: `settlement.settle` alone (steps 1-7 and the HP shown) on the state just before each of
  the game's six settlements, `--samples` calls in all (each on a fresh copy made outside the timing);
  and the whole live input that triggers it (the last `lockdown.end_turn` of the round through
  `fold.step`: authorize, copy the state, end the turn, settle, deal the next round);
- replay: `fold` of the game's inputs, and a `Referee(...)` reopen from the SQLite file (what a restart
  does), `--repeat` times each, p50.

Baseline, side by side: the toolkit demo (companion/scripts/toolkit-demo.jsonl) folded the same way,
per event; the ratio says how much more a Lockdown event costs than a toolkit event. Asserts nothing.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

from benchlib import disk_dir, fmt, json_values, p50, peak_rss_mib, summary

from companion.core.contract import Ctx, Setup, State
from companion.core.eventlog import EventLog, setup_from_json
from companion.core.fold import copy_state, fold, initial, step
from companion.core.inputs import Input
from companion.core.referee import Referee
from companion.games import registry
from companion.games.lockdown import settlement
from companion.scripting import ClockStep, parse, run

ROOT = Path(__file__).resolve().parent.parent
LOCKDOWN = ROOT / "docs" / "games" / "lockdown" / "lockdown-9p.jsonl"
TOOLKIT = ROOT / "companion" / "scripts" / "toolkit-demo.jsonl"


def load(path: Path) -> tuple[Setup, list[Input]]:
    setup_obj, steps = parse(path.read_text(encoding="utf-8").splitlines())
    return setup_from_json({"seed": 0, **setup_obj}), [s for _, s in steps if not isinstance(s, ClockStep)]


def before_settlements(setup: Setup, inputs: list[Input]) -> list[tuple[State, Input]]:
    """The state just before each input that ends a round (it triggers the settlement), with that input."""
    game = registry()["lockdown"]
    state = initial(game, setup)
    out = []
    for inp in inputs:
        nxt = step(game, state, inp)
        if (nxt["round"] != state["round"] and state["round"] > 0) or (nxt["ended"] and not state["ended"]):
            out.append((state, inp))
        state = nxt
    return out


def time_settle(points: list[tuple[State, Input]], samples: int) -> dict[str, float]:
    ns = []
    for i in range(samples):
        state = copy_state(points[i % len(points)][0])
        state["phase"] = "settlement"
        ctx = Ctx(state=state, by="player:x", role="player", player="x", at=0)
        t0 = time.perf_counter_ns()
        settlement.settle(ctx)
        ns.append(time.perf_counter_ns() - t0)
    return summary(ns)


def time_live(points: list[tuple[State, Input]], samples: int) -> dict[str, float]:
    game = registry()["lockdown"]
    ns = []
    for i in range(samples):
        state, inp = points[i % len(points)]
        t0 = time.perf_counter_ns()
        step(game, state, inp)
        ns.append(time.perf_counter_ns() - t0)
    return summary(ns)


def time_fold(game_id: str, setup: Setup, inputs: list[Input], repeat: int) -> tuple[float, State]:
    game = registry()[game_id]
    times, state = [], {}
    for _ in range(repeat):
        t0 = time.perf_counter()
        state = fold(game, setup, inputs)
        times.append(time.perf_counter() - t0)
    return p50(times), state


def time_reopen(path: Path, where: Path, repeat: int) -> tuple[float, int]:
    with tempfile.TemporaryDirectory(prefix="companion-bench-", dir=where) as tmp:
        db = Path(tmp) / "lockdown.sqlite3"
        ref = run(registry(), EventLog(db), path.read_text(encoding="utf-8").splitlines())
        game_id, events = ref.game_id, len(ref.events)
        ref.log.close()
        times = []
        for _ in range(repeat):
            log = EventLog(db)
            t0 = time.perf_counter()
            Referee(registry(), log, game_id)
            times.append(time.perf_counter() - t0)
            log.close()
    return p50(times), events


def report(samples: int, repeat: int, where: Path) -> str:
    rss_start = peak_rss_mib()
    setup, inputs = load(LOCKDOWN)
    points = before_settlements(setup, inputs)
    settle = time_settle(points, samples)
    live = time_live(points, samples)
    fold_s, final = time_fold("lockdown", setup, inputs, repeat)
    reopen_s, events = time_reopen(LOCKDOWN, where, repeat)
    tk_setup, tk_inputs = load(TOOLKIT)
    tk_s, _ = time_fold("toolkit", tk_setup, tk_inputs, max(repeat, 20))
    per_ld = fold_s / len(inputs) * 1e6
    per_tk = tk_s / len(tk_inputs) * 1e6
    lines = [
        f"#### Lockdown, 9 players ({LOCKDOWN.name}: {len(inputs)} inputs, {len(points)} settlements)",
        "",
        "| what | p50 | p99 | max | n |",
        "| --- | ---: | ---: | ---: | ---: |",
        f"| `settlement.settle` alone (steps 1-7, HP shown) | {fmt(settle['p50'])} µs | {fmt(settle['p99'])} µs "
        f"| {fmt(settle['max'])} µs | {settle['n']:.0f} |",
        f"| the live input that settles (`step` of the round's last `end_turn`) | {fmt(live['p50'])} µs "
        f"| {fmt(live['p99'])} µs | {fmt(live['max'])} µs | {live['n']:.0f} |",
        "",
        "| replay (p50) | ms | µs per event | vs. toolkit per event |",
        "| --- | ---: | ---: | ---: |",
        f"| `fold` of the whole 6-round game | {fold_s * 1000:,.1f} | {fmt(per_ld)} | {per_ld / per_tk:.1f}× |",
        f"| `Referee(...)` reopen from SQLite ({events} events) | {reopen_s * 1000:,.1f} "
        f"| {fmt(reopen_s / events * 1e6)} | {reopen_s / events * 1e6 / per_tk:.1f}× |",
        f"| baseline: `fold` of the toolkit demo ({len(tk_inputs)} events) | {tk_s * 1000:,.2f} | {fmt(per_tk)} "
        "| 1.0× |",
        "",
        f"The final state holds {json_values(final):,} JSON values ({len(json.dumps(final)) / 1024:,.0f} KiB of "
        f"JSON; the map is part of it). Peak RSS {peak_rss_mib():.0f} MiB (after imports {rss_start:.0f} MiB).",
    ]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--samples", type=int, default=300, help="settlements timed (300)")
    parser.add_argument("--repeat", type=int, default=5, help="runs of each replay; the p50 is printed (5)")
    parser.add_argument("--dir", default=None, help="where to create the temporary SQLite file")
    args = parser.parse_args(argv)
    if args.samples < 1 or args.repeat < 1:
        parser.error("--samples and --repeat must be at least 1")
    print(report(args.samples, args.repeat, disk_dir(args.dir)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
