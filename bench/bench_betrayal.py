"""Betrayal: how long the referee takes for a turn and each input of it, and to replay a whole game.

Run from the repository root::

    python bench/bench_betrayal.py [--games 30] [--repeat 3] [--dir DIR]

`--games` random legal five-player games with the sample data are played by the game's own bot
(`companion.games.betrayal.bot`, through the prompts a phone shows, up to 800 inputs each) from fixed
seeds; most reach the haunt, so the turns include attacks, damage and the monsters' turns. Then:

- turn time: the live `step` calls of one turn (an explorer's or the monsters', from its first input
  to the one that starts the next turn, the table's room and card reports and the haunt roll
  included), summed per turn; p50/p99 over every turn, and p50/p99 per single input;
- baseline: the same inputs through the naive live step, `copy.deepcopy` of the state before applying
  instead of the pickle copy `step` makes; the ratio baseline / `step`;
- replay: `fold` of each whole game (in place, as a restart does) against the naive replay that copies
  the state at each step (`copy.deepcopy`), p50 over games; and reopening the longest game from a real
  SQLite log on a real disk (`Referee(...)`: read, decode, fold).

The replays are compared with the states the games reached, so they cannot drift apart unnoticed.
Peak RSS is the process's high-water mark. Asserts nothing about time.
"""

from __future__ import annotations

import argparse
import copy
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from benchlib import disk_dir, filesystem, fmt, json_values, p50, peak_rss_mib, percentile

from companion.core.contract import Player, Setup, State
from companion.core.eventlog import EventLog
from companion.core.fold import apply_in_place, fold, initial, step
from companion.core.inputs import Input
from companion.core.referee import Referee
from companion.games import registry
from companion.games.betrayal import bot

GAME = registry()["betrayal"]
PLAYERS = tuple(Player(p, p.title()) for p in ("ana", "ben", "chai", "dao", "eli"))
LIMIT = 800


def setup(seed: int) -> Setup:
    return Setup("betrayal", PLAYERS, {"today": "11-29"}, seed)


def step_deepcopy(state: State, inp: Input) -> State:
    new = copy.deepcopy(state)
    apply_in_place(GAME, new, inp)
    return new


def fold_deepcopy(s: Setup, inputs: list[Input]) -> State:
    state = initial(GAME, s)
    for inp in inputs:
        state = copy.deepcopy(state)
        apply_in_place(GAME, state, inp)
    return state


def turn_number(state: State) -> int:
    turn: dict[str, Any] | None = state["turn"]
    return 0 if turn is None else int(turn["number"])


def turns(s: Setup, inputs: list[Input], live: bool) -> tuple[list[float], list[float], State]:
    """Seconds per turn and per input, by `step` (live) or the deepcopy baseline."""
    state = initial(GAME, s)
    per_turn: list[float] = []
    per_input: list[float] = []
    current = 0.0
    for inp in inputs:
        before = turn_number(state)
        t0 = time.perf_counter()
        state = step(GAME, state, inp) if live else step_deepcopy(state, inp)
        took = time.perf_counter() - t0
        if before == 0:  # choosing explorers: not a turn
            continue
        current += took
        per_input.append(took)
        if turn_number(state) != before or state["ended"]:
            per_turn.append(current)
            current = 0.0
    return per_turn, per_input, state


def timed(fn: object, repeat: int) -> tuple[float, State]:
    times, result = [], {}
    for _ in range(repeat):
        t0 = time.perf_counter()
        result = fn()  # type: ignore[operator]
        times.append(time.perf_counter() - t0)
    return p50(times), result


def run(games: int, repeat: int, where: Path) -> str:
    rss_start = peak_rss_mib()
    played = [(setup(seed), *bot.play(GAME, setup(seed), random.Random(seed), LIMIT)) for seed in range(games)]
    turn_live: list[float] = []
    turn_base: list[float] = []
    input_live: list[float] = []
    input_base: list[float] = []
    fold_s: list[float] = []
    base_s: list[float] = []
    for s, final, inputs in played:
        t, i, state = turns(s, inputs, live=True)
        tb, ib, state_b = turns(s, inputs, live=False)
        if state != final or state_b != final:
            raise SystemExit("the timed replays disagree with the games played")
        turn_live += t
        turn_base += tb
        input_live += i
        input_base += ib
        f, folded = timed(lambda s=s, inputs=inputs: fold(GAME, s, inputs), repeat)
        b, based = timed(lambda s=s, inputs=inputs: fold_deepcopy(s, inputs), repeat)
        if folded != final or based != final:
            raise SystemExit("fold or the baseline replay disagrees with the game played")
        fold_s.append(f)
        base_s.append(b)
    longest = max(played, key=lambda g: len(g[2]))
    with tempfile.TemporaryDirectory(prefix="companion-bench-", dir=where) as tmp:
        path = Path(tmp) / "betrayal.sqlite3"
        log = EventLog(path)
        ref = Referee.start(registry(), log, longest[0], 0)
        for inp in longest[2]:
            if not ref.submit(inp).accepted:
                raise SystemExit("the referee refused an input of the played game")
        log.close()

        def reopen() -> State:
            opened = EventLog(path)
            try:
                return Referee(registry(), opened, ref.game_id).state
            finally:
                opened.close()

        reopen_s, reopened = timed(reopen, repeat)
        if {k: v for k, v in reopened.items() if k != "corrections"} != longest[1]:
            raise SystemExit("the reopened game disagrees with the game played")
    rss_end = peak_rss_mib()

    def us(values: list[float], q: float) -> float:
        return percentile(sorted(values), q) * 1e6

    sizes = [len(g[2]) for g in played]
    haunted = sum(1 for g in played if g[1]["haunt"] is not None)
    lines = [
        f"#### Betrayal: five-player games ({games} random legal games, sample data, {haunted} reached the haunt)",
        "",
        "| what | `step` p50 µs | `step` p99 µs | baseline p50 µs | baseline p99 µs | baseline / `step` (p50) |",
        "| --- | ---: | ---: | ---: | ---: | ---: |",
        f"| one turn ({len(turn_live)} turns) | {fmt(us(turn_live, .5))} | {fmt(us(turn_live, .99))} "
        f"| {fmt(us(turn_base, .5))} | {fmt(us(turn_base, .99))} | {us(turn_base, .5) / us(turn_live, .5):.1f}× |",
        f"| one input ({len(input_live)} inputs) | {fmt(us(input_live, .5))} "
        f"| {fmt(us(input_live, .99))} | {fmt(us(input_base, .5))} | {fmt(us(input_base, .99))} "
        f"| {us(input_base, .5) / us(input_live, .5):.1f}× |",
        "",
        "| whole-game replay | p50 ms over games | max ms | baseline p50 ms | baseline / `fold` |",
        "| --- | ---: | ---: | ---: | ---: |",
        f"| `fold` in place ({p50([float(n) for n in sizes]):.0f} inputs p50, {max(sizes)} max) "
        f"| {p50(fold_s) * 1000:,.2f} | {max(fold_s) * 1000:,.2f} | {p50(base_s) * 1000:,.2f} "
        f"| {p50(base_s) / p50(fold_s):.1f}× |",
        f"| `Referee(...)` reopen from SQLite, longest game ({max(sizes)} inputs) | {reopen_s * 1000:,.2f} | | | |",
        "",
        f"Baseline: `copy.deepcopy` of the state before each step (live) or each replayed input. "
        f"The longest game's final state holds {json_values(longest[1]):,} JSON values. "
        f"Peak RSS {rss_end:.0f} MiB (after imports {rss_start:.0f} MiB); SQLite file on {filesystem(where)[2]}.",
    ]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--games", type=int, default=30, help="random games played (30)")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each replay; the p50 is printed (3)")
    parser.add_argument("--dir", default=None, help="where to create the temporary SQLite file")
    args = parser.parse_args(argv)
    if args.games < 1 or args.repeat < 1:
        parser.error("--games and --repeat must be at least 1")
    print(run(args.games, args.repeat, disk_dir(args.dir)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
