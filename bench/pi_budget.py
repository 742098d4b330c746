"""The Pi Zero 2 W budget (issue 20): every figure of its table, a baseline tree and this one side by side.

Run from the repository root::

    python bench/pi_budget.py [--baseline PATH | --baseline-commit 2044f1c] [--quick] [--write-docs]
    python bench/pi_budget.py --only rss --rounds 3   # the RSS rows only (a few seconds a round)
    python bench/pi_budget.py --only load --rounds 3  # bench_load.py's rows only (about a minute a round)

The baseline is the code of `--baseline-commit` (default 2044f1c, the main the issue measured),
checked out by this script into a temporary `git worktree` and removed afterwards, or a tree given
with `--baseline PATH`. Both trees are measured by the SAME benchmark scripts (this tree's
bench/bench_kiosk.py, bench_load.py and bench_mqtt.py, with `--json`), each run in its own process
with `PYTHONPATH=<tree>`, so the `companion` package imported is that tree's and only the measured
code differs. The runs alternate, benchmark by benchmark: baseline then current, back to back on the
same machine, `--rounds` times (the figure kept is the median over rounds).

Prints a markdown table (row, baseline, current, ratio current / baseline, goal, met?) and the load
average; `--write-docs` puts it in docs/performance.md between `<!-- budget:start -->` and
`<!-- budget:end -->`. Asserts nothing about time.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
DOCS = ROOT / "docs" / "performance.md"
START, END = "<!-- budget:start -->", "<!-- budget:end -->"

FULL = {
    "bench_kiosk.py": ["--seconds", "6", "--taps", "15", "--idle", "0.5"],
    "bench_load.py": ["--spectators", "200", "--inputs", "203", "--rate", "10"],
    "bench_mqtt.py": ["--events", "200", "--rate", "20", "--subscribers", "50"],
}
QUICK = {
    "bench_kiosk.py": ["--seconds", "1", "--taps", "3", "--idle", "0.2", "--startup-runs", "1"],
    "bench_load.py": ["--spectators", "5", "--inputs", "20", "--rate", "40"],
    "bench_mqtt.py": ["--events", "10", "--rate", "50", "--subscribers", "2"],
}

Figures = dict[str, Any]
# row, how to read it from the three benchmarks' figures, the goal as text, and the test of the goal
# (given the current and the baseline value). "keep" rows allow 25 % of noise over the baseline.


def _load(kind: str, key: str) -> Callable[[Figures], float]:
    return lambda f: float(f["bench_load.py"][kind][key])


def _threads(kind: str, name: str) -> Callable[[Figures], float]:
    return lambda f: float(f["bench_load.py"][kind]["threads_cpu_per_min"][name])


def _kiosk(key: str) -> Callable[[Figures], float]:
    return lambda f: float(f["bench_kiosk.py"][key])


def _at_most(limit: float) -> Callable[[float, float], bool]:
    return lambda current, _base: current <= limit


def _keep(limit: float | None = None) -> Callable[[float, float], bool]:
    return lambda current, base: current <= base * 1.25 and (limit is None or current <= limit)


Row = tuple[str, Callable[[Figures], float], str, Callable[[float, float], bool], str]
ROWS: list[Row] = [
    ("tap to screen p50, idle table (ms)", _kiosk("tap_p50_ms"), "keep", _keep(), "{:.1f}"),
    ("tap to screen p99, idle table (ms)", _kiosk("tap_p99_ms"), "keep", _keep(), "{:.1f}"),
    ("kiosk frame p99 under load, Mosquitto (ms)", _load("mosquitto", "frame_p99"), "<= 16.7",
     _at_most(16.7), "{:.1f}"),
    ("kiosk thread's CPU per frame p99 under load, Mosquitto (ms)", _load("mosquitto", "frame_cpu_p99"),
     "<= 16.7", _at_most(16.7), "{:.1f}"),
    ("event to phone p99 under load, Mosquitto (ms)", _load("mosquitto", "lat_p99"), "<= 25",
     _at_most(25), "{:.1f}"),
    ("event to phone p50 under load, Mosquitto (ms)", _load("mosquitto", "lat_p50"), "-", lambda c, b: True,
     "{:.1f}"),
    ("event to the first phone p99 under load, Mosquitto (ms: without the fan-out)", _load("mosquitto", "first_p99"),
     "-", lambda c, b: True, "{:.1f}"),
    ("companion CPU under load, Mosquitto (s/min)", _load("mosquitto", "cpu_per_min"), "<= 1.0",
     _at_most(1.0), "{:.2f}"),
    ("the table thread's CPU under load, Mosquitto (s/min; views, referee, log, publishing)",
     _threads("mosquitto", "table"), "-", lambda c, b: True, "{:.2f}"),
    ("the kiosk thread's CPU under load, Mosquitto (s/min)", _threads("mosquitto", "MainThread"), "-",
     lambda c, b: True, "{:.2f}"),
    ("paho's thread's CPU under load, Mosquitto (s/min)", _threads("mosquitto", "paho"), "-", lambda c, b: True,
     "{:.2f}"),
    ("Mosquitto CPU under load (s/min)", _load("mosquitto", "broker_cpu_per_min"), "-",
     lambda c, b: True, "{:.2f}"),
    ("RSS, every font open, every screen drawn (MiB)", _kiosk("rss_fonts_mib"), "<= 60", _at_most(60), "{:.1f}"),
    ("RSS as above after `malloc_trim` (MiB, freed memory glibc kept)", _kiosk("rss_trimmed_mib"), "-",
     lambda c, b: True, "{:.1f}"),
    ("idle CPU, play screen, running timer (s/min)", _kiosk("idle_cpu_s_per_min"), "<= 0.3", _keep(0.3), "{:.2f}"),
    ("start-up to the first frame, font cache warm (ms)", _kiosk("startup_ms"), "<= 800", _keep(800), "{:.0f}"),
]


def run(tree: Path, script: str, args: list[str], where: Path) -> dict[str, Any]:
    """One benchmark in its own process, measuring the `companion` of `tree`; its JSON figures."""
    extra = ["--dir", str(where)] if script != "bench_mqtt.py" else []
    env = {**os.environ, "PYTHONPATH": str(tree), "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    proc = subprocess.run([sys.executable, str(HERE / script), *args, *extra, "--json"], env=env, cwd=tree,
                          capture_output=True, text=True)
    if proc.returncode != 0:
        sys.stderr.write(proc.stderr)
        raise SystemExit(f"{script} on {tree} failed with exit code {proc.returncode}")
    return dict(json.loads(proc.stdout.strip().splitlines()[-1]))


def median_figures(runs: list[Figures]) -> Figures:
    """The median of every number over rounds (same shape as one round's figures)."""
    first = runs[0]
    if isinstance(first, dict):
        return {k: median_figures([r[k] for r in runs]) for k in first}
    if isinstance(first, (int, float)) and not isinstance(first, bool):
        return statistics.median(runs)
    return first


def measure(trees: dict[str, Path], benches: dict[str, list[str]], rounds: int, where: Path) -> dict[str, Figures]:
    got: dict[str, list[Figures]] = {side: [] for side in trees}
    for _ in range(rounds):
        figures: dict[str, Figures] = {side: {} for side in trees}
        for script, args in benches.items():
            for side, tree in trees.items():  # back to back, the same benchmark
                print(f"pi_budget: {script} on {side} ({tree})", file=sys.stderr)
                figures[side][script] = run(tree, script, args, where)
        for side in trees:
            got[side].append(figures[side])
    return {side: median_figures(runs) for side, runs in got.items()}


def table(results: dict[str, Figures], rows: list[Row] | None = None) -> str:
    out = ["| row | baseline | current | ratio | goal | met? |", "|---|---:|---:|---:|---|---|"]
    for name, read, goal, ok, form in ROWS if rows is None else rows:
        base, cur = read(results["baseline"]), read(results["current"])
        ratio = f"{cur / base:.2f}" if base else "-"
        met = "-" if goal == "-" else ("yes" if ok(cur, base) else "no")
        out.append(f"| {name} | {form.format(base)} | {form.format(cur)} | {ratio} | {goal} | {met} |")
    return "\n".join(out)


def report(results: dict[str, Figures], labels: dict[str, str], label: str, loads: tuple[float, float],
           benches: dict[str, list[str]], rounds: int, rows: list[Row] | None = None) -> str:
    now = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
    commands = "; ".join(f"`{s} {' '.join(a)}`" for s, a in benches.items())
    return "\n".join([
        (f"Measured by `python bench/pi_budget.py --only {label}` on {now}. " if label in ("rss", "load") else
         f"Generated by `python bench/pi_budget.py{' --quick' if label == 'quick' else ''} --write-docs` on "
         f"{now}; do not edit by hand. ") + f"Baseline: {labels['baseline']}; current: {labels['current']}. "
        f"{os.cpu_count()} CPUs; 1-min load average {loads[0]:.2f} before, {loads[1]:.2f} after. "
        f"Median of {rounds} round(s) of {commands}.",
        "",
        table(results, rows),
    ])


def revision(tree: Path) -> str:
    def git(*args: str) -> str:
        return subprocess.run(["git", "-C", str(tree), *args], capture_output=True, text=True).stdout.strip()
    head = git("rev-parse", "--short", "HEAD") or "?"
    return head + ("-dirty" if git("status", "--porcelain", "--untracked-files=no") else "")


def write_docs(text: str) -> None:
    doc = DOCS.read_text(encoding="utf-8")
    if START not in doc or END not in doc:
        raise SystemExit(f"{DOCS} has no {START} ... {END} markers")
    head, rest = doc.split(START, 1)
    DOCS.write_text(head + START + "\n" + text + "\n" + END + rest.split(END, 1)[1], encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--baseline", default=None, help="a tree to measure as the baseline (default: a worktree)")
    parser.add_argument("--baseline-commit", default="2044f1c", help="the commit checked out as the baseline")
    parser.add_argument("--quick", action="store_true", help="tiny sizes: proves it runs, figures meaningless")
    parser.add_argument("--rounds", type=int, default=1, help="rounds of every benchmark on both trees (1)")
    parser.add_argument("--write-docs", action="store_true", help="put the table in docs/performance.md")
    parser.add_argument("--dir", default=None, help="where the SQLite logs go (a real disk)")
    parser.add_argument("--only", choices=["rss", "load"], default=None,
                        help="only these rows (rss: bench_kiosk.py --rss-only; load: bench_load.py's rows; "
                             "the other rows are left out)")
    args = parser.parse_args(argv)
    if args.write_docs and args.only:
        parser.error("--write-docs writes the whole table: run it without --only")
    sys.path.insert(0, str(HERE))
    from benchlib import disk_dir

    where = disk_dir(args.dir)
    benches = QUICK if args.quick else FULL
    rows = ROWS
    if args.only == "rss":
        benches = {"bench_kiosk.py": ["--rss-only"]}
        rows = [row for row in ROWS if row[0].startswith("RSS")]
    elif args.only == "load":
        benches = {"bench_load.py": benches["bench_load.py"]}
        rows = [row for row in ROWS if "under load" in row[0]]
    made: Path | None = None
    if args.baseline is None:
        made = Path(tempfile.mkdtemp(prefix="pi-budget-")) / "baseline"
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(made), args.baseline_commit],
                       check=True, capture_output=True)
    baseline = Path(args.baseline) if args.baseline else made
    assert baseline is not None
    trees = {"baseline": baseline.resolve(), "current": ROOT}
    loads = os.getloadavg()[0], 0.0
    try:
        results = measure(trees, benches, args.rounds, where)
    finally:
        if made is not None:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(made)], capture_output=True)
    loads = loads[0], os.getloadavg()[0]
    labels = {"baseline": f"`{args.baseline}`" if args.baseline else f"commit {args.baseline_commit}",
              "current": f"`{revision(ROOT)}`"}
    label = args.only or ("quick" if args.quick else "full")
    text = report(results, labels, label, loads, benches, args.rounds, rows)
    print(text)
    if args.write_docs:
        write_docs(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
