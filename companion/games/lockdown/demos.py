"""Write the scripted demo games in docs/games/lockdown/ (bots at every seat, complete 6-round games).

    python -m companion.games.lockdown.demos [OUT_DIR]

For each table size it tries bot seeds in order until a game lasts the six rounds with more than one
place in the ranking, and writes the script (docs/scripting.md format) with its ranking in the header.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from companion.core.contract import Player, Setup
from companion.games.lockdown import bot

NAMES = ("ana", "ben", "chai", "dao", "eli", "fon", "gus", "hui", "ira")
TABLES = ((2, "digital", 0, 0), (5, "physical", 0, 0), (9, "digital", 300, 120))


def write(out: Path, n: int, mode: str, free: int, turn: int, tries: int = 400) -> Path:
    for seed in range(1, tries):
        players = tuple(Player(p, p.title()) for p in NAMES[:n])
        setup = Setup("lockdown", players, {"items": mode, "free_seconds": free, "turn_seconds": turn}, 1000 + seed)
        lines, state = bot.play(setup, seed)
        outcome = state["finished"]
        if outcome and outcome["reason"] == "rounds" and len(outcome["ranking"]) > 1:
            break
    else:
        raise SystemExit(f"no complete {n}-player game in {tries} tries")
    path = out / f"lockdown-{n}p.jsonl"
    text = [
        f"# Lockdown, {n} players, items {mode}: a complete 6-round game played by bots (bot seed {seed}).",
        f"# Final ranking: {json.dumps(outcome['ranking'])}; points {json.dumps(outcome['points'])}",
        json.dumps(setup.to_json(), ensure_ascii=False),
        *(json.dumps(line, ensure_ascii=False) for line in lines),
    ]
    path.write_text("\n".join(text) + "\n", encoding="utf-8")
    return path


def main(argv: list[str]) -> int:
    out = Path(argv[0]) if argv else Path("docs/games/lockdown")
    for table in TABLES:
        print(write(out, *table))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
