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

import random
import sys
from pathlib import Path
from typing import Any

import gamebench
from benchlib import filesystem, json_values, peak_rss_mib
from gamebench import measure, turns_by_number

from companion.core.contract import Player, Setup, State
from companion.games import registry
from companion.games.betrayal import bot

GAME = registry()["betrayal"]
PLAYERS = tuple(Player(p, p.title()) for p in ("ana", "ben", "chai", "dao", "eli"))
LIMIT = 800


def setup(seed: int) -> Setup:
    return Setup("betrayal", PLAYERS, {"today": "11-29"}, seed)


def turn_number(state: State) -> int:
    turn: dict[str, Any] | None = state["turn"]
    return 0 if turn is None else int(turn["number"])


TURNS = turns_by_number(GAME, turn_number)


def run(games: int, repeat: int, where: Path) -> str:
    rss_start = peak_rss_mib()
    played = [(setup(seed), *bot.BOT.play(setup(seed), random.Random(seed), LIMIT)) for seed in range(games)]
    fig = measure(GAME, played, TURNS, repeat, where)
    longest = max(played, key=lambda g: len(g[2]))
    rss_end = peak_rss_mib()

    sizes = [len(g[2]) for g in played]
    haunted = sum(1 for g in played if g[1]["haunt"] is not None)
    lines = [
        f"#### Betrayal: five-player games ({games} random legal games, sample data, {haunted} reached the haunt)",
        "",
        *fig.tables("one turn", "one input", sizes),
        "",
        f"Baseline: `copy.deepcopy` of the state before each step (live) or each replayed input. "
        f"The longest game's final state holds {json_values(longest[1]):,} JSON values. "
        f"Peak RSS {rss_end:.0f} MiB (after imports {rss_start:.0f} MiB); SQLite file on {filesystem(where)[2]}.",
    ]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    return gamebench.main(run, __doc__, 30, argv)


if __name__ == "__main__":
    sys.exit(main())
