"""Lockdown at the table: prompts per actor, item tokens in physical mode, trades, timers and what their
expiry does, restarts, and host corrections that never reveal a secret."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from companion.core.eventlog import EventLog
from companion.core.inputs import Input
from companion.core.referee import Referee
from companion.games.lockdown import GAME
from tests.kits.lockdown_script import GAMES, by, host, play, prepare, setup_line

START = [prepare("ana", 4, 3, 3, "101"), prepare("ben", 2, 4, 4, "B503")]


def moves_of(view: dict[str, Any]) -> list[str]:
    return [p["move"] for p in view["prompts"]]


def whose(ref: Referee) -> str:
    turn = ref.view("public")["turn"]
    assert isinstance(turn, str)
    return turn


def test_prompts_follow_the_phase_and_go_only_to_their_actor(tmp_path: Path) -> None:
    ref = play(tmp_path / "a.db", setup_line(["ana", "ben"]), [START[0]])
    assert moves_of(ref.view("player:ben")) == ["lockdown.prepare"]
    assert "prompts" not in ref.view("public")
    ref = play(tmp_path / "b.db", setup_line(["ana", "ben"]), START)
    assert moves_of(ref.view("host")) == ["lockdown.begin_actions"]
    assert moves_of(ref.view("player:ana")) == []  # nothing to give yet: no trade form (issue 21)
    ref.state["people"]["ana"]["items"].append(ref.state["stocks"]["101"].pop())  # ana holds a card
    assert moves_of(ref.view("player:ana")) == ["lockdown.offer"]
    ref.submit(Input("lockdown.begin_actions", "host", {}))
    me = whose(ref)
    other = "ben" if me == "ana" else "ana"
    assert moves_of(ref.view(f"player:{me}")) == ["lockdown.move"]
    assert moves_of(ref.view(f"player:{other}")) == []
    path = ref.view(f"player:{me}")["prompts"][0]["fields"][0]
    assert path["kind"] == "path" and path["max"] == ref.state["people"][me]["genes"]["speed"]


def test_a_whole_turn_through_the_referee(tmp_path: Path) -> None:
    ref = play(tmp_path / "t.db", setup_line(["ana", "ben"], seed=3), [*START, host("begin_actions")])
    first = whose(ref)
    path = {"ana": ["102", "103"], "ben": ["B502", "B501"]}[first]
    for inp in (by(first, "move", path=path), by(first, "draw", count=2), by(first, "vote", floor="A2")):
        out = ref.submit(Input(inp["move"], inp["by"], inp["args"]))
        assert out.accepted, out.reason
    me = ref.view(f"player:{first}")["private"]
    assert me["vote"] == "A2" and len(me["turn"]["drawn"]) == 2
    assert ref.submit(Input("lockdown.end_turn", f"player:{first}", {})).accepted
    assert whose(ref) != first


def test_physical_item_cards_are_checked_against_the_room_stock(tmp_path: Path) -> None:
    setup = setup_line(["ana", "ben"], seed=4, items="physical")
    ref = play(tmp_path / "p.db", setup, [prepare("ana", 4, 3, 3, "B106"), prepare("ben", 4, 3, 3, "B106"),
                                           host("begin_actions")])
    me = whose(ref)
    assert GAME.on_token(ref.state, "item", "knife", f"player:{me}") is None  # not moved yet
    assert ref.submit(Input("lockdown.move", f"player:{me}", {"path": ["B107"]})).accepted
    assert GAME.on_token(ref.state, "item", "knife", "table") is None
    move, args = GAME.on_token(ref.state, "item", "knife", f"player:{me}") or ("", {})
    assert (move, args) == ("lockdown.draw", {"cards": ["knife"]})
    assert ref.submit(Input(move, f"player:{me}", args)).accepted
    water = ref.submit(Input("lockdown.draw", f"player:{me}", {"cards": ["water"]}))
    assert not water.accepted and water.reason is not None and water.reason.code == "reject.lockdown_not_in_stock"
    digital = ref.submit(Input("lockdown.draw", f"player:{me}", {"count": 1}))
    assert digital.reason is not None and digital.reason.code == "reject.lockdown_physical_items"
    assert [c.rsplit("-", 1)[0] for c in ref.view(f"player:{me}")["private"]["items"]] == ["knife"]


def test_trades_need_both_sides_and_stay_secret(tmp_path: Path) -> None:
    ref = play(tmp_path / "tr.db", setup_line(["ana", "ben", "cai"]), [
        prepare("ana", 4, 3, 3, "101"), prepare("ben", 4, 3, 3, "B106"), prepare("cai", 4, 3, 3, "B701")])
    ref.state["people"]["ana"]["items"].append(ref.state["stocks"]["101"].pop())  # ana holds a water
    orders = {p: ref.state["people"][p]["order"] for p in ("ana", "ben")}
    offer = {"to": "ben", "give": ["water"], "swap_order": True}
    assert ref.submit(Input("lockdown.offer", "player:ana", offer)).accepted
    assert "water" not in str(ref.view("public")) and "t1" not in str(ref.view("host"))
    assert ref.view("player:cai")["private"]["trades"] == {}
    assert ref.view("player:ben")["private"]["trades"]["t1"]["give"] == ["water"]
    assert "lockdown.accept" in moves_of(ref.view("player:ben"))
    refused = ref.submit(Input("lockdown.accept", "player:cai", {"trade": "t1"}))
    assert refused.reason is not None and refused.reason.code == "reject.lockdown_no_such_trade"
    assert ref.submit(Input("lockdown.accept", "player:ben", {"trade": "t1"})).accepted
    assert [c.rsplit("-", 1)[0] for c in ref.state["people"]["ben"]["items"]] == ["water"]
    assert (ref.state["people"]["ana"]["order"], ref.state["people"]["ben"]["order"]) == (orders["ben"], orders["ana"])


def test_free_phase_timer_expiry_starts_the_actions(tmp_path: Path) -> None:
    setup = setup_line(["ana", "ben"], free_seconds=60, turn_seconds=30)
    ref = play(tmp_path / "f.db", setup, [*[{**s, "at": 1000} for s in START], {"clock": 62000}])
    said = [a["msg"] for a in ref.view("public")["announcements"]]
    assert "lockdown.timer_warning" in said and "lockdown.timer_expired" in said
    assert ref.view("public")["phase"] == "action"
    assert ref.view("public")["table"]["timers"]["turn"]["running"]


def test_turn_timer_expiry_keeps_a_player_who_did_not_move_in_place(tmp_path: Path) -> None:
    setup = setup_line(["ana", "ben"], free_seconds=0, turn_seconds=30)
    ref = play(tmp_path / "e.db", setup, [*START, {**host("begin_actions"), "at": 1000}])
    first = whose(ref)
    room = ref.state["people"][first]["room"]
    from companion.core.clock import advance

    outcomes = advance(ref, 32000)
    assert outcomes and all(o.accepted for o in outcomes)
    assert whose(ref) != first and ref.state["people"][first]["room"] == room
    assert ref.state["ballot"]["votes"] == {}
    assert "lockdown.turn_timed_out" in [a["msg"] for a in ref.view("public")["announcements"]]


def test_turn_timer_expiry_trims_an_overloaded_hand_into_the_room(tmp_path: Path) -> None:
    setup = setup_line(["ana", "ben"], free_seconds=0, turn_seconds=30)
    ref = play(tmp_path / "o.db", setup, [prepare("ana", 4, 5, 1, "102"), prepare("ben", 4, 5, 1, "102"),
                                           {**host("begin_actions"), "at": 1000}])
    first = whose(ref)
    for inp in (Input("lockdown.move", f"player:{first}", {"path": ["101"]}, 2000),
                Input("lockdown.draw", f"player:{first}", {"count": 3}, 3000)):
        assert ref.submit(inp).accepted
    from companion.core.clock import advance

    advance(ref, 40000)
    assert len(ref.state["people"][first]["items"]) == 1 and len(ref.state["stocks"]["101"]) == 9


def test_on_resume_pauses_running_timers_and_the_host_resumes(tmp_path: Path) -> None:
    setup = setup_line(["ana", "ben"], free_seconds=60)
    ref = play(tmp_path / "r.db", setup, START)
    assert GAME.on_resume(ref.state) == [("lockdown.timer_pause", {"name": "free"})]
    assert ref.submit(Input("lockdown.timer_pause", "host", {"name": "free"}, 5000)).accepted
    assert moves_of(ref.view("host")) == ["lockdown.begin_actions", "lockdown.timer_resume"]
    assert ref.submit(Input("lockdown.timer_resume", "host", {"name": "free"}, 9000)).accepted


def test_host_undo_of_a_secret_move_reveals_nothing(tmp_path: Path) -> None:
    ref = play(tmp_path / "u.db", setup_line(["ana", "ben"], seed=3), [*START, host("begin_actions")])
    first = whose(ref)
    public_before = ref.view("public")
    path = {"ana": ["102", "103"], "ben": ["B502", "B501"]}[first]
    assert ref.submit(Input("lockdown.move", f"player:{first}", {"path": path}, 5000)).accepted
    history = ref.view("host")["history"]
    assert history[-1]["msg"] == "history.acted" and "move" not in history[-1] and "args" not in history[-1]
    amend = ref.submit(Input("host.amend", "host", {"seq": len(ref.events), "args": {"path": ["101"]}}, 6000))
    assert amend.reason is not None and amend.reason.code == "reject.amend_secret"
    assert ref.submit(Input("host.undo", "host", {"count": 1}, 7000)).accepted
    after = ref.view("public")
    assert {k: v for k, v in after.items() if k != "corrections"} == {
        k: v for k, v in public_before.items() if k != "corrections"}
    assert path[-1] not in str(ref.view("host"))
    reopened = Referee(GAMES, EventLog(tmp_path / "u.db"), ref.game_id)
    assert reopened.state == ref.state


def test_a_tapped_room_token_aims_the_rocket(tmp_path: Path) -> None:
    ref = play(tmp_path / "k.db", setup_line(["ana", "ben"], seed=4), [
        prepare("ana", 4, 3, 3, "B106"), prepare("ben", 4, 3, 3, "B106"), host("begin_actions")])
    me = whose(ref)
    assert ref.submit(Input("lockdown.move", f"player:{me}", {"path": ["B107"]})).accepted
    assert GAME.on_token(ref.state, "room", "B605", f"player:{me}") is None  # no launcher
    launcher = next(c for c in ref.state["stocks"]["B503"] if c.startswith("rocket"))
    ref.state["stocks"]["B503"].remove(launcher)
    ref.state["people"][me]["items"].append(launcher)
    assert GAME.on_token(ref.state, "room", "B605", f"player:{me}") == ("lockdown.rocket", {"room": "B605"})
    assert ref.submit(Input("lockdown.rocket", f"player:{me}", {"room": "B605"})).accepted
    assert ref.view(f"player:{me}")["private"]["rocket_target"] == "B605"
    assert "B605" not in str(ref.view("public")) and "B605" not in str(ref.view("host"))


def test_the_trade_form_is_offered_only_when_its_send_can_be_accepted(tmp_path: Path) -> None:
    """Issue 21: a form offered with nothing to give could never be sent. Offered now, every give it lists
    is held and the offer it builds (one card for one card) is accepted."""
    ref = play(tmp_path / "o.db", setup_line(["ana", "ben"]), START)
    assert "lockdown.offer" not in moves_of(ref.view("player:ana"))
    ref.state["people"]["ana"]["items"].append(ref.state["stocks"]["101"].pop())
    form = ref.view("player:ana")["prompts"][0]
    fields = {f["name"]: f for f in form["fields"]}
    assert [c["value"] for c in fields["to"]["choices"]] == ["ben"]
    give, get = fields["give"]["choices"][0]["value"], fields["get"]["choices"][0]["value"]
    assert ref.submit(Input("lockdown.offer", "player:ana", {"to": "ben", "give": [give], "get": [get]})).accepted
    ref.state["people"]["ben"]["shadow"] = True  # L8.1: a shadow holds no items, so nobody is left to trade with
    assert "lockdown.offer" not in moves_of(ref.view("player:ana"))
