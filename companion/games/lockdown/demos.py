"""Write the scripted demo games in docs/games/lockdown/ (bots at every seat, complete 6-round games).

    python -m companion.games.lockdown.demos [OUT_DIR]

For each table size it tries bot seeds in order until a game lasts the six rounds with more than one
place in the ranking, and writes the script (docs/scripting.md format) with its ranking in the header.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from companion.core.bot import script
from companion.core.contract import Player, Setup, State
from companion.core.inputs import Input
from companion.games.lockdown.bot import BOT

NAMES = ("ana", "ben", "chai", "dao", "eli", "fon", "gus", "hui", "ira")
TABLES = ((2, "digital", 0, 0), (5, "physical", 0, 0), (9, "digital", 300, 120))


def write(out: Path, n: int, mode: str, free: int, turn: int) -> Path:
    players = tuple(Player(p, p.title()) for p in NAMES[:n])
    options = {"items": mode, "free_seconds": free, "turn_seconds": turn}

    def wanted(state: State, inputs: list[Input]) -> bool:
        result = state["finished"]
        return result is not None and result["reason"] == "rounds" and len(result["ranking"]) > 1

    seed, setup, state, inputs = BOT.first(lambda seed: Setup("lockdown", players, options, 1000 + seed), wanted)
    result = state["finished"]
    path = out / f"lockdown-{n}p.jsonl"
    path.write_text(script([
        f"Lockdown, {n} players, items {mode}: a complete 6-round game played by bots (bot seed {seed}).",
        f"Final ranking: {json.dumps(result['ranking'])}; points {json.dumps(result['points'])}",
    ], setup, inputs), encoding="utf-8")
    return path


def main(argv: list[str]) -> int:
    out = Path(argv[0]) if argv else Path("docs/games/lockdown")
    for table in TABLES:
        print(write(out, *table))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
