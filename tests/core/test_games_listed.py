"""The game list costs no game's rules: `registry()` lists and orders the games from each package's
`MENU_RANK`, and a game's modules are imported the first time the game itself is looked up
(docs/perf/rss.md). Checked in a new process, as a kiosk starts."""

from __future__ import annotations

import json
import subprocess
import sys

from companion.games import registry

PROBE = """
import json, sys
from companion.games import registry
games = registry()
listed = list(games)
before = sorted(m for m in sys.modules if m.startswith("companion.games.") and m.count(".") == 3)
game = games["jailbreak"]
after = sorted(m for m in sys.modules if m.startswith("companion.games.") and m.count(".") == 3)
print(json.dumps({"listed": listed, "before": before, "after": after, "id": game.id}))
"""


def test_listing_the_games_imports_none_of_them_and_one_looked_up_only_that_one() -> None:
    out = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, check=True)
    seen = json.loads(out.stdout)
    assert seen["listed"] == list(registry())
    assert seen["before"] == []  # no game.py, moves, forms, data or pictures of any game
    assert seen["id"] == "jailbreak"
    assert {m.split(".")[2] for m in seen["after"]} == {"jailbreak"}


def test_the_menu_order_is_the_games_own_rank_and_each_id_its_package() -> None:
    games = registry()
    assert list(games) == sorted(games, key=lambda gid: (games[gid].menu_rank, gid))
    assert all(games[gid].id == gid for gid in games)
    assert len(games) == len(list(games)) and "no such game" not in games
