"""The scripted Room 25 games in docs/games/room25/, replayed by the real script runner on a SQLite log
(what `companion replay` does), with their results and the steps that led there checked."""

from __future__ import annotations

from pathlib import Path

from tests.kits.room25_secrets import assert_invariants
from tests.kits.scripted_games import assert_each_restarts_to_the_same_end, docs, replay, said

DOCS = docs("room25")


def test_the_five_player_suspicion_game_ends_with_the_prisoners_escaping(tmp_path: Path) -> None:
    ref = replay(DOCS / "suspicion-5.jsonl", tmp_path)
    public = ref.view("public")
    assert public["ended"] is True
    assert public["result"] == {"ranking": [["ana", "ben", "chai", "dao"], ["eli"]],
                                "winners": ["ana", "ben", "chai", "dao"], "reason": "room25.win.prisoners"}
    table = public["table"]
    assert table["escaped"] == ["chai", "eli", "ana", "ben"]  # the guard got out too, and still lost
    assert table["people"]["dao"]["status"] == "dead"
    assert table["last_turn"] == 8 and table["turn"] == 3  # R4.1: the exit seen in turn 3
    events = said(ref)
    died = events.index(("room25.died", {"player": "dao"}))
    assert not [m for m, _ in events[:died + 2] if m == "room25.role_revealed"]  # R5.2: one death, no reveal
    assert ("room25.countdown_reset", {"last": 8}) in events
    assert table["roles"]["revealed"] == {"ana": "prisoner", "ben": "prisoner", "chai": "prisoner",
                                          "dao": "prisoner", "eli": "guard"}
    assert ref.view("player:ben")["private"]["peeks"][-1]["room"] == "exit"  # what Ben saw in turn 2
    assert_invariants(ref.state)


def test_the_three_player_cooperation_game_ends_with_two_out_and_one_lost(tmp_path: Path) -> None:
    ref = replay(DOCS / "cooperation-3.jsonl", tmp_path)
    public = ref.view("public")
    assert public["result"] == {"ranking": [["ana", "ben", "chai"]], "winners": ["ana", "ben", "chai"],
                                "reason": "room25.win.cooperation"}
    table = public["table"]
    assert table["tiles"] == "physical"
    assert table["people"]["chai"]["status"] == "dead"
    assert table["escaped"] == ["ana", "ben"]
    assert [r["room"] for r in table["rooms"] if r["room"] is not None] == ["exit", "empty", "empty", "start",
                                                                           "trap"]
    assert table["grid"][1][4] is None  # the gap the exit left
    assert ("room25.trapped", {"player": "chai"}) in said(ref)
    assert_invariants(ref.state)


def test_each_scripted_game_restarts_to_the_same_end(tmp_path: Path) -> None:
    assert_each_restarts_to_the_same_end(DOCS, ("suspicion-5.jsonl", "cooperation-3.jsonl"), tmp_path)
