"""The scripted Escape the Lab games in docs/games/lab_escape/ (3 and 2 players), replayed by the real script runner
on a SQLite log (what `companion replay` does), with its result and the steps that led there checked."""

from __future__ import annotations

from pathlib import Path

from companion.core.eventlog import EventLog
from companion.games import registry
from companion.scripting import run
from tests.kits.lab_escape_table import assert_invariants
from tests.kits.scripted_games import assert_each_restarts_to_the_same_end, docs, replay, said

DOCS = docs("lab_escape")


def test_the_three_player_game_ends_with_chai_in_the_hall_with_the_usb_key(tmp_path: Path) -> None:
    ref = replay(DOCS / "lab-escape-3p.jsonl", tmp_path)
    public = ref.view("public")
    assert public["ended"] is True
    assert public["result"] == {"ranking": [["chai"], ["ana", "ben"]], "winners": ["chai"],
                                "reason": "lab_escape.win"}
    table = public["table"]
    assert table["people"] == {
        "ana": {"room": "telegraph", "stamina": 4, "items": ["access_card"]},
        "ben": {"room": "archive", "stamina": 5, "items": ["weapon"]},
        "chai": {"room": "hall", "stamina": 6, "items": ["cat", "usb_key"]},
    }
    assert table["deck_count"] == 0 and table["display"] == [] and len(table["lab"]) == 9
    assert table["turn"]["number"] == 15
    # E3.4: the Archive armed once the USB key was gone; Ben took the weapon on entering; his attack failed
    assert ("lab_escape.weapon_placed", {"room": "kind.lab_escape.room.archive"}) in said(ref)
    assert table["last_attack"] == {"attacker": "ben", "defender": "chai", "item": "usb_key", "rolls": [4, 3],
                                    "totals": [4, 5], "won": False}
    assert table["spent"] == {"adrenaline": 1, "key": 1}
    assert_invariants(ref.state)


def test_turn_1_of_the_script_is_the_faqs_third_case(tmp_path: Path) -> None:
    """Stopped where turn 2 starts: Ana's check succeeded at stamina 1 and gave nothing (E3.1)."""
    lines = (DOCS / "lab-escape-3p.jsonl").read_text(encoding="utf-8").splitlines()
    ref = run(registry(), EventLog(tmp_path / "log.sqlite3"), lines[:lines.index(next(
        line for line in lines if line.startswith("# Turn 2")))])
    assert ref.view("public")["table"]["last_check"] == {
        "player": "ana", "room": "garden", "target": 7, "roll": 6, "bonus": 0, "stamina": 1, "total": 7,
        "success": True, "rewarded": False}
    assert ref.view("public")["table"]["people"]["ana"] == {"room": "garden", "stamina": 1, "items": []}


def test_each_scripted_game_restarts_to_the_same_end(tmp_path: Path) -> None:
    assert_each_restarts_to_the_same_end(DOCS, ("lab-escape-3p.jsonl", "lab-escape-2p.jsonl"), tmp_path)


def test_the_two_player_game_ends_with_ana_who_stole_the_key(tmp_path: Path) -> None:
    ref = replay(DOCS / "lab-escape-2p.jsonl", tmp_path)
    public = ref.view("public")
    assert public["result"] == {"ranking": [["ana"], ["ben"]], "winners": ["ana"], "reason": "lab_escape.win"}
    table = public["table"]
    assert table["people"] == {
        "ana": {"room": "hall", "stamina": 5, "items": ["access_card", "usb_key"]},
        "ben": {"room": "archive", "stamina": 5, "items": ["cat", "weapon"]},
    }
    # E1.2: one access card and one key with two players, so both rooms were armed; three weapons in all,
    # none left for the Archive
    assert table["supply"]["weapon"] == 0 and table["floor"] == {"operating": ["weapon"], "tool_room": ["weapon"]}
    assert table["last_attack"]["won"] is False and table["turn"]["number"] == 13
    # the timer ran out in Ben's action in turn 10: his turn ended there
    clock = [(e.input.move, e.input.at) for e in ref.events if e.input.by == "clock"]
    assert [m for m, _ in clock] == ["timer.warn", "timer.expire"] and clock[1][0] == "timer.expire"
    expired = clock[1][1]
    assert table["timers"]["turn"]["running"] is False  # stopped by the win
    ana_11 = next(e for e in ref.events if e.input.by == "player:ana" and e.input.at > expired)
    assert ana_11.input.move == "step" and ana_11.input.args == {"room": "archive"}
    assert_invariants(ref.state)
