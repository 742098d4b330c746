"""Room 25 with physical tiles: the table lays the rooms and reports each one as it is turned up, by
tapping its token or on the screen; the referee checks the report against what the box holds (R1.1)."""

from __future__ import annotations

from tests.kits.room25_bot import GAME
from tests.kits.room25_table import Table, tile


def physical(mode: str = "cooperation", players: int = 3) -> Table:
    return Table(mode, players, tiles="physical")


def test_a_closed_room_entered_waits_for_the_table_to_say_which_room_it_is() -> None:
    t = physical()
    t.plan_all(["move", "look"])
    t.act("ana", "act.move", direction="right")
    assert t.phase == "reveal" and t.turn_of is None
    assert t.public()["waiting"] == {"kind": "reveal", "player": "ana", "tile": tile(2, 3)}
    prompt = GAME.prompts(t.state, "host")[0].to_json()
    assert prompt["move"] == "room.reveal" and prompt["params"] == {"row": 3, "col": 4}
    kinds = [c["value"] for c in prompt["fields"][0]["choices"]]
    assert "exit" not in kinds  # (2,3) is in the ring: the exit was shuffled among the outer cells
    assert "death" in kinds and "start" not in kinds
    assert t.refused("player:ana", "room.reveal", kind="dark") == "reject.not_allowed"
    t.send("table", "room.reveal", kind="vortex")
    assert t.cell("ana") == (2, 2)  # the effect applies once the room is known
    assert t.public()["rooms"][tile(2, 3)]["room"] == "vortex"
    assert t.turn_of == "ben"


def test_the_report_must_fit_the_box_and_the_setup() -> None:
    t = physical()
    t.plan_all(["move", "look"])
    t.act("ana", "act.move", direction="right")
    assert t.refused("table", "room.reveal", kind="exit") == "reject.room25_not_that_room"
    assert t.refused("table", "room.reveal", kind="kitchen") == "reject.room25_unknown_room"
    assert t.refused("table", "room.reveal", kind="start") == "reject.room25_unknown_room"
    t.send("host", "room.reveal", kind="death")  # cooperation has one death room
    t.act("ben", "act.move", direction="left")
    assert t.refused("table", "room.reveal", kind="death") == "reject.room25_not_that_room"


def test_a_tapped_room_token_is_the_report() -> None:
    t = physical()
    assert GAME.on_token(t.state, "room", "dark", "table") is None  # nothing is being turned up
    t.plan_all(["move", "look"])
    t.act("ana", "act.move", direction="right")
    move, args = GAME.on_token(t.state, "room", "dark", "table") or ("", {})
    t.send("table", move, **args)
    assert t.public()["rooms"][tile(2, 3)]["room"] == "dark"
    assert GAME.on_token(t.state, "player", "ana", "table") is None


def test_a_look_at_a_physical_tile_notes_the_tile_but_the_referee_does_not_know_the_room() -> None:
    t = physical()
    t.plan_all(["look", "move"])
    t.act("ana", "act.look", direction="up")
    assert t.private("ana")["peeks"] == [{"tile": tile(1, 2), "room": None, "cell": [1, 2]}]


def test_at_the_end_of_a_competition_the_table_shows_where_the_exit_is() -> None:
    t = physical("competition", 2)
    t.turns(10)
    assert t.phase == "locate_exit" and t.result is None
    prompt = GAME.prompts(t.state, "host")[0].to_json()
    assert prompt["move"] == "exit.locate"
    assert {c["value"] for c in prompt["fields"][0]["choices"]} == {tile(*c) for c in
                                                                     [(0, 0), (0, 1), (0, 3), (0, 4), (1, 0), (1, 4),
                                                                      (3, 0), (3, 4), (4, 0), (4, 1), (4, 3), (4, 4)]}
    assert t.refused("table", "exit.locate", tile=tile(1, 1)) == "reject.room25_not_exit_here"
    t.send("table", "exit.locate", tile=tile(0, 0))
    assert t.result is not None and t.result["winners"] == ["ana", "ben"]  # both in the start room: a tie
    assert "room25.exit_located" in t.said()
