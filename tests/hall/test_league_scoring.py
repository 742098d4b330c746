"""The scoring an organiser chooses and the corrections (issue 29; league/scoring.py, corrections.py),
worked out by hand on a small night: a 3-player and a 4-player table, then a 3-player one."""

from __future__ import annotations

from typing import Any

import pytest

from companion.hall.league.corrections import apply
from companion.hall.league.scoring import Scoring, from_json, game_points
from companion.hall.league.standings import standings
from tests.kits.league_results import result

ROSTER = [{"id": pid, "name": pid.title()} for pid in ("ana", "ben", "cai", "dao", "eve", "fay", "gus")]
NIGHT = [
    result("t1", 1, "toolkit", [["ana"], ["ben"], ["cai"]]),  # 3 players
    result("t2", 1, "toolkit", [["dao"], ["eve"], ["fay"], ["gus"]]),  # 4 players
    result("t1", 2, "toolkit", [["eve"], ["ana"], ["gus"]]),  # 3 players
]


def table(rows: list[Any]) -> list[tuple[str, float, int]]:
    return [(r.name, r.points, r.rank) for r in rows]


def test_placing_points_add_up_by_table_size() -> None:
    # by hand: Ana 3+2, Ben 2, Cai 1, Dao 4, Eve 3+3, Fay 2, Gus 1+1
    points = {r.id: r.points for r in standings(NIGHT, ROSTER)}
    assert points == {"ana": 5, "ben": 2, "cai": 1, "dao": 4, "eve": 6, "fay": 2, "gus": 2}


def test_players_beaten_over_players_one_could_beat() -> None:
    beaten = Scoring("beaten", tiebreakers=("head_to_head", "rating"))
    assert game_points(NIGHT[0], beaten) == {"ana": 1.0, "ben": 0.5, "cai": 0.0}
    assert game_points(NIGHT[1], beaten) == {"dao": 1.0, "eve": 0.6667, "fay": 0.3333, "gus": 0.0}
    # by hand: Eve 0.6667+1 = 1.6667, Ana 1+0.5 = 1.5, Dao 1, Ben 0.5, Fay 0.3333, Cai 0, Gus 0+0
    rows = standings(NIGHT, ROSTER, beaten)
    assert [(r.name, r.points) for r in rows][:5] == [("Eve", 1.6667), ("Ana", 1.5), ("Dao", 1), ("Ben", 0.5),
                                                      ("Fay", 0.3333)]
    # Cai and Gus both 0: Gus was never behind Cai (never met), head-to-head equal; then the rating
    assert {r.name for r in rows[5:]} == {"Cai", "Gus"}


def test_a_custom_table_and_the_opponents_average() -> None:
    custom = Scoring("custom", (5, 3, 2, 1), ("opponents", "rating"))
    assert game_points(NIGHT[1], custom) == {"dao": 5, "eve": 3, "fay": 2, "gus": 1}
    rows = {r.id: r for r in standings(NIGHT, ROSTER, custom)}
    # by hand: Ana 5+3 = 8, Eve 3+5 = 8: tied on points; opponents' average: Ana met Ben 3, Cai 2, Eve 8,
    # Gus 1+1 = 2 -> (3+2+8+2)/4 = 3.75; Eve met Dao 5, Fay 2, Gus 2, Ana 8, Gus 2 -> 19/5 = 3.8: Eve first
    assert (rows["ana"].points, rows["eve"].points) == (8, 8)
    assert (rows["eve"].rank, rows["ana"].rank) == (1, 2)


def test_a_scoring_that_cannot_be_is_refused() -> None:
    for bad in ({"rule": "chaos"}, {"rule": "custom", "custom": []}, {"rule": "custom", "custom": [5, -1]},
                {"rule": "placing", "tiebreakers": ["rating", "rating"]}, {"rule": "placing", "x": 1}, [1]):
        with pytest.raises(ValueError, match="scoring"):
            from_json(bad)


def test_corrections_void_edit_cancel_merge_drop_and_rescore() -> None:
    seating = {"seating": "a1a1a1a1", "round": 1, "game": "toolkit", "tables": {"t1": [], "t2": []}}
    fixes = [
        {"kind": "void_result", "args": {"table": "t2", "key": NIGHT[1]["key"]}},
        {"kind": "edit_result",
         "args": {"table": "t1", "key": NIGHT[0]["key"], "ranking": [["cai"], ["ben"], ["ana"]]}},
        {"kind": "cancel_seating", "args": {"seating": "a1a1a1a1", "table": "t2"}},
        {"kind": "merge_players", "args": {"player": "gus", "into": "fay"}},
        {"kind": "drop_player", "args": {"player": "ben"}},
        {"kind": "drop_player", "args": {"player": "dao"}},
        {"kind": "reenter_player", "args": {"player": "dao"}},
        {"kind": "scoring", "args": {"scoring": {"rule": "beaten", "custom": [], "tiebreakers": ["rating"]}}},
    ]
    done = apply(NIGHT, [seating], fixes)
    assert [r["key"] for r in done.results] == [NIGHT[0]["key"], NIGHT[2]["key"]]
    assert [r["key"] for r in done.voided] == [NIGHT[1]["key"]]
    assert done.results[0]["ranking"] == [["cai"], ["ben"], ["ana"]]
    assert done.results[1]["ranking"] == [["eve"], ["ana"], ["fay"]]  # Gus's game is Fay's
    assert done.seatings[0]["tables"] == {"t1": []}
    assert done.dropped == frozenset({"ben"}) and done.scoring.rule == "beaten"
    assert NIGHT[1]["ranking"] == [["dao"], ["eve"], ["fay"], ["gus"]]  # what the tables sent is kept as sent
