"""Complete scripted Lockdown games (docs/games/lockdown/*.jsonl, the kiosk's attract-mode demos) replayed
through the real referee on a real SQLite file; the final ranking is checked against the header of the
script and recomputed here from the final HP and forces by ruling L9.3."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.core.eventlog import EventLog
from companion.core.referee import Referee
from companion.games.lockdown import items
from tests.kits.lockdown_script import GAMES, SCRIPTS, play_file

SCRIPT_FILES = sorted(SCRIPTS.glob("lockdown-*p.jsonl"))


def header_ranking(path: Path) -> list[list[str]]:
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("# Final ranking: "):
            ranking: list[list[str]] = json.loads(line.split(": ", 1)[1].split("; points")[0])
            return ranking
    raise AssertionError(f"{path} has no final ranking line")


def test_there_are_games_for_2_5_and_9_players() -> None:
    assert [p.name for p in SCRIPT_FILES] == ["lockdown-2p.jsonl", "lockdown-5p.jsonl", "lockdown-9p.jsonl"]


@pytest.mark.parametrize("script", SCRIPT_FILES, ids=lambda p: p.stem)
def test_scripted_game_replays_to_its_ranking(tmp_path: Path, script: Path) -> None:
    ref = play_file(tmp_path / "game.db", script)
    state = ref.state
    result = ref.view("public")["result"]
    assert result is not None and result["reason"] == "rounds" and state["round"] == 6
    assert result["ranking"] == header_ranking(script)
    # L9.3 recomputed: living by HP then gene force, then shadows by force at death
    pl = state["people"]

    def key(p: str) -> tuple[int, int, int]:
        q = pl[p]
        return (0, 0, q["force_at_death"]) if q["shadow"] else (1, q["hp"], q["genes"]["force"])

    keys = [[key(p) for p in group] for group in result["ranking"]]
    assert all(len(set(k)) == 1 for k in keys)  # a group shares every key
    firsts = [k[0] for k in keys]
    assert firsts == sorted(firsts, reverse=True) and len(set(firsts)) == len(firsts)
    points = sorted(result["points"].values(), reverse=True)
    assert points[0] == 9 and len(result["points"]) == len(pl)
    assert all(0 <= p["hp"] <= 10 for p in pl.values())
    # every card is in exactly one place
    all_cards = items.all_places(state)
    # 15 water, 15 food, 5 pills, 5 adrenaline, 8 alcohol, 5 gold, 8 knives, 3 pistols, 2 shotguns,
    # 20 junk, rope, gas mask, rocket, pocket, recycler, 6 airdrops
    assert len(all_cards) == len(set(all_cards)) == 97
    # a restart replays the log to the same state
    reopened = Referee(GAMES, EventLog(tmp_path / "game.db"), ref.game_id)
    assert reopened.state == ref.state


def test_the_games_use_both_item_modes() -> None:
    modes = {json.loads(next(x for x in p.read_text().splitlines() if x.startswith("{")))["options"]["items"]
             for p in SCRIPT_FILES}
    assert modes == {"digital", "physical"}


@pytest.mark.parametrize("lang", ["en", "zh", "th"])
def test_what_the_screen_says_is_filled_in_every_language(tmp_path: Path, lang: str) -> None:
    from companion import i18n

    ref = play_file(tmp_path / "game.db", SCRIPTS / "lockdown-9p.jsonl")
    texts = [i18n.describe(lang, a) for a in ref.view("public")["announcements"]]
    assert texts and all("{" not in t and "lockdown." not in t and "kind." not in t for t in texts), texts
