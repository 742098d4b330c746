"""The optional turn timer (docs/games/betrayal.md, "Turn timer"): each turn starts it afresh; when it
runs out the turn ends at once if the player is free, else once the room, card, roll or damage the game
waits for is settled; a turn that drew an omen still has its haunt roll (B3.1). After a restart a
running timer is paused."""

from __future__ import annotations

from companion.games.betrayal.game import GAME
from tests.kits.betrayal_table import Table

FOUR = ["vera", "mina", "tobias", "lin"]


def fire(t: Table) -> None:
    """The clock's inputs, at their deadlines, as the main loop sends them."""
    for d in GAME.deadlines(t.state):
        t.at = d.at - 1000
        t.do("clock", d.move, **dict(d.args))


def test_the_host_starts_the_first_turns_timer_and_each_turn_restarts_it() -> None:
    t = Table(FOUR, today="03-01", turn_seconds=60)
    public = GAME.view_public(t.state)
    assert public["timers"]["turn"]["running"] is False and GAME.deadlines(t.state) == []
    assert any(p.move == "timer.resume" for p in GAME.prompts(t.state, "host"))
    t.do("host", "timer.resume")
    started = t.at
    assert [(d.at - started, d.move) for d in GAME.deadlines(t.state)] == [(50_000, "timer.warn"),
                                                                          (60_000, "timer.expire")]
    t.do("ana", "turn.end")
    assert GAME.view_public(t.state)["timers"]["turn"]["deadline"] == t.at + 60_000


def test_time_up_ends_a_free_turn_at_once() -> None:
    t = Table(FOUR, today="03-01", turn_seconds=30)
    t.do("host", "timer.resume").do("ana", "move", to="upper_stair")
    fire(t)
    assert t.turn == "ben"
    said = [m for m, _ in t.said()]
    assert said[-3:] == ["betrayal.timer_warning", "betrayal.timer_expired", "betrayal.turn"]
    assert GAME.view_public(t.state)["timers"]["turn"]["running"] is True  # ben's own time


def test_time_up_while_the_table_lays_a_room_ends_the_turn_after_the_card_and_the_haunt_roll() -> None:
    t = Table(FOUR, today="03-01", turn_seconds=30)
    t.do("host", "timer.resume").do("ana", "explore")
    fire(t)
    assert GAME.phase(t.state) == "room" and t.turn == "ana"
    t.do("table", "room.reveal", room="chapel")
    assert GAME.phase(t.state) == "card"
    t.do("table", "card.reveal", card="mask")
    assert GAME.phase(t.state) == "haunt_roll"  # B3.1: the omen's roll still comes
    t.do("ana", "haunt.roll", dice=[2] * 6)
    assert t.turn == "ben" and GAME.phase(t.state) == "turn"


def test_a_restart_pauses_a_running_timer_and_the_host_can_change_or_stop_it() -> None:
    t = Table(FOUR, today="03-01", turn_seconds=30)
    assert GAME.on_resume(t.state) == []
    t.do("host", "timer.resume")
    assert GAME.on_resume(t.state) == [("timer.pause", {})]
    t.do("host", "timer.pause")
    assert GAME.deadlines(t.state) == []
    t.do("host", "timer.set", seconds=0)
    assert GAME.view_public(t.state)["timers"] == {}
    assert t.refused("host", "timer.resume") == "reject.betrayal_no_timer"
    t.do("host", "timer.set", seconds=45).do("ana", "turn.end")
    assert GAME.view_public(t.state)["timers"]["turn"]["duration"] == 45_000


def test_a_timer_started_while_explorers_are_chosen_ends_nothing() -> None:
    from companion.core.contract import Player, Setup
    from companion.core.fold import initial, step
    from companion.core.inputs import Input

    s = Setup("betrayal", tuple(Player(p, p) for p in ("ana", "ben", "chai")), {"turn_seconds": 20}, 1)
    state = step(GAME, initial(GAME, s), Input("timer.resume", "host", {}, 1000))
    for d in GAME.deadlines(state):
        state = step(GAME, state, Input(d.move, "clock", dict(d.args), d.at))
    assert GAME.phase(state) == "choosing" and state["timer"]["expired"]
    state = step(GAME, state, Input("explorer.choose", "player:ana", {"character": "vera"}, 30_000))
    assert state["explorers"]["ana"]["character"] == "vera" and GAME.phase(state) == "choosing"
