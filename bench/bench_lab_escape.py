"""Escape the Lab: how long the referee takes to play a four-player turn, and to replay a whole game.

Run from the repository root::

    python bench/bench_lab_escape.py [--games 20] [--repeat 3] [--dir DIR]

`--games` random legal four-player games (referee dice, digital deck) are played by the game's own bot
(`companion.games.lab_escape.bot`, through the prompts a phone shows) from fixed seeds, up to 3000
inputs each. Then:

- a turn: the live `step` calls of one player's turn (the card, every step, the end of the move, the
  action or items, with the automatic parts they set off: refills, triggers, checks, weapon refills),
  summed per turn; p50/p99 over every turn of every game, and p50/p99 per single input;
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
from pathlib import Path

import gamebench
from benchlib import filesystem, json_values, peak_rss_mib
from gamebench import measure, turns_by_number

from companion.core.contract import Player, Setup
from companion.games import registry
from companion.games.lab_escape import bot

GAME = registry()["lab_escape"]
PLAYERS = tuple(Player(p, p.title()) for p in ("ana", "ben", "chai", "dao"))


def setup(seed: int) -> Setup:
    return Setup("lab_escape", PLAYERS, {}, seed)


TURNS = turns_by_number(GAME, lambda state: int(state["turn"]["number"]))


def run(games: int, repeat: int, where: Path) -> str:
    rss_start = peak_rss_mib()
    played = [(setup(seed), *bot.BOT.play(setup(seed), random.Random(seed))) for seed in range(games)]
    fig = measure(GAME, played, TURNS, repeat, where)
    longest = max(played, key=lambda g: len(g[2]))
    rss_end = peak_rss_mib()

    sizes = [len(g[2]) for g in played]
    won = sum(1 for g in played if g[1]["finished"] is not None)
    lines = [
        f"#### Escape the Lab: four-player games ({games} random legal games, referee dice, digital deck)",
        "",
        *fig.tables("one player's turn", "one input", sizes),
        "",
        f"Baseline: `copy.deepcopy` of the state before each step (live) or each replayed input. "
        f"{won} of {games} games were won within 3000 inputs. The longest final state holds "
        f"{json_values(longest[1]):,} JSON values. "
        f"Peak RSS {rss_end:.0f} MiB (after imports {rss_start:.0f} MiB); SQLite file on {filesystem(where)[2]}.",
    ]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    return gamebench.main(run, __doc__, 20, argv)


if __name__ == "__main__":
    sys.exit(main())
