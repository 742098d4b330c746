"""Choosing a game costs none of its rules (docs/perf/rss.md): the game list, the seating screen
and the options screen read a game's box (`companion.games.box`: its player counts and its options model,
a small `options.py`), and the game's rules, forms and pictures are imported when it is played. Checked
in a new process, as a kiosk starts, by touching what a host touches for every game: the host menu's
"New game", the game, Next with the players seated, the options screen drawn in Thai."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from companion.games import box, registry
from companion.kiosk.newgame import option_fields, table_fields
from companion.kiosk.screens.options import ROWS_SHOWN

ROOT = Path(__file__).resolve().parents[2]

PROBE = """
import json, sys, tempfile
from pathlib import Path
from companion import i18n
from companion.games import registry
from companion.kiosk.engine import fonts, open_display
from companion.kiosk.scenes import make_scene
from tests.kits.kiosk_touch import touch

def rules():
    return {m for m in sys.modules if m.startswith("companion.games.") and m.count(".") >= 3}

surface = open_display("800x480", False, "dummy")
text = fonts(Path(tempfile.mkdtemp(prefix="font-cache-")))
seen = {}
for gid in registry():
    scene = make_scene(surface, text, "th")
    k = scene.kiosk
    before = rules()
    k.open_menu()  # the host menu (as the scenes open it)
    k.process()
    touch(k, key="n")
    listed = k.top.name
    touch(k, i18n.translate("th", f"game.{gid}.title"))
    if k.top.name == "setup":  # the table's own game, not begun: "Players and options"
        touch(k, key="change")
    seating = k.top.name
    touch(k, key="next")
    options = k.top.name
    k.process()
    keys = [list(b.key) for b in k.top.buttons() if isinstance(b.key, tuple)]
    seen[gid] = {"screens": [listed, seating, options], "keys": keys, "new": sorted(rules() - before),
                 "sent": scene.table.inbox.qsize()}
    scene.close()
print(json.dumps(seen))
"""


def test_the_new_game_screens_import_no_game_rules() -> None:
    out = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, check=True, cwd=ROOT)
    seen = json.loads(out.stdout.strip().splitlines()[-1])
    games = registry()
    assert list(seen) == list(games)
    for gid, what in seen.items():
        assert what["screens"] == ["games", "seating", "options"], gid
        # only the light modules: no game.py, moves, forms, data or pictures of any game (the scene's own
        # game, the toolkit, was imported before: it is being played)
        assert all(m.rsplit(".", 1)[1] == "options" for m in what["new"]), (gid, what["new"])
        # the options screen offers what the rules' own options model says, then whether the host plays
        shown = {key[1] for key in what["keys"] if key[0] in ("choice", "minus", "plus", "toggle")}
        first_page = [*option_fields(games[gid]), *table_fields()][:ROWS_SHOWN]
        assert shown == {f.name for f in first_page}, gid
        assert what["sent"] == 0  # nothing reaches the table before Start


def test_a_games_box_is_what_its_rules_say() -> None:
    games = registry()
    for gid in games:
        game, listed = games[gid], box(games, gid)
        assert (listed.id, listed.min_players, listed.max_players, listed.menu_rank) == (
            game.id, game.min_players, game.max_players, game.menu_rank)
        assert listed.Options is game.Options
