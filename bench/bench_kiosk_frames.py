"""The kiosk's frames of the 9-player Lockdown game, one by one: which frames cost the most of the
kiosk thread's own CPU, and what they drew.

    python bench/bench_kiosk_frames.py [--inputs 203] [--lang en] [--top 10] [--json] [--repeat 1]

With the loop's frame budget (`Kiosk.run`'s `FRAME_BUDGET_S`) unless `--whole`: a frame that left
regions to draw is followed by the turns that draw them, each a frame of its own.

The scripted game (docs/games/lockdown/lockdown-9p.jsonl, bench_load's) is played on ONE thread, no
broker and no phones: each input goes to a real Table (SQLite in memory) and then the kiosk handles
the views it was told of and draws its frame (`Kiosk.process`, as its loop does). Each frame's
`time.thread_time()` (its own CPU, no GIL waits: there is no other thread) and `perf_counter()` are
taken, and each region drawn in it is timed apart. Under load (bench_load) the same frames also wait
for the GIL; this measures the work the frame itself does, so it is steady from run to run.

With `--repeat N` the whole game is played N times in the same process (a new table and kiosk each
time, the same fonts), so the later rounds show the frames with the text cache warm.
Prints markdown (or JSON); asserts nothing.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections import defaultdict
from typing import Any

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import bench_load
import pygame
from benchlib import percentile

from companion.core.eventlog import EventLog, setup_from_json
from companion.core.referee import Referee
from companion.drawing.text import TextCache
from companion.games import registry
from companion.kiosk import kiosk as kiosk_mod
from companion.kiosk.engine import build, fonts, open_display
from companion.kiosk.kiosk import Kiosk, Settings
from companion.kiosk.widgets import Region
from companion.status import StatusBoard
from companion.table.loop import Table


def timed_regions(kiosk: Kiosk, spent: dict[str, float]) -> None:
    """Each region's draw timed into `spent` (thread CPU ms, by region name), for this bench only."""
    regions = kiosk.regions

    def wrapped() -> list[Region]:
        out = []
        for r in regions():
            def draw(surface: pygame.Surface, rect: pygame.Rect, _r: Region = r) -> None:
                t0 = time.thread_time()
                try:
                    _r.draw(surface, rect)
                finally:
                    spent[_r.name] += (time.thread_time() - t0) * 1000
            out.append(Region(r.name, r.rect, r.key, draw, r.audience))
        return out

    kiosk.regions = wrapped  # type: ignore[method-assign]


def play(text: TextCache, n_inputs: int, lang: str, spread: bool = True) -> list[dict[str, Any]]:
    setup, inputs = bench_load.script()
    table = Table(Referee.start(registry(), EventLog(":memory:"), setup_from_json(setup), created_at=0))
    kiosk = build(pygame.display.get_surface(), table, registry(), Settings(lang=lang, attract=False),
                  StatusBoard(), text=text)
    kiosk.process()  # the first frame: fonts opened, catalogs read (the start-up's, not the game's)
    frames: list[dict[str, Any]] = []
    budget = [kiosk_mod.FRAME_BUDGET_S] if spread and hasattr(kiosk_mod, "FRAME_BUDGET_S") else []
    for k, raw in enumerate(inputs[:n_inputs]):
        table.handle(raw)
        while True:  # a frame, and the turns after it while it left regions to draw (the loop's budget)
            spent: dict[str, float] = defaultdict(float)
            timed_regions(kiosk, spent)
            before = kiosk.frames
            cpu0, wall0 = time.thread_time(), time.perf_counter()
            kiosk.process(*budget)
            cpu, wall = (time.thread_time() - cpu0) * 1000, (time.perf_counter() - wall0) * 1000
            del kiosk.regions  # back to the class's method
            if kiosk.frames > before:
                frames.append({"input": k, "move": raw.get("move"), "cpu_ms": cpu, "wall_ms": wall,
                               "screen": kiosk.top.name, "regions": dict(spent)})
            if not getattr(kiosk, "_more", False):
                break
    kiosk.close()
    return frames


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--inputs", type=int, default=203)
    parser.add_argument("--lang", default="en")
    parser.add_argument("--top", type=int, default=10, help="the longest frames listed")
    parser.add_argument("--repeat", type=int, default=1, help="play the game this many times (same fonts)")
    parser.add_argument("--whole", action="store_true", help="every frame drawn whole (no frame budget)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    open_display("800x480", False, "dummy")
    text = fonts()
    rounds = [play(text, args.inputs, args.lang, not args.whole) for _ in range(args.repeat)]
    out = []
    for frames in rounds:
        cpu = sorted(f["cpu_ms"] for f in frames)
        by_region: dict[str, float] = defaultdict(float)
        for f in frames:
            for name, ms in f["regions"].items():
                by_region[name] += ms
        out.append({"frames": len(frames), "cpu_p50": percentile(cpu, 0.5), "cpu_p90": percentile(cpu, 0.9),
                    "cpu_p99": percentile(cpu, 0.99), "cpu_max": cpu[-1] if cpu else 0.0,
                    "cpu_total": sum(cpu), "over_16_7": sum(1 for c in cpu if c > 1000 / 60),
                    "regions_total": dict(by_region),
                    "longest": sorted(frames, key=lambda f: -f["cpu_ms"])[:args.top]})
    if args.json:
        print(json.dumps(out))
        return 0
    for n, r in enumerate(out, 1):
        print(f"## round {n}: {r['frames']} frames, CPU per frame p50 {r['cpu_p50']:.2f} / p90 {r['cpu_p90']:.2f}"
              f" / p99 {r['cpu_p99']:.2f} / max {r['cpu_max']:.2f} ms, {r['cpu_total']:.0f} ms in all,"
              f" {r['over_16_7']} over 16.7 ms\n")
        print("regions, ms in all: " + ", ".join(f"{k} {v:.1f}" for k, v in
                                                sorted(r["regions_total"].items(), key=lambda kv: -kv[1])))
        print("\n| input | move | CPU ms | wall ms | regions (ms) |\n|---:|---|---:|---:|---|")
        for f in r["longest"]:
            regs = ", ".join(f"{k} {v:.1f}" for k, v in sorted(f["regions"].items(), key=lambda kv: -kv[1]))
            print(f"| {f['input']} | {f['move']} | {f['cpu_ms']:.2f} | {f['wall_ms']:.2f} | {regs} |")
        print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
