"""What the per-game benchmarks share: the deepcopy baseline, timing a replay, and measuring random legal
games played by a game's bot (turn by turn, input by input, whole-game fold, reopening from SQLite).

A game's bench keeps what is its own: how its games are set up and played, and where a turn ends
(`turns` below takes a `turns_of` function that splits a replay into turns).
"""

from __future__ import annotations

import argparse
import copy
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from benchlib import disk_dir, fmt, p50, percentile

from companion.core.contract import Game, Setup, State
from companion.core.eventlog import EventLog
from companion.core.fold import apply_in_place, fold, initial, step
from companion.core.inputs import Input
from companion.core.referee import Referee
from companion.games import registry

Step = Callable[[State, Input], State]
Played = tuple[Setup, State, list[Input]]  # the setup, the final state, the inputs
TurnsOf = Callable[[Setup, list[Input], Step], tuple[list[float], list[float], State]]


def live_step(game: Game) -> Step:
    return lambda state, inp: step(game, state, inp)


def deepcopy_step(game: Game) -> Step:
    """The baseline: copy the whole state with `copy.deepcopy` before each input."""

    def one(state: State, inp: Input) -> State:
        new = copy.deepcopy(state)
        apply_in_place(game, new, inp)
        return new

    return one


def fold_deepcopy(game: Game, setup: Setup, inputs: list[Input]) -> State:
    state = initial(game, setup)
    for inp in inputs:
        state = copy.deepcopy(state)
        apply_in_place(game, state, inp)
    return state


def timed(fn: Callable[[], State], repeat: int) -> tuple[float, State]:
    times: list[float] = []
    result: State = {}
    for _ in range(repeat):
        t0 = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - t0)
    return p50(times), result


def turns_by_number(game: Game, turn_number: Callable[[State], int]) -> TurnsOf:
    """Turns that end when `turn_number` changes (or the game ends); inputs at turn 0 are not a turn's."""

    def turns(setup: Setup, inputs: list[Input], one: Step) -> tuple[list[float], list[float], State]:
        state = initial(game, setup)
        per_turn: list[float] = []
        per_input: list[float] = []
        current = 0.0
        for inp in inputs:
            before = turn_number(state)
            t0 = time.perf_counter()
            state = one(state, inp)
            took = time.perf_counter() - t0
            if before == 0:
                continue
            current += took
            per_input.append(took)
            if turn_number(state) != before or state["ended"]:
                per_turn.append(current)
                current = 0.0
        return per_turn, per_input, state

    return turns


@dataclass
class Figures:
    turn_live: list[float] = field(default_factory=list)
    turn_base: list[float] = field(default_factory=list)
    input_live: list[float] = field(default_factory=list)
    input_base: list[float] = field(default_factory=list)
    fold_s: list[float] = field(default_factory=list)
    base_s: list[float] = field(default_factory=list)
    reopen_s: float = 0.0

    def tables(self, turn: str, one_input: str, sizes: list[int]) -> list[str]:
        """The two markdown tables every game's bench prints: per turn and per input, then whole games.
        `turn` and `one_input` name the rows ("one player's turn", "one input while resolving")."""

        def us(values: list[float], q: float) -> float:
            return percentile(sorted(values), q) * 1e6

        def row(label: str, live: list[float], base: list[float]) -> str:
            return (f"| {label} | {fmt(us(live, .5))} | {fmt(us(live, .99))} | {fmt(us(base, .5))} "
                    f"| {fmt(us(base, .99))} | {us(base, .5) / us(live, .5):.1f}× |")

        return [
            "| what | `step` p50 µs | `step` p99 µs | baseline p50 µs | baseline p99 µs | baseline / `step` (p50) |",
            "| --- | ---: | ---: | ---: | ---: | ---: |",
            row(f"{turn} ({len(self.turn_live)} turns)", self.turn_live, self.turn_base),
            row(f"{one_input} ({len(self.input_live)} inputs)", self.input_live, self.input_base),
            "",
            "| whole-game replay | p50 ms over games | max ms | baseline p50 ms | baseline / `fold` |",
            "| --- | ---: | ---: | ---: | ---: |",
            f"| `fold` in place ({p50([float(n) for n in sizes]):.0f} inputs p50, {max(sizes)} max) "
            f"| {p50(self.fold_s) * 1000:,.2f} | {max(self.fold_s) * 1000:,.2f} | {p50(self.base_s) * 1000:,.2f} "
            f"| {p50(self.base_s) / p50(self.fold_s):.1f}× |",
            f"| `Referee(...)` reopen from SQLite, longest game ({max(sizes)} inputs) "
            f"| {self.reopen_s * 1000:,.2f} | | | |",
        ]


def measure(game: Game, played: list[Played], turns: TurnsOf, repeat: int, where: Path) -> Figures:
    """Replay each played game by `step` and by the baseline, fold it both ways, and reopen the longest
    from a real SQLite log; every replay must end in the state the game was played to."""
    out = Figures()
    live, base = live_step(game), deepcopy_step(game)
    for s, final, inputs in played:
        t, i, state = turns(s, inputs, live)
        tb, ib, state_b = turns(s, inputs, base)
        if state != final or state_b != final:
            raise SystemExit("the timed replays disagree with the games played")
        out.turn_live += t
        out.turn_base += tb
        out.input_live += i
        out.input_base += ib
        f, folded = timed(lambda s=s, inputs=inputs: fold(game, s, inputs), repeat)
        b, based = timed(lambda s=s, inputs=inputs: fold_deepcopy(game, s, inputs), repeat)
        if folded != final or based != final:
            raise SystemExit("fold or the baseline replay disagrees with the game played")
        out.fold_s.append(f)
        out.base_s.append(b)
    longest = max(played, key=lambda g: len(g[2]))
    with tempfile.TemporaryDirectory(prefix="companion-bench-", dir=where) as tmp:
        path = Path(tmp) / f"{game.id}.sqlite3"
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

        out.reopen_s, reopened = timed(reopen, repeat)
        if {k: v for k, v in reopened.items() if k != "corrections"} != longest[1]:
            raise SystemExit("the reopened game disagrees with the game played")
    return out


def main(run: Callable[[int, int, Path], str], doc: str | None, default_games: int,
         argv: list[str] | None = None) -> int:
    """The command line every game's bench has: --games, --repeat, --dir."""
    parser = argparse.ArgumentParser(description=(doc or "").split("\n\n")[0])
    parser.add_argument("--games", type=int, default=default_games, help=f"random games played ({default_games})")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each replay; the p50 is printed (3)")
    parser.add_argument("--dir", default=None, help="where to create the temporary SQLite file")
    args = parser.parse_args(argv)
    if args.games < 1 or args.repeat < 1:
        parser.error("--games and --repeat must be at least 1")
    print(run(args.games, args.repeat, disk_dir(args.dir)))
    return 0
