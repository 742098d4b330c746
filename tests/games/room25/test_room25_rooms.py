"""Room 25: every room's effect (R3), worked out by hand from the rule text. Three players in the start
room (2,2); Ana acts first. Rooms are laid by hand; every other hidden room is empty."""

from __future__ import annotations

from tests.kits.room25_table import Table, tile

RIGHT = (2, 3)


def ana_enters(room: str, second: str = "look", more: dict[tuple[int, int], str] | None = None) -> Table:
    """Ana's first action takes her right into `room`; Ben and Chai plan look then move."""
    t = Table().lay({RIGHT: room, **(more or {})})
    t.plan(("ana", ["move", second]), ("ben", ["look", "move"]), ("chai", ["look", "move"]))
    t.act("ana", "act.move", direction="right")
    return t


def test_R3_1_empty_room_does_nothing() -> None:
    t = ana_enters("empty")
    assert t.cell("ana") == RIGHT and t.status("ana") == "alive"
    assert t.phase == "action" and t.turn_of == "ben"
    assert t.said()[-3:] == ["room25.moved", "room25.room_revealed", "room25.action_revealed"]


def test_R3_1_passage_may_take_the_player_to_any_face_up_room_with_nobody_in_it() -> None:
    t = Table().lay({RIGHT: "passage", (2, 1): "empty"})
    t.plan(("ana", ["look", "move"]), ("ben", ["move", "look"]), ("chai", ["move", "look"]))
    t.act("ana", "act.look", direction="up")
    t.act("ben", "act.move", direction="left").act("chai", "act.move", direction="left")
    t.act("ana", "act.move", direction="right")
    assert t.phase == "effect" and t.turn_of == "ana"
    # face up: the start room (empty now) and (2,1) (Ben and Chai are there)
    assert t.refused("player:ana", "room.pick", tile=tile(2, 1)) == "reject.room25_bad_pick"
    assert t.refused("player:ana", "room.pick", tile=tile(0, 0)) == "reject.room25_bad_pick"
    t.act("ana", "room.pick", tile=12)
    assert t.cell("ana") == (2, 2)
    assert t.turn_of == "ben"


def test_R3_1_passage_is_optional() -> None:
    t = Table().lay({RIGHT: "passage", (2, 1): "empty"})
    t.plan(("ana", ["look", "move"]), ("ben", ["move", "look"]), ("chai", ["move", "look"]))
    t.act("ana", "act.look", direction="up")
    t.act("ben", "act.move", direction="left").act("chai", "act.move", direction="left")
    t.act("ana", "act.move", direction="right").act("ana", "room.skip")
    assert t.cell("ana") == RIGHT


def test_R3_1_passage_with_no_free_face_up_room_does_nothing() -> None:
    t = ana_enters("passage")  # the only other face-up room, the start, holds Ben and Chai
    assert t.phase == "action" and t.turn_of == "ben" and t.cell("ana") == RIGHT


def test_R3_1_warp_takes_the_player_to_the_other_warp_room_only_once_it_is_face_up() -> None:
    t = Table().lay({RIGHT: "warp", (2, 1): "warp"})
    t.plan(("ana", ["move", "look"]), ("ben", ["move", "look"]), ("chai", ["look", "move"]))
    t.act("ana", "act.move", direction="left")
    assert t.cell("ana") == (2, 1)  # the other warp room was closed: nothing
    t.act("ben", "act.move", direction="right")
    assert t.cell("ben") == (2, 1)  # warped to Ana's room, and not back again
    assert "room25.warped" in t.said()


def test_R3_1_camera_lets_the_player_look_at_any_closed_room_privately() -> None:
    t = ana_enters("camera", more={(0, 0): "death"})
    assert t.phase == "effect"
    assert t.refused("player:ana", "room.pick", tile=12) == "reject.room25_bad_pick"  # the start is face up
    t.act("ana", "room.pick", tile=0)
    assert t.private("ana")["peeks"] == [{"tile": 0, "room": "death", "cell": [0, 0]}]
    assert t.public()["rooms"][0]["room"] is None
    assert "death" not in str(t.public())


def test_R3_1_control_room_gives_one_free_slide() -> None:
    t = ana_enters("control")
    assert t.refused("player:ana", "room.pick", tile=0) == "reject.room25_choose_slide"
    assert t.refused("player:ana", "room.slide", slide="row2-left") == "reject.room25_start_line"
    t.act("ana", "room.slide", slide="row0-left")
    assert t.public()["grid"][0] == [1, 2, 3, 4, 0]
    assert t.public()["locks"] == {"row0": "left"}
    assert t.turn_of == "ben"


def test_R3_2_prison_lets_the_player_out_only_towards_another_player_or_the_start_room() -> None:
    t = Table().lay({(1, 2): "empty", (1, 1): "prison", (2, 1): "empty"})
    t.plan(("ana", ["move", "look"]), ("ben", ["move", "look"]), ("chai", ["look", "move"]))
    t.act("ana", "act.move", direction="up").act("ben", "act.move", direction="left")
    t.act("chai", "act.look", direction="down")
    t.act("ana", "act.look", direction="left").act("ben", "act.look", direction="down")
    t.act("chai", "act.move", direction="down")
    # turn 2: ben, chai, ana. Ana walks into the prison at (1,1); Ben is below it at (2,1)
    t.plan(("ben", ["look", "move"]), ("chai", ["look", "move"]), ("ana", ["move", "look"]))
    t.act("ben", "act.look", direction="left").act("chai", "act.look", direction="left")
    t.act("ana", "act.move", direction="left")
    assert t.cell("ana") == (1, 1)
    t.act("ben", "act.forfeit").act("chai", "act.forfeit").act("ana", "act.forfeit")
    # turn 3: chai, ana, ben. From the prison (not next to the start room) Ana may only go down to Ben
    t.plan(("chai", ["look", "move"]), ("ana", ["move", "look"]), ("ben", ["look", "move"]))
    t.act("chai", "act.forfeit")
    assert t.refused("player:ana", "act.move", direction="right") == "reject.room25_prison"
    assert t.refused("player:ana", "act.move", direction="up") == "reject.room25_prison"
    t.act("ana", "act.move", direction="down")
    assert t.cell("ana") == (2, 1)


def test_R3_2_prison_next_to_the_start_room_lets_the_player_back_to_it() -> None:
    t = ana_enters("prison").forfeit_rest()
    t.plan(("ben", ["look", "move"]), ("chai", ["look", "move"]), ("ana", ["move", "look"]))
    t.act("ben", "act.forfeit").act("chai", "act.forfeit")
    assert t.refused("player:ana", "act.move", direction="up") == "reject.room25_prison"
    t.act("ana", "act.move", direction="left")
    assert t.cell("ana") == (2, 2)


def test_R3_2_dark_room_forbids_look() -> None:
    t = ana_enters("dark")
    t.act("ben", "act.forfeit").act("chai", "act.forfeit")
    # Ana's second action, look, cannot be made from the dark room: forfeited
    assert "room25.action_impossible" in t.said()
    assert t.turn_of == "ben"
    assert t.private("ana")["peeks"] == []


def test_R3_2_cold_room_allows_one_action_next_turn_only() -> None:
    t = ana_enters("cold").forfeit_rest()
    assert t.state["turn"] == 2
    assert t.public()["people"]["ana"]["one_action"] is True
    assert t.private("ana")["actions_this_turn"] == 1
    assert t.refused("player:ana", "plan", actions=["move", "look"]) == "reject.room25_plan_size"
    t.plan(("ana", ["look"]), ("ben", ["look", "move"]), ("chai", ["look", "move"]))
    seen = []
    while t.phase == "action":
        seen.append(t.turn_of)
        t.act(str(t.turn_of), "act.forfeit")
    assert seen == ["ben", "chai", "ana", "ben", "chai"]  # no second action for Ana
    assert t.private("ana")["actions_this_turn"] == 2  # turn 3: back to two


def test_R3_2_vortex_sends_the_player_back_to_the_start_room() -> None:
    t = ana_enters("vortex")
    assert t.cell("ana") == (2, 2)
    assert t.public()["rooms"][tile(*RIGHT)]["room"] == "vortex"


def test_R3_3_flooded_room_kills_who_is_still_in_it_at_the_end_of_the_next_turn() -> None:
    t = ana_enters("flooded").forfeit_rest()
    assert t.status("ana") == "alive"  # the end of the turn she entered
    t.plan_all(["look", "move"]).forfeit_rest()
    assert t.status("ana") == "dead"


def test_R3_3_leaving_the_flooded_room_in_time_saves_the_player() -> None:
    t = ana_enters("flooded").forfeit_rest()
    t.plan(("ben", ["look", "move"]), ("chai", ["look", "move"]), ("ana", ["move", "look"]))
    t.act("ben", "act.forfeit").act("chai", "act.forfeit").act("ana", "act.move", direction="left")
    t.forfeit_rest()
    assert t.status("ana") == "alive" and t.state["turn"] == 3


def test_R3_3_trap_kills_unless_the_next_action_takes_the_player_out() -> None:
    t = ana_enters("trap")
    t.act("ben", "act.forfeit").act("chai", "act.forfeit")
    assert t.status("ana") == "alive"
    t.act("ana", "act.look", direction="up")
    assert t.status("ana") == "dead"


def test_R3_3_moving_out_of_the_trap_with_the_next_action_saves_the_player() -> None:
    t = Table().lay({RIGHT: "trap"})
    t.plan(("ana", ["look", "move"]), ("ben", ["look", "move"]), ("chai", ["look", "move"]))
    t.act("ana", "act.forfeit").act("ben", "act.forfeit").act("chai", "act.forfeit")
    t.act("ana", "act.move", direction="right").forfeit_rest()  # in with her last action of turn 1
    assert t.status("ana") == "alive" and t.public()["people"]["ana"]["trapped"] is True
    t.plan(("ben", ["look", "move"]), ("chai", ["look", "move"]), ("ana", ["move", "look"]))
    t.act("ben", "act.forfeit").act("chai", "act.forfeit").act("ana", "act.move", direction="left")
    t.forfeit_rest()
    assert t.status("ana") == "alive" and t.public()["people"]["ana"]["trapped"] is False


def test_R3_3_a_player_pushed_into_the_trap_must_get_out_with_their_own_next_action() -> None:
    t = Table().lay({(1, 2): "empty", (1, 3): "trap"})
    t.plan(("ana", ["move", "push"]), ("ben", ["move", "look"]), ("chai", ["look", "move"]))
    t.act("ana", "act.move", direction="up").act("ben", "act.move", direction="up")
    t.act("chai", "act.forfeit")
    t.act("ana", "act.push", target="ben", direction="right")
    assert t.cell("ben") == (1, 3)
    t.act("ben", "act.look", direction="up")  # Ben's next action: a look, he stays
    assert t.status("ben") == "dead"


def test_R3_3_acid_kills_who_was_there_when_a_second_player_enters() -> None:
    t = Table().lay({RIGHT: "acid"})
    t.plan(("ana", ["move", "look"]), ("ben", ["move", "look"]), ("chai", ["look", "move"]))
    t.act("ana", "act.move", direction="right")
    assert t.status("ana") == "alive"
    t.act("ben", "act.move", direction="right")
    assert (t.status("ana"), t.status("ben")) == ("dead", "alive")


def test_R3_3_smoke_moves_the_player_into_an_adjacent_closed_room_whose_effect_applies() -> None:
    t = ana_enters("smoke", more={(2, 4): "death"})
    assert t.phase == "effect"
    assert t.refused("player:ana", "room.skip") == "reject.room25_must_choose"
    assert t.refused("player:ana", "room.pick", tile=0) == "reject.room25_bad_pick"  # not adjacent
    t.act("ana", "room.pick", tile=tile(2, 4))
    assert t.status("ana") == "dead"
    assert t.public()["rooms"][tile(2, 4)]["room"] == "death"


def test_R3_3_death_room_kills_and_the_dead_leave_the_grid_and_act_no_more() -> None:
    t = ana_enters("death")
    assert t.status("ana") == "dead"
    assert t.public()["people"]["ana"]["cell"] is None  # R3.4
    t.act("ben", "act.forfeit").act("chai", "act.forfeit")
    assert t.public()["program"]["revealed"][3] == ["ana", 1, None]  # her look is void, never played
    assert t.turn_of == "ben"
    t.forfeit_rest()
    assert t.state["program"]["expected"] == ["ben", "chai"]


def test_R3_a_room_pushed_off_one_end_comes_in_at_the_other_and_its_riders_enter_it_again() -> None:
    t = Table().lay({(1, 2): "control"})
    t.plan(("ana", ["move", "look"]), ("ben", ["control", "look"]), ("chai", ["control", "look"]))
    t.act("ana", "act.move", direction="up").act("ana", "room.skip")
    t.act("ben", "act.control", slide="row1-left").act("chai", "act.control", slide="row1-left")
    assert t.cell("ana") == (1, 0)
    t.forfeit_rest()
    t.plan(("ben", ["control", "look"]), ("chai", ["look", "move"]), ("ana", ["look", "move"]))
    t.act("ben", "act.control", slide="row1-left")
    assert t.cell("ana") == (1, 4)
    assert (t.phase, t.turn_of) == ("effect", "ana")  # the control room's free slide, again (slide-in)
    t.act("ana", "room.slide", slide="row0-right")
    assert (t.phase, t.turn_of) == ("action", "chai")

