"""Write the scripted demo games in docs/games/jailbreak/ (bots at every seat, complete games).

    python -m companion.games.jailbreak.demos [OUT_DIR]

For each table it tries bot seeds in order until the game ends the way asked (a prisoner escapes, or
the deck runs out), and writes the script (docs/scripting.md format) with its result in the header.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from companion.core.bot import script
from companion.core.contract import Player, Setup, State
from companion.core.inputs import Input
from companion.games.jailbreak.bot import BOT
from companion.games.jailbreak.game import GAME

NAMES = ("ana", "ben", "chai", "dao", "eli", "fon", "gus", "hui")
#: (players, how it ends, options)
TABLES = (
    (5, "escape", {"sheriffs": ["ana", "dao"], "turn_seconds": 0}),
    (5, "deck", {"sheriffs": ["ben", "eli"], "equipment": [["badge"], ["handcuffs"]], "turn_seconds": 0}),
    (8, "escape", {"sheriffs": ["ana", "chai", "fon"], "turn_seconds": 0}),
)


def write(out: Path, n: int, reason: str, options: dict[str, object]) -> Path:
    players = tuple(Player(p, p.title()) for p in NAMES[:n])

    def wanted(state: State, inputs: list[Input]) -> bool:
        result = GAME.result(state)
        return result is not None and result["reason"] == reason and len(inputs) >= 40

    seed, setup, state, inputs = BOT.first(lambda seed: Setup("jailbreak", players, options, 2000 + seed), wanted)
    path = out / f"jailbreak-{n}p-{reason}.jsonl"
    path.write_text(script([
        f"Jailbreak, {n} players: a complete game played by bots (bot seed {seed}), ending by {reason}.",
        f"Result: {json.dumps(GAME.result(state))}",
    ], setup, inputs), encoding="utf-8")
    return path


def main(argv: list[str]) -> int:
    out = Path(argv[0]) if argv else Path("docs/games/jailbreak")
    for n, reason, options in TABLES:
        print(write(out, n, reason, options))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
