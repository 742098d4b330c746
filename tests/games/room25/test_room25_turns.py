"""Room 25: programming and the turn (R2.1, R2.2) and the four actions (R2.3-R2.6), worked out by hand."""

from __future__ import annotations

from tests.kits.room25_table import Table, tile


def actors(t: Table) -> list[tuple[str | None, str]]:
    """Play every action by forfeiting it, noting who acted with what, until programming comes round."""
    seen = []
    while t.phase == "action":
        seen.append((t.turn_of, t.state["current"]["action"]))
        t.act(str(t.turn_of), "act.forfeit")
    return seen


def test_R2_1_each_player_programs_two_different_actions_in_secret() -> None:
    t = Table().lay({})
    assert t.refused("player:ana", "plan", actions=["move", "move"]) == "reject.room25_plan_twice"
    assert t.refused("player:ana", "plan", actions=["move"]) == "reject.room25_plan_size"
    assert t.refused("player:ana", "plan", actions=["move", "look", "push"]) == "reject.bad_argument"
    assert t.refused("player:ana", "plan", actions=["jump", "look"]) == "reject.bad_argument"
    t.plan(("ana", ["move", "look"]))
    assert t.private("ana")["plan"] == ["move", "look"]
    assert t.private("ben")["plan"] is None
    public = t.public()
    assert public["program"] == {"waiting_for": ["ben", "chai"], "revealed": []}
    assert "look" not in str(public)


def test_R2_1_a_plan_can_be_redone_until_everyone_has_planned_then_never_changed() -> None:
    t = Table().lay({})
    t.plan(("ana", ["move", "look"]), ("ana", ["look", "move"]), ("ben", ["move", "look"]), ("chai", ["move", "look"]))
    assert t.state["current"]["action"] == "look"  # Ana's second plan stands
    assert t.refused("player:ana", "plan", actions=["move", "look"]) == "reject.wrong_phase"
    assert t.refused("player:ana", "act.move", direction="up") == "reject.room25_other_action"


def test_R2_2_all_first_actions_in_turn_order_then_all_second_then_the_first_player_goes_last() -> None:
    t = Table().lay({})
    t.plan(("ana", ["move", "look"]), ("ben", ["look", "control"]), ("chai", ["control", "move"]))
    assert actors(t) == [("ana", "move"), ("ben", "look"), ("chai", "control"),
                         ("ana", "look"), ("ben", "control"), ("chai", "move")]
    assert t.state["turn"] == 2
    assert t.public()["order"] == ["ben", "chai", "ana"]
    t.plan_all(["move", "look"])
    assert [a for a, _ in actors(t)] == ["ben", "chai", "ana", "ben", "chai", "ana"]
    assert t.public()["order"] == ["chai", "ana", "ben"]


def test_R2_1_actions_are_revealed_one_by_one_as_they_are_played() -> None:
    t = Table().lay({})
    t.plan(("ana", ["move", "look"]), ("ben", ["look", "control"]), ("chai", ["push", "move"]))
    # Ana's move is revealed; ben's and chai's are not yet (chai's push is impossible in the start room,
    # but it is revealed only when its time comes)
    assert t.public()["program"]["revealed"] == [["ana", 0, "move"]]
    assert t.public()["current"] == {"player": "ana", "slot": 0, "action": "move"}
    t.act("ana", "act.move", direction="up")
    revealed = t.public()["program"]["revealed"]
    assert revealed == [["ana", 0, "move"], ["ben", 0, "look"]]


def test_R2_3_a_look_shows_one_adjacent_closed_room_to_the_looker_only() -> None:
    t = Table().lay({(1, 2): "death"})
    t.plan_all(["look", "move"])
    assert t.refused("player:ana", "act.look", direction="sideways") == "reject.room25_bad_direction"
    t.act("ana", "act.look", direction="up")
    assert t.private("ana")["peeks"] == [{"tile": tile(1, 2), "room": "death", "cell": [1, 2]}]
    assert t.private("ben")["peeks"] == []
    assert t.public()["rooms"][tile(1, 2)]["room"] is None
    assert "death" not in str(t.public())
    assert t.state["announcements"][-2]["msg"] == "room25.looked"


def test_R2_3_a_peek_follows_its_tile_when_the_line_slides() -> None:
    t = Table().lay({(1, 2): "death"})
    t.plan(("ana", ["look", "move"]), ("ben", ["control", "move"]), ("chai", ["look", "move"]))
    t.act("ana", "act.look", direction="up")
    t.act("ben", "act.control", slide="row1-right")
    assert t.private("ana")["peeks"] == [{"tile": tile(1, 2), "room": "death", "cell": [1, 3]}]


def test_R2_3_only_closed_rooms_can_be_looked_at() -> None:
    t = Table().lay({})
    t.plan_all(["move", "look"])
    t.act("ana", "act.move", direction="up").act("ben", "act.move", direction="up")
    t.act("chai", "act.move", direction="down")
    # Ana is at (1,2); below her is the start room, face up
    assert t.refused("player:ana", "act.look", direction="down") == "reject.room25_not_closed"


def test_R2_4_moving_into_a_closed_room_turns_it_up_for_everyone() -> None:
    t = Table().lay({(2, 3): "empty"})
    t.plan_all(["move", "look"])
    t.act("ana", "act.move", direction="right")
    assert t.cell("ana") == (2, 3)
    assert t.public()["rooms"][tile(2, 3)]["room"] == "empty"
    assert "room25.room_revealed" in t.said()


def test_R2_5_a_push_sends_another_player_in_the_room_to_a_room_of_the_pushers_choice() -> None:
    t = Table().lay({(1, 2): "empty", (0, 2): "death"})
    t.plan(("ana", ["move", "push"]), ("ben", ["move", "look"]), ("chai", ["look", "move"]))
    t.act("ana", "act.move", direction="up").act("ben", "act.move", direction="up")
    t.act("chai", "act.look", direction="left")
    assert t.refused("player:ana", "act.push", target="ana", direction="up") == "reject.room25_push_target"
    assert t.refused("player:ana", "act.push", target="chai", direction="up") == "reject.room25_push_target"
    t.act("ana", "act.push", target="ben", direction="up")
    assert t.status("ben") == "dead"  # the same effect as if he had moved there: the death room
    assert t.public()["rooms"][tile(0, 2)]["room"] == "death"


def test_R2_5_nobody_is_pushed_out_of_the_start_room() -> None:
    t = Table().lay({})
    t.plan(("ana", ["push", "move"]), ("ben", ["move", "look"]), ("chai", ["look", "move"]))
    # the push cannot be made at all: it is forfeited when its time comes (R2.1)
    assert t.turn_of == "ben"
    assert "room25.action_impossible" in t.said()


def test_R2_6_a_slide_moves_a_whole_line_and_what_falls_off_comes_in_at_the_other_end() -> None:
    t = Table().lay({})
    t.plan(("ana", ["control", "move"]), ("ben", ["look", "move"]), ("chai", ["look", "move"]))
    t.act("ana", "act.control", slide="row0-right")
    assert t.public()["grid"][0] == [4, 0, 1, 2, 3]
    assert t.public()["locks"] == {"row0": "right"}


def test_R2_6_the_start_rooms_row_and_column_never_slide_and_a_line_keeps_its_first_direction() -> None:
    t = Table().lay({})
    t.plan(("ana", ["control", "move"]), ("ben", ["control", "move"]), ("chai", ["look", "move"]))
    assert t.refused("player:ana", "act.control", slide="row2-left") == "reject.room25_start_line"
    assert t.refused("player:ana", "act.control", slide="col2-up") == "reject.room25_start_line"
    assert t.refused("player:ana", "act.control", slide="row1-up") == "reject.room25_bad_slide"
    t.act("ana", "act.control", slide="col3-up")
    assert t.refused("player:ben", "act.control", slide="col3-down") == "reject.room25_line_locked"
    t.act("ben", "act.control", slide="col3-up")
    assert [row[3] for row in t.public()["grid"]] == [13, 18, 23, 3, 8]


def test_R2_6_players_ride_on_the_tile_they_stand_on() -> None:
    t = Table().lay({})
    t.plan(("ana", ["move", "look"]), ("ben", ["control", "look"]), ("chai", ["look", "move"]))
    t.act("ana", "act.move", direction="up")
    t.act("ben", "act.control", slide="row1-left")
    assert t.cell("ana") == (1, 1)
    assert t.cell("ben") == (2, 2)
