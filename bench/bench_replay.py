"""Replay throughput: how fast a restart turns the event log back into the game state.

Run from the repository root::

    python bench/bench_replay.py [--count 1000] [--repeat 3] [--undo-every 7] [--live 300] [--dir DIR]

A toolkit game of about `--count` events is played through the real `Referee` onto a real SQLite file
(WAL, synchronous=FULL as the app opens it) on a real disk, as a table would play it: six players,
one round after another with a turn timer (started, sometimes paused and extended; its warnings and
expiry come from the clock as in the live loop), a secret ballot with everyone voting, hidden counters
changed by the host and by players, dice, and every `--undo-every` rounds a host mistake taken back by
`host.undo`. Then, `--repeat` times each (the p50 is printed):

- reopen: `EventLog(path)` + `Referee(...)`, what a restart does (open, read and decode every row,
  apply the corrections, fold);
- read: `EventLog.events` alone (SQLite read, JSON decode, `Input.from_json`);
- fold: `fold(game, setup, inputs)` as shipped, on the effective inputs already in memory. It applies
  each input to the one state in place (`fold.apply_in_place`): the inputs were all accepted when logged, and
  if one is refused now the whole replay is abandoned, so no step needs a copy to fall back on;
- baseline: the naive design, `copy.deepcopy` of the state before every step (what `fold` did when it
  went through `step`), then the same `apply_in_place`. The ratio baseline / fold is the price of copying the
  state at every step of a replay. The final states of fold, baseline and reopen are compared, so the
  two replays cannot drift apart unnoticed.

A fold of each prefix of 1/8, 1/4 and 1/2 of the log, by both designs, shows how the cost per event
grows with the game: the state keeps every ballot and roll, so a per-step copy grows with it.

The live path still copies: `step` must leave the state untouched when an input is refused half-way,
so it copies the state (`copy_state`, a pickle round trip) before applying. A small table times `step`
against the same step with `copy.deepcopy`, on the states after 1/8 of the log and at its end, with a
rotation of inputs a table sends at any time (dice, host and player counter changes), all accepted;
`step` never changes the state it is given, so every call does the same work. `--live` calls each.

Peak RSS is the process's high-water mark (`resource.getrusage`). Asserts nothing about time.
"""

from __future__ import annotations

import argparse
import copy
import random
import sqlite3
import sys
import tempfile
import time
import uuid
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from benchlib import disk_dir, filesystem, fmt, json_values, p50, peak_rss_mib

from companion.core import corrections
from companion.core.clock import advance
from companion.core.contract import Game, Player, Setup, State
from companion.core.corrections import Event
from companion.core.eventlog import EventLog
from companion.core.fold import apply_in_place, copy_state, fold, initial, step
from companion.core.inputs import Input
from companion.core.referee import Referee
from companion.games import registry

PLAYERS = ("ana", "ben", "chen", "dara", "eli", "fay")
OPTIONS = ["guilty", "innocent", "abstain"]


# -- the game -------------------------------------------------------------------------------------------


@dataclass
class Built:
    game_id: int
    setup: Setup
    seconds: float
    rounds: int
    last_undo_ms: float | None
    last_undo_at: int | None
    table_ms: int


class Table:
    """Plays a toolkit game through a Referee the way the live loop does: clock first, then the input."""

    def __init__(self, referee: Referee, seed: int) -> None:
        self.referee = referee
        self.rng = random.Random(seed)
        self.at = 0

    def submit(self, move: str, by: str, **args: Any) -> float:
        """Fire the due clock inputs, then submit; returns the submit's own time in ms."""
        for outcome in advance(self.referee, self.at):
            if not outcome.accepted:
                raise SystemExit(f"a clock input was rejected: {outcome.reason}")
        cid = None if by == "clock" else str(uuid.UUID(int=self.rng.getrandbits(128)))
        t0 = time.perf_counter()
        outcome = self.referee.submit(Input(move, by, args, self.at, cid))
        ms = (time.perf_counter() - t0) * 1000
        if not outcome.accepted:
            raise SystemExit(f"{move} by {by} was rejected: {outcome.reason}")
        return ms

    def wait(self, seconds: float) -> None:
        self.at += int(seconds * 1000)


def build(path: Path, count: int, undo_every: int) -> Built:
    games = registry()
    setup = Setup("toolkit", tuple(Player(p, p.title()) for p in PLAYERS), {}, 20240607)
    log = EventLog(path)  # the app's default level, FULL
    t0 = time.perf_counter()
    try:
        referee = Referee.start(games, log, setup, 0)
        table = Table(referee, seed=3)
        rng = table.rng
        table.submit("timer.create", "host", name="turn", seconds=60, warnings=[30, 10])
        table.submit("counter.create", "host", name="hp", initial=10, low=0, high=20)
        table.submit("counter.create", "host", name="coins", initial=5, low=0, high=99)
        table.submit("roles.deal", "host", name="roles", roles=["spy", "guard", "guard", "thief", "cook", "cook"])
        rounds, last_undo_ms, last_undo_at = 0, None, None
        while len(referee.events) < count:
            rounds += 1
            ballot = f"round-{rounds}"
            table.wait(5)
            table.submit("timer.start", "host", name="turn")
            table.submit("ballot.open", "host", name=ballot, options=OPTIONS, tie="random")
            for pid in PLAYERS:
                table.wait(rng.uniform(1, 4))
                table.submit("ballot.vote", f"player:{pid}", name=ballot, option=rng.choice(OPTIONS))
            table.wait(2)
            table.submit("ballot.vote", f"player:{rng.choice(PLAYERS)}", name=ballot, option=rng.choice(OPTIONS))
            if rounds % 5 == 0:
                table.wait(3)
                table.submit("timer.pause", "host", name="turn")
                table.wait(20)
                table.submit("timer.extend", "host", name="turn", seconds=15)
                table.submit("timer.resume", "host", name="turn")
            for pid in rng.sample(PLAYERS, 2):
                table.wait(2)
                table.submit("counter.adjust", "host", name="hp", player=pid, delta=rng.choice([-3, -1, 2]))
            pid = rng.choice(PLAYERS)
            table.submit("counter.adjust", f"player:{pid}", name="coins", delta=-rng.randint(1, 3))
            table.wait(3)
            table.submit("dice.roll", f"player:{rng.choice(PLAYERS)}", count=2, sides=6)
            if undo_every and rounds % undo_every == 0:
                # a slip of the finger at the host's screen, taken back at once
                table.submit("counter.adjust", "host", name="hp", player=rng.choice(PLAYERS), delta=10)
                last_undo_at = len(referee.events) + 1
                last_undo_ms = table.submit("host.undo", "host", count=1)
            table.wait(rng.uniform(40, 60))  # the timer warns and runs out (clock inputs) before the close
            table.submit("ballot.close", "host", name=ballot)
        seconds = time.perf_counter() - t0
        return Built(referee.game_id, setup, seconds, rounds, last_undo_ms, last_undo_at, table.at)
    finally:
        log.close()


# -- replays --------------------------------------------------------------------------------------------


def fold_deepcopy(game: Game, setup: Setup, inputs: list[Input]) -> State:
    """The baseline, the naive design: a fresh `copy.deepcopy` of the state before every step."""
    state = initial(game, setup)
    for inp in inputs:
        state = copy.deepcopy(state)
        apply_in_place(game, state, inp)
    return state


def step_deepcopy(game: Game, state: State, inp: Input) -> State:
    """`step` with `copy.deepcopy` in place of `copy_state`: the live path of the naive design (the bench
    only times accepted inputs, so checking after the copy does the same work as `step`)."""
    new = copy.deepcopy(state)
    apply_in_place(game, new, inp)
    return new


def timed(fn: Callable[[], Any], repeat: int) -> tuple[float, Any]:
    """p50 seconds over `repeat` runs, and the last result."""
    times, result = [], None
    for _ in range(repeat):
        t0 = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - t0)
    return p50(times), result


def reopen(path: Path, game_id: int) -> State:
    games = registry()
    log = EventLog(path)
    try:
        return Referee(games, log, game_id).state
    finally:
        log.close()


def family_mix(events: list[Event]) -> str:
    """Events per family of moves (timer.*, ballot.*, ...), corrections by their own name."""
    kinds = Counter(
        ev.input.move if corrections.is_correction(ev.input) else ev.input.move.split(".")[0] + ".*" for ev in events
    )
    return ", ".join(f"{kind} {n}" for kind, n in kinds.most_common())


def live_inputs(at: int) -> list[Input]:
    """Inputs a table sends at any moment of the game, each accepted whatever the state."""
    return [
        Input("dice.roll", "player:ana", {"count": 2, "sides": 6}, at),
        Input("counter.adjust", "host", {"name": "hp", "player": "ben", "delta": -1}, at),
        Input("counter.adjust", "player:chen", {"name": "coins", "delta": -1}, at),
    ]


LIVE_ROWS = (
    ("`step` as shipped (authorize, `copy_state` pickle round trip, apply)", "step"),
    ("naive: the same step with `copy.deepcopy`", "step_deepcopy"),
    ("the copy alone: `copy_state`", "copy_state"),
    ("the copy alone: `copy.deepcopy`", "deepcopy"),
)


def bench_live(game: Game, state: State, calls: int) -> dict[str, float]:
    """p50 µs per call of each LIVE_ROWS entry on `state`; the variants take turns, call by call."""
    inputs = live_inputs(int(state.get("now", 0)))
    fns: dict[str, Callable[[Input], object]] = {
        "step": lambda inp: step(game, state, inp),
        "step_deepcopy": lambda inp: step_deepcopy(game, state, inp),
        "copy_state": lambda inp: copy_state(state),
        "deepcopy": lambda inp: copy.deepcopy(state),
    }
    before = copy.deepcopy(state)
    if step(game, state, inputs[0]) != step_deepcopy(game, state, inputs[0]):
        raise SystemExit("step and its deepcopy variant disagree")
    samples: dict[str, list[float]] = {name: [] for name in fns}
    for i in range(calls):
        inp = inputs[i % len(inputs)]
        for name, fn in fns.items():
            t0 = time.perf_counter_ns()
            fn(inp)
            samples[name].append((time.perf_counter_ns() - t0) / 1000)
    if state != before:
        raise SystemExit("a live step changed the state it was given")
    return {name: p50(values) for name, values in samples.items()}


def run(count: int, repeat: int, undo_every: int, live_calls: int, where: Path) -> str:
    rss_start = peak_rss_mib()
    game = registry()["toolkit"]
    with tempfile.TemporaryDirectory(prefix="companion-bench-", dir=where) as tmp:
        path = Path(tmp) / "replay.sqlite3"
        built = build(path, count, undo_every)
        log = EventLog(path)
        try:
            read_s, events = timed(lambda: log.events(built.game_id), repeat)
        finally:
            log.close()
        n = len(events)
        inputs = [ev.input for ev in corrections.effective(events)]
        reopen_s, reopened = timed(lambda: reopen(path, built.game_id), repeat)
        fold_s, folded = timed(lambda: fold(game, built.setup, inputs), repeat)
        base_s, based = timed(lambda: fold_deepcopy(game, built.setup, inputs), repeat)
        if based != folded or {k: v for k, v in reopened.items() if k != "corrections"} != folded:
            raise SystemExit("the replays disagree: the deepcopy baseline or the reopen no longer matches fold")
        prefixes = []
        early: State = {}
        for part in (8, 4, 2):
            k = n // part
            live = [ev.input for ev in corrections.effective(events[:k])]
            seconds, state = timed(lambda live=live: fold(game, built.setup, live), repeat)
            base, _ = timed(lambda live=live: fold_deepcopy(game, built.setup, live), repeat)
            prefixes.append((k, seconds, base))
            if part == 8:
                early = state
        prefixes.append((n, fold_s, base_s))
        live_early = bench_live(game, early, live_calls)
        live_end = bench_live(game, folded, live_calls)
    rss_end = peak_rss_mib()

    undos = sum(1 for ev in events if corrections.is_correction(ev.input))
    k_early = prefixes[0][0]
    rows = [
        ("`Referee(...)` reopen from disk (open, read, corrections, fold)", reopen_s),
        ("`EventLog.events` alone (SQLite read + JSON decode)", read_s),
        ("`fold` as shipped (in place)", fold_s),
        ("baseline: `copy.deepcopy` of the state before every step", base_s),
    ]
    lines = [
        f"#### Replay of a {n}-event toolkit game (p50 of {repeat} runs)",
        "",
        "| what | p50 ms | events/s | time vs. `fold` |",
        "| --- | ---: | ---: | ---: |",
    ]
    for what, seconds in rows:
        lines.append(f"| {what} | {seconds * 1000:,.1f} | {n / seconds:,.0f} | {seconds / fold_s:.1f}× |")
    lines += [
        "",
        "| events folded | `fold` p50 ms | µs per event | baseline p50 ms | µs per event | baseline / `fold` |",
        "| ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for k, seconds, base in prefixes:
        lines.append(
            f"| {k} | {seconds * 1000:,.1f} | {seconds / k * 1e6:,.0f} "
            f"| {base * 1000:,.1f} | {base / k * 1e6:,.0f} | {base / seconds:,.0f}× |"
        )
    lines += [
        "",
        f"Live path, µs per input (p50 of {live_calls} calls each; the state is not changed by `step`):",
        "",
        f"| what | after {k_early} events ({json_values(early):,} JSON values) "
        f"| at the end, {n} events ({json_values(folded):,} JSON values) | at the end vs. `step` |",
        "| --- | ---: | ---: | ---: |",
    ]
    ref = live_end["step"]
    for what, name in LIVE_ROWS:
        lines.append(f"| {what} | {fmt(live_early[name])} | {fmt(live_end[name])} | {live_end[name] / ref:.2f}× |")
    undo_note = (
        f" The last `host.undo` (event {built.last_undo_at}) took {built.last_undo_ms:,.0f} ms to submit: "
        "a correction refolds the whole log."
        if built.last_undo_ms is not None
        else ""
    )
    lines += [
        "",
        f"Log: {n} events in {built.rounds} rounds, {built.table_ms / 60000:.0f} min of table time "
        f"({family_mix(events)}; {undos} undone by `host.undo`), "
        f"{len(inputs)} effective; the final state holds {json_values(folded):,} JSON values "
        f"({len(folded['announcements'])} announcements kept of {folded['announced']}, "
        f"{len(folded['ballots'])} ballots, {len(folded['rolls'])} rolls). "
        f"Playing it through `Referee.submit` at FULL took {built.seconds:.1f} s.{undo_note} "
        f"Peak RSS {rss_end:.0f} MiB (after imports {rss_start:.0f} MiB). "
        f"SQLite {sqlite3.sqlite_version}, file on {filesystem(where)[2]}, page cache warm.",
    ]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--count", type=int, default=1000, help="events in the game log (1000)")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each replay; the p50 is printed (3)")
    parser.add_argument("--undo-every", type=int, default=7, help="rounds between host undos; 0: none (7)")
    parser.add_argument("--live", type=int, default=300, help="calls of each live-path variant per state (300)")
    parser.add_argument("--dir", default=None, help="where to create the temporary SQLite file")
    args = parser.parse_args(argv)
    if args.count < 50 or args.repeat < 1 or args.undo_every < 0 or args.live < 1:
        parser.error("--count must be at least 50, --repeat and --live at least 1, --undo-every at least 0")
    print(run(args.count, args.repeat, args.undo_every, args.live, disk_dir(args.dir)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
