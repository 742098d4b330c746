"""Where the companion's time goes under load: bench_load's run with cProfile in every thread.

    python bench/profile_load.py [--spectators 200] [--inputs 203] [--rate 10] [--broker mosquitto] [--top 25]
                                 [--cpu] [--dump DIR]

cProfile profiles only the thread that enables it, so a `threading.setprofile` hook starts one
profiler per new thread (the table's loop, the mirror's network thread, the feeding thread) and the
main thread (the kiosk's loop) gets its own. Prints, per thread, the functions with the most own time
and the most cumulative time. Profiling slows everything down: read shares, not times. `--cpu` times
each function by its thread's CPU time (`time.thread_time`) instead of the wall clock, so a call
that lets the GIL go (paho's wake-up write, a socket send, SQLite's fsync) counts only what it ran.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import pstats
import sys
import threading
import time
from pathlib import Path
from typing import Any

import bench_load
from benchlib import disk_dir

from companion.kiosk.engine import open_display

PROFILES: dict[str, cProfile.Profile] = {}
CLOCKS: list[Any] = []  # the profilers' timer: empty for the wall clock, or [time.thread_time] (--cpu)


def _profiler() -> cProfile.Profile:
    return cProfile.Profile(*CLOCKS)


def _start(frame: Any, event: str, arg: Any) -> None:
    """The first profile event of a new thread: start that thread's own profiler (it replaces this hook)."""
    prof = PROFILES.setdefault(threading.current_thread().name, _profiler())
    prof.enable()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--spectators", type=int, default=200)
    parser.add_argument("--inputs", type=int, default=203)
    parser.add_argument("--rate", type=float, default=10.0)
    parser.add_argument("--broker", default="mosquitto")
    parser.add_argument("--top", type=int, default=25)
    parser.add_argument("--dump", default=None, help="a folder to write each thread's .pstats in")
    parser.add_argument("--cpu", action="store_true", help="time by each thread's CPU time, not the wall clock")
    args = parser.parse_args(argv)
    if args.cpu:
        CLOCKS.append(time.thread_time)
    where = disk_dir(None)
    open_display("800x480", False, "dummy")
    threading.setprofile(_start)
    main_prof = PROFILES["kiosk (main)"] = _profiler()
    main_prof.enable()
    result = bench_load.run(args.broker, args.spectators, args.inputs, args.rate, where)
    main_prof.disable()
    threading.setprofile(None)  # type: ignore[arg-type]
    print(f"load run: {result}\n")
    for name, prof in PROFILES.items():
        stats = pstats.Stats(prof, stream=(out := io.StringIO()))
        total = sum(t for (_cc, _nc, t, _ct, _callers) in stats.stats.values())  # type: ignore[attr-defined]
        if total < 0.05:
            continue
        print(f"## thread {name}: {total:.2f} s own time in all functions\n")
        stats.sort_stats("tottime").print_stats(args.top)
        stats.sort_stats("cumulative").print_stats(args.top)
        print(out.getvalue())
        if args.dump:
            Path(args.dump).mkdir(parents=True, exist_ok=True)
            prof.dump_stats(str(Path(args.dump) / f"{name.replace(' ', '_')}.pstats"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
