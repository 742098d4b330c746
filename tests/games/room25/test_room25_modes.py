"""Room 25: the exit (R4) and each mode's win and loss (R5), worked out by hand.

The exit is laid at (1,0), an outer cell (R1.1): three steps from the start room, left, up, left. A
player in it takes it out of the complex with the slide row1-left, which pushes (1,0) off the edge.
"""

from __future__ import annotations

from typing import Any

from tests.kits.room25_table import Table, tile

EXIT_AT = (1, 0)


def go(direction: str) -> tuple[str, dict[str, Any]]:
    return ("move", {"direction": direction})


SLIDE_OUT = ("control", {"slide": "row1-left"})


def walk_to_exit(t: Table, who: list[str], out: str | None = None) -> Table:
    """`who` walk left, up, left (one step a turn) into the exit; then `out` slides it out."""
    for step in ("left", "up"):
        t.turn({p: [go(step)] for p in who})
    last = {p: [go("left")] for p in who}
    if out is not None:
        last[out] = [go("left"), SLIDE_OUT]
    return t.turn(last)


def deal(t: Table, roles: dict[str, str]) -> Table:
    """Suspicion: the role cards as dealt (set by hand; the seeded deal is tested elsewhere)."""
    t.state["deal"]["assigned"] = dict(roles)
    return t


# -- the exit (R4) ----------------------------------------------------------------------------------------


def test_R4_1_the_exit_seen_before_turn_5_leaves_exactly_five_more_turns() -> None:
    t = deal(Table("suspicion", 4).lay({EXIT_AT: "exit"}), {"ana": "prisoner", "ben": "prisoner",
                                                            "chai": "prisoner", "dao": "guard"})
    walk_to_exit(t, ["ana"])
    assert t.public()["rooms"][tile(*EXIT_AT)]["room"] == "exit"
    assert t.state["last_turn"] == 3 + 5
    assert "room25.countdown_reset" in t.said()
    t.turns(5)
    assert t.result is not None and t.state["turn"] == 8
    assert t.result["reason"] == "room25.win.guards"


def test_R4_1_the_exit_seen_in_turn_5_or_later_changes_nothing() -> None:
    t = deal(Table("suspicion", 4).lay({EXIT_AT: "exit"}), {"ana": "prisoner", "ben": "prisoner",
                                                            "chai": "prisoner", "dao": "guard"})
    t.turns(2)
    walk_to_exit(t, ["ana"])
    assert t.state["turn"] == 6 and t.public()["rooms"][tile(*EXIT_AT)]["room"] == "exit"
    assert t.state["last_turn"] == 10


def test_R4_1_eight_turn_modes_never_reset() -> None:
    t = walk_to_exit(Table("cooperation", 2).lay({EXIT_AT: "exit"}), ["ana"])
    assert t.state["exit_found"] and t.state["last_turn"] == 8


def test_R4_2_the_exit_leaves_when_a_player_inside_slides_it_off_the_edge() -> None:
    t = walk_to_exit(Table("solo", 1).lay({EXIT_AT: "exit"}), ["ana"], out="ana")
    assert t.public()["exit_left"] is True
    assert t.public()["escaped"] == ["ana"]
    assert t.public()["grid"][1] == [6, 7, 8, 9, None]  # the exit is gone; the gap it left
    assert t.result == {"ranking": [["ana"]], "winners": ["ana"], "reason": "room25.win.cooperation"}


def test_R4_2_only_a_player_inside_can_take_a_face_up_exit_out() -> None:
    t = Table("cooperation", 2).lay({EXIT_AT: "exit"})
    walk_to_exit(t, ["ana"])
    t.plan(("ana", ["look", "move"]), ("ben", ["control", "move"]))
    assert t.turn_of == "ben"  # turn 4: Ben is first
    assert t.refused("player:ben", "act.control", slide="row1-left") == "reject.room25_exit_from_inside"


def test_R4_2_a_closed_exit_slid_off_the_edge_comes_back_in_like_any_room() -> None:
    t = Table("cooperation", 2).lay({EXIT_AT: "exit"})
    t.turn({"ana": [("control", {"slide": "row1-left"})]})
    assert t.public()["grid"][1] == [6, 7, 8, 9, 5]
    assert t.public()["exit_left"] is False and t.result is None


# -- suspicion (R5.1, R5.2) --------------------------------------------------------------------------------

FOUR = {"ana": "prisoner", "ben": "prisoner", "chai": "prisoner", "dao": "guard"}


def test_R5_1_prisoners_win_when_every_prisoner_leaves_with_the_exit() -> None:
    t = deal(Table("suspicion", 4).lay({EXIT_AT: "exit"}), FOUR)
    walk_to_exit(t, ["ana", "ben", "chai"], out="chai")
    assert t.result is not None
    assert t.result["reason"] == "room25.win.prisoners"
    assert t.result["ranking"] == [["ana", "ben", "chai"], ["dao"]]
    assert t.public()["roles"]["revealed"] == FOUR  # the game is over: every card is shown


def test_R5_1_prisoners_still_win_with_one_of_them_left_behind() -> None:
    t = deal(Table("suspicion", 4).lay({EXIT_AT: "exit"}), FOUR)
    walk_to_exit(t, ["ana", "ben"], out="ben")
    assert t.result is not None and t.result["winners"] == ["ana", "ben", "chai"]


def test_R5_1_guards_win_when_the_exit_leaves_two_prisoners_behind() -> None:
    t = deal(Table("suspicion", 4).lay({EXIT_AT: "exit"}), FOUR)
    walk_to_exit(t, ["ana"], out="ana")
    assert t.result is not None and t.result["reason"] == "room25.win.guards"
    assert t.result["winners"] == ["dao"]


def test_R5_1_guards_win_when_the_turns_run_out() -> None:
    t = deal(Table("suspicion", 4).lay({}), FOUR).turns(10)
    assert t.result is not None and t.result["winners"] == ["dao"]
    assert t.state["turn"] == 10


DEATHS = {(2, 3): "death", (2, 1): "death", (1, 2): "death", (3, 2): "death"}
FIVE = {"ana": "prisoner", "ben": "guard", "chai": "prisoner", "dao": "prisoner", "eli": "guard"}


def dies(t: Table, *who: str) -> Table:
    """`who` walk into a death room next to the start, one after another in turn order."""
    return t.turn({p: [go("right")] for p in who})


def revealed(t: Table) -> dict[str, str]:
    shown: dict[str, str] = t.public()["roles"]["revealed"]
    return shown


def test_R5_2_one_death_reveals_nothing() -> None:
    t = dies(deal(Table("suspicion", 5).lay(DEATHS), FIVE), "ana")
    assert t.status("ana") == "dead" and revealed(t) == {}


def test_R5_2_a_second_death_reveals_the_first_and_a_guard_first_stops_there() -> None:
    t = dies(deal(Table("suspicion", 5).lay(DEATHS), FIVE), "ben", "chai")
    assert revealed(t) == {"ben": "guard"}
    assert t.result is None


def test_R5_2_a_prisoner_first_reveals_the_second_too_and_a_guard_second_goes_on() -> None:
    t = dies(deal(Table("suspicion", 5).lay(DEATHS), FIVE), "ana", "ben")
    assert revealed(t) == {"ana": "prisoner", "ben": "guard"}
    assert t.result is None
    t = dies(t, "chai")  # a third death: a prisoner, the second one shown, ends the game
    assert revealed(t)["chai"] == "prisoner"
    assert t.result is not None and t.result["reason"] == "room25.win.guards"


def test_R5_2_two_dead_prisoners_revealed_end_the_game_at_once() -> None:
    t = dies(deal(Table("suspicion", 5).lay(DEATHS), FIVE), "ana", "chai")
    assert t.result is not None and t.result["winners"] == ["ben", "eli"]
    assert "room25.role_revealed" in t.said()


def test_R5_2_a_dead_guard_shown_earlier_lets_the_next_death_wait() -> None:
    t = dies(deal(Table("suspicion", 5).lay(DEATHS), FIVE), "ben", "chai")
    t = dies(t, "dao")  # guard shown; chai (hidden) + dao: two hidden dead, chai is shown first
    shown = [a["params"]["player"] for a in t.state["announcements"] if a["msg"] == "room25.role_revealed"]
    assert shown == ["ben", "chai", "dao"]
    assert t.result is not None and t.result["reason"] == "room25.win.guards"


# -- competition (R5.3) -------------------------------------------------------------------------------------


def test_R5_3_the_first_to_escape_wins() -> None:
    t = walk_to_exit(Table("competition", 3).lay({EXIT_AT: "exit"}), ["ana", "ben"], out="ben")
    assert t.result is not None and t.result["winners"] == ["ana", "ben"]  # out together: they share
    assert t.result["reason"] == "room25.win.escaped"


def test_R5_3_the_last_one_alive_wins() -> None:
    t = dies(Table("competition", 3).lay(DEATHS), "ana", "chai")
    assert t.result is not None and t.result["winners"] == ["ben"]


def test_R5_3_when_time_runs_out_the_nearest_to_the_exit_wins_and_ties_share() -> None:
    t = Table("competition", 3).lay({(0, 0): "exit"})
    t.turn({"ana": [go("up")], "ben": [go("left")]})  # both 3 steps from (0,0); Chai 4
    t.turns(9)
    assert t.result is not None and t.result["ranking"] == [["ana", "ben"], ["chai"]]
    assert t.result["reason"] == "room25.win.nearest"


# -- team (R5.4) ----------------------------------------------------------------------------------------------


def test_R5_4_teams_by_default_alternate_seats() -> None:
    assert Table("team", 4).public()["teams"] == [["ana", "chai"], ["ben", "dao"]]


def test_R5_4_a_team_wins_when_the_other_team_is_dead() -> None:
    t = dies(Table("team", 4).lay(DEATHS), "ben", "dao")
    assert t.result is not None and t.result["winners"] == ["ana", "chai"]


def test_R5_4_a_team_wins_by_escaping_with_at_most_one_member_dead() -> None:
    t = Table("team", 4, teams=[["ana", "ben"], ["chai", "dao"]]).lay({EXIT_AT: "exit", (2, 3): "death"})
    t.turn({"chai": [go("right")]})
    walk_to_exit(t, ["dao"], out="dao")
    assert t.result is not None and t.result["winners"] == ["chai", "dao"]


def test_R5_4_when_time_runs_out_more_living_members_win_then_the_nearer_team() -> None:
    t = dies(Table("team", 4).lay({**DEATHS, (0, 0): "exit"}), "ben").turns(9)
    assert t.result is not None and t.result["winners"] == ["ana", "chai"]
    t = Table("team", 4).lay({(0, 0): "exit", (1, 2): "empty"})
    t.turn({"ben": [go("up")]}).turns(9)
    assert t.result is not None and t.result["winners"] == ["ben", "dao"]


# -- cooperation and solo (R5.5) -------------------------------------------------------------------------------


def test_R5_5_cooperation_wins_when_everyone_gets_out() -> None:
    t = walk_to_exit(Table("cooperation", 3).lay({EXIT_AT: "exit"}), ["ana", "ben", "chai"], out="chai")
    assert t.result is not None and t.result["winners"] == ["ana", "ben", "chai"]


def test_R5_5_cooperation_allows_one_death() -> None:
    t = dies(Table("cooperation", 3).lay({EXIT_AT: "exit", (2, 3): "death"}), "chai")
    walk_to_exit(t, ["ana", "ben"], out="ben")
    assert t.result is not None and t.result["reason"] == "room25.win.cooperation"


def test_R5_5_cooperation_loses_with_two_deaths_a_player_left_behind_or_time_up() -> None:
    t = dies(Table("cooperation", 3).lay(DEATHS), "ana", "ben")
    assert t.result is not None and t.result["reason"] == "room25.lose.cooperation"
    assert t.result["winners"] == [] and t.result["ranking"] == []
    t = walk_to_exit(Table("cooperation", 3).lay({EXIT_AT: "exit"}), ["ana", "ben"], out="ben")
    assert t.result is not None and t.result["reason"] == "room25.lose.cooperation"
    t = Table("cooperation", 3).lay({}).turns(8)
    assert t.result is not None and t.result["reason"] == "room25.lose.cooperation" and t.state["turn"] == 8


def test_R5_5_solo_loses_on_death_or_time() -> None:
    t = dies(Table("solo", 1).lay(DEATHS), "ana")
    assert t.result is not None and t.result["winners"] == []
    t = Table("solo", 1).lay({}).turns(8)
    assert t.result is not None and t.result["reason"] == "room25.lose.cooperation"
