"""Room 25: how long the referee takes to resolve a six-player turn, and to replay a whole game.

Run from the repository root::

    python bench/bench_room25.py [--games 30] [--repeat 3] [--dir DIR]

`--games` random legal suspicion games for six players with digital tiles are played by the game's own
bot (`companion.games.room25.bot`, through the prompts a phone shows) from fixed seeds. Then:

- turn resolution: the live `step` calls of one turn from the plan that completes the programming to
  the last action (every direction, push, slide and room choice, with the automatic parts they set
  off), summed per turn; p50/p99 over every turn of every game, and p50/p99 per single input;
- baseline: the same inputs through the naive live step, `copy.deepcopy` of the state before applying
  instead of the pickle copy `step` makes; the ratio baseline / `step`;
- replay: `fold` of each whole game (in place, as a restart does) against the naive replay that copies
  the state at each step (`copy.deepcopy`), p50 over games; and reopening one game from a real SQLite
  log on a real disk (`Referee(...)`: read, decode, fold).

The replays are compared with the states the games reached, so they cannot drift apart unnoticed.
Peak RSS is the process's high-water mark. Asserts nothing about time.
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

import gamebench
from benchlib import filesystem, json_values, peak_rss_mib
from gamebench import Step, measure

from companion.core.contract import Player, Setup, State
from companion.core.fold import initial
from companion.core.inputs import Input
from companion.games import registry
from companion.games.room25 import bot

GAME = registry()["room25"]
PLAYERS = tuple(Player(p, p.title()) for p in ("ana", "ben", "chai", "dao", "eli", "fon"))


def setup(seed: int) -> Setup:
    return Setup("room25", PLAYERS, {"mode": "suspicion"}, seed)


def turns(s: Setup, inputs: list[Input], one: Step) -> tuple[list[float], list[float], State]:
    """Seconds per turn's resolution and per input of it, by `step` (live) or the deepcopy baseline."""
    state = initial(GAME, s)
    per_turn: list[float] = []
    per_input: list[float] = []
    current = 0.0
    for inp in inputs:
        resolving = GAME.phase(state) != "programming" or (
            inp.move == "plan" and len(state["program"]["committed"]) == len(state["program"]["expected"]) - 1
        )
        t0 = time.perf_counter()
        state = one(state, inp)
        took = time.perf_counter() - t0
        if resolving:
            current += took
            per_input.append(took)
            if GAME.phase(state) in ("programming", None):
                per_turn.append(current)
                current = 0.0
    return per_turn, per_input, state


TURNS = turns


def run(games: int, repeat: int, where: Path) -> str:
    rss_start = peak_rss_mib()
    played = [(setup(seed), *bot.BOT.play(setup(seed), random.Random(seed))) for seed in range(games)]
    fig = measure(GAME, played, TURNS, repeat, where)
    longest = max(played, key=lambda g: len(g[2]))
    rss_end = peak_rss_mib()

    sizes = [len(g[2]) for g in played]
    ends = sorted({g[1]["finished"]["reason"].split(".")[-1] for g in played})
    lines = [
        f"#### Room 25: six-player suspicion games ({games} random legal games, digital tiles)",
        "",
        *fig.tables("one turn's resolution", "one input while resolving", sizes),
        "",
        f"Baseline: `copy.deepcopy` of the state before each step (live) or each replayed input. Games ended by: "
        f"{', '.join(ends)}. The final state holds {json_values(longest[1]):,} JSON values. "
        f"Peak RSS {rss_end:.0f} MiB (after imports {rss_start:.0f} MiB); SQLite file on {filesystem(where)[2]}.",
    ]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    return gamebench.main(run, __doc__, 30, argv)


if __name__ == "__main__":
    sys.exit(main())
