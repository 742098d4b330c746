"""The toolkit game end to end: inline scripts played by `companion.scripting.run` on a real SQLite log.

Secrecy is checked by counterfactuals: two games that differ only in a secret (who voted for what, a
hidden counter) must give identical views to everyone who may not know that secret. A search for the
option's text would not do, since the public view rightly lists every option.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from companion.core.clock import advance
from companion.core.eventlog import EventLog
from companion.core.inputs import Input
from companion.core.referee import Referee
from companion.games import registry
from companion.scripting import run

GAMES = registry()
PLAYERS = ["ana", "ben", "chai", "dao"]
AUDIENCES = ["public", "host", *(f"player:{p}" for p in PLAYERS)]
SETUP: dict[str, Any] = {
    "game": "toolkit",
    "players": [{"id": p, "name": p.title()} for p in PLAYERS],
    "seed": 2026,
}


def host(move: str, at: int, **args: Any) -> dict[str, Any]:
    return {"by": "host", "move": move, "args": args, "at": at}


def player(pid: str, move: str, at: int, **args: Any) -> dict[str, Any]:
    return {"by": f"player:{pid}", "move": move, "args": args, "at": at}


def vote(pid: str, option: str, at: int, name: str = "exile") -> dict[str, Any]:
    return player(pid, "ballot.vote", at, name=name, option=option)


def play(path: Path, *lines: dict[str, Any], setup: dict[str, Any] | None = None) -> Referee:
    """Run an inline script on a fresh SQLite file; every line must be accepted."""
    text = [json.dumps(setup or SETUP), *(json.dumps(line) for line in lines)]
    return run(GAMES, EventLog(path), text)


def views(ref: Referee) -> dict[str, Any]:
    return {aud: ref.view(aud) for aud in AUDIENCES}


def stored(ref: Referee) -> int:
    """How many events the SQLite file holds for this game (read back, not the in-memory list)."""
    return len(ref.log.events(ref.game_id))


def without_corrections(view: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in view.items() if k != "corrections"}


def said(ref: Referee) -> list[tuple[int, str, dict[str, Any]]]:
    return [(a["at"], a["msg"], a["params"]) for a in ref.view("public")["announcements"]]


# -- timers ---------------------------------------------------------------------------------------------

TIMER = [host("timer.create", 0, name="day", seconds=60, warnings=[30, 10]), host("timer.start", 1000, name="day")]
STARTED = (1000, "toolkit.timer_started", {"name": "day"})
WARN_30 = (31_000, "toolkit.timer_warning", {"name": "day", "seconds": 30})
WARN_10 = (51_000, "toolkit.timer_warning", {"name": "day", "seconds": 10})
EXPIRED = (61_000, "toolkit.timer_expired", {"name": "day"})
CLOCK_MOVE = {"toolkit.timer_warning": "timer.warn", "toolkit.timer_expired": "timer.expire"}


@pytest.mark.parametrize(
    ("clock", "expected"),
    [
        (30_999, [STARTED]),
        (31_000, [STARTED, WARN_30]),
        (60_999, [STARTED, WARN_30, WARN_10]),
        (61_000, [STARTED, WARN_30, WARN_10, EXPIRED]),
        (500_000, [STARTED, WARN_30, WARN_10, EXPIRED]),
    ],
)
def test_a_timer_warns_then_expires_in_order_each_stamped_with_its_deadline(
    tmp_path: Path, clock: int, expected: list[Any]
) -> None:
    ref = play(tmp_path / "log.sqlite3", *TIMER, {"clock": clock})
    assert said(ref) == expected
    logged = [(e.input.move, e.input.at) for e in ref.events if e.input.by == "clock"]
    assert logged == [(CLOCK_MOVE[msg], at) for at, msg, _ in expected[1:]]
    timer = ref.view("public")["table"]["timers"]["day"]
    assert timer["expired"] == (clock >= 61_000)
    assert timer["running"] == (clock < 61_000)


def test_an_input_stamped_after_the_deadline_is_applied_after_the_expiry(tmp_path: Path) -> None:
    ref = play(tmp_path / "log.sqlite3", *TIMER, player("chai", "dice.roll", 65_000))
    assert [m for _, m, _ in said(ref)] == [
        "toolkit.timer_started",
        "toolkit.timer_warning",
        "toolkit.timer_warning",
        "toolkit.timer_expired",
        "toolkit.dice_rolled",
    ]
    assert [e.input.at for e in ref.events] == [0, 1000, 31_000, 51_000, 61_000, 65_000]


def test_a_paused_timer_does_not_expire_and_an_expired_one_extended_comes_back_paused(tmp_path: Path) -> None:
    ref = play(
        tmp_path / "log.sqlite3",
        *TIMER,
        host("timer.pause", 11_000, name="day"),  # 50 s left
        {"clock": 200_000},
        host("timer.resume", 200_000, name="day"),  # due again at 250 s, warnings at 220 s and 240 s
        {"clock": 260_000},
        host("timer.extend", 270_000, name="day", seconds=15),
        {"clock": 400_000},
    )
    assert said(ref) == [
        STARTED,
        (11_000, "toolkit.timer_paused", {"name": "day"}),  # nothing while paused
        (200_000, "toolkit.timer_resumed", {"name": "day"}),
        (220_000, "toolkit.timer_warning", {"name": "day", "seconds": 30}),
        (240_000, "toolkit.timer_warning", {"name": "day", "seconds": 10}),
        (250_000, "toolkit.timer_expired", {"name": "day"}),
        (270_000, "toolkit.timer_extended", {"name": "day", "seconds": 15}),
    ]
    timer = ref.view("public")["table"]["timers"]["day"]
    assert (timer["running"], timer["expired"], timer["remaining"]) == (False, False, 15_000)
    assert ref.deadlines() == []


# -- ballots ----------------------------------------------------------------------------------------------


def tied_ballot(tie: str) -> list[dict[str, Any]]:
    """Dao's vote counts double: red 2, blue 2, green 1."""
    return [
        host("ballot.open", 1000, name="exile", options=["red", "blue", "green"], weights={"dao": 2}, tie=tie),
        vote("dao", "red", 2000),
        vote("ben", "blue", 3000),
        vote("chai", "blue", 4000),
        vote("ana", "green", 5000),
        host("ballot.close", 6000, name="exile"),
    ]


def test_a_weighted_ballot_with_a_random_tie_break_publishes_totals_and_a_tied_winner(tmp_path: Path) -> None:
    ref = play(tmp_path / "log.sqlite3", *tied_ballot("random"))
    result = ref.view("public")["table"]["ballots"]["exile"]["result"]
    assert result["totals"] == {"red": 2, "blue": 2, "green": 1}
    assert (result["cast"], result["tied"], result["awaiting_host"]) == (4, ["red", "blue"], False)
    assert result["winner"] in ("red", "blue")
    assert said(ref)[-1] == (6000, "toolkit.ballot_result", {"name": "exile", "winner": result["winner"]})


def winner_for(path: Path, seed: int) -> str:
    ref = play(path, *tied_ballot("random"), setup={**SETUP, "seed": seed})
    return str(ref.view("public")["table"]["ballots"]["exile"]["result"]["winner"])


def test_a_random_tie_break_is_the_same_for_the_same_seed_and_varies_with_the_seed(tmp_path: Path) -> None:
    assert winner_for(tmp_path / "a.sqlite3", 7) == winner_for(tmp_path / "b.sqlite3", 7)
    assert {winner_for(tmp_path / f"s{s}.sqlite3", s) for s in range(16)} == {"red", "blue"}


def test_a_host_decides_tie_waits_for_the_host_who_may_pick_only_a_tied_option(tmp_path: Path) -> None:
    ref = play(tmp_path / "log.sqlite3", *tied_ballot("host_decides"))
    result = ref.view("public")["table"]["ballots"]["exile"]["result"]
    assert (result["winner"], result["awaiting_host"]) == (None, True)
    assert said(ref)[-1] == (6000, "toolkit.ballot_tie_host", {"name": "exile"})
    refused = ref.submit(Input("ballot.decide", "host", {"name": "exile", "option": "green"}, 7000))
    assert refused.reason is not None and refused.reason.code == "reject.ballot_unknown_option"
    assert ref.submit(Input("ballot.decide", "host", {"name": "exile", "option": "blue"}, 7000)).accepted
    result = ref.view("public")["table"]["ballots"]["exile"]["result"]
    assert (result["winner"], result["awaiting_host"]) == ("blue", False)
    assert said(ref)[-1] == (7000, "toolkit.ballot_result", {"name": "exile", "winner": "blue"})
    again = ref.submit(Input("ballot.decide", "host", {"name": "exile", "option": "red"}, 8000))
    assert again.reason is not None and again.reason.code == "reject.ballot_no_tie"


# -- hidden counters --------------------------------------------------------------------------------------


def test_hidden_counters_change_clamp_and_stay_hidden_until_revealed(tmp_path: Path) -> None:
    lines = [
        host("counter.create", 0, name="hp", initial=10, low=0, high=10),
        host("counter.adjust", 1000, name="hp", player="ben", delta=-4),
        player("ben", "counter.adjust", 2000, name="hp", delta=7),  # 13, clamped to 10
        player("ana", "counter.adjust", 3000, name="hp", delta=-15),  # -5, clamped to 0
        host("counter.adjust", 4000, name="hp", player="chai", delta=-3),
    ]
    ref = play(tmp_path / "log.sqlite3", *lines)
    mine = {p: ref.view(f"player:{p}")["private"]["counters"] for p in PLAYERS}
    assert mine == {"ana": {"hp": 0}, "ben": {"hp": 10}, "chai": {"hp": 7}, "dao": {"hp": 10}}
    assert ref.view("public")["table"]["counters"] == {"hp": {"low": 0, "high": 10, "revealed": False}}
    ref = play(tmp_path / "revealed.sqlite3", *lines, host("counter.reveal", 5000, name="hp"))
    shown = ref.view("public")["table"]["counters"]["hp"]
    assert shown["values"] == {"ana": 0, "ben": 10, "chai": 7, "dao": 10}


def test_a_counter_for_some_players_only_is_absent_from_the_others_views(tmp_path: Path) -> None:
    ref = play(tmp_path / "log.sqlite3", host("counter.create", 0, name="gold", initial=3, players=["ana"]))
    assert ref.view("player:ana")["private"]["counters"] == {"gold": 3}
    assert ref.view("player:ben")["private"]["counters"] == {}


# -- who sees what ----------------------------------------------------------------------------------------


def scene(ana: str, ben: str, ben_hp: int = -2) -> list[dict[str, Any]]:
    """Roles dealt, a hidden counter, a ballot where Ana and Ben voted and Chai and Dao have not."""
    return [
        host("roles.deal", 0, name="roles", roles=["wolf", "seer", "villager", "villager"]),
        host("counter.create", 500, name="hp", initial=10, low=0, high=10),
        host("ballot.open", 1000, name="exile", options=["red", "blue", "green"]),
        player("ben", "counter.adjust", 1500, name="hp", delta=ben_hp),
        vote("ana", ana, 2000),
        vote("ben", ben, 3000),
    ]


def test_each_player_sees_their_own_vote_counter_and_role_and_nothing_of_anyone_else(tmp_path: Path) -> None:
    ref = play(tmp_path / "log.sqlite3", *scene("red", "blue"))
    revealed = play(tmp_path / "all.sqlite3", *scene("red", "blue"), host("roles.reveal", 4000, name="roles"))
    deal = revealed.view("public")["table"]["deals"]["roles"]["revealed"]
    assert sorted(deal.values()) == ["seer", "villager", "villager", "wolf"]
    votes = {"ana": "red", "ben": "blue", "chai": None, "dao": None}
    for p in PLAYERS:
        shown = ref.view(f"player:{p}")
        assert shown["me"] == p
        assert shown["private"] == {
            "ballots": {"exile": {"eligible": True, "my_vote": votes[p]}},
            "counters": {"hp": 8 if p == "ben" else 10},
            "roles": {"roles": deal[p]},
        }


def test_the_public_view_shows_how_many_voted_and_the_tally_but_never_who_voted_what(tmp_path: Path) -> None:
    a = play(tmp_path / "a.sqlite3", *scene("red", "blue"))
    b = play(tmp_path / "b.sqlite3", *scene("blue", "red"))
    assert a.view("public")["table"]["ballots"]["exile"]["cast"] == 2
    assert "votes" not in json.dumps(a.view("public"))
    assert a.view("public") == b.view("public")
    close = host("ballot.close", 9000, name="exile")
    a = play(tmp_path / "a2.sqlite3", *scene("red", "blue"), close)
    b = play(tmp_path / "b2.sqlite3", *scene("blue", "red"), close)
    assert a.view("public")["table"]["ballots"]["exile"]["result"]["totals"] == {"red": 1, "blue": 1, "green": 0}
    assert a.view("public") == b.view("public")


def test_views_of_those_not_in_a_secret_do_not_depend_on_it(tmp_path: Path) -> None:
    a = play(tmp_path / "a.sqlite3", *scene("red", "blue", ben_hp=-2))
    b = play(tmp_path / "b.sqlite3", *scene("blue", "red", ben_hp=-7))
    for aud in ["public", "host", "player:chai", "player:dao"]:
        assert a.view(aud) == b.view(aud), aud
    assert a.view("player:ana") != b.view("player:ana")  # the checks above compare views that can differ


def test_the_host_sees_who_has_not_voted_and_the_history_without_any_secret_argument(tmp_path: Path) -> None:
    ref = play(tmp_path / "log.sqlite3", *scene("red", "blue"))
    shown = ref.view("host")
    assert shown["host"] == {"ballots_waiting_for": {"exile": ["chai", "dao"]}}
    secret = {"roles.deal", "ballot.vote", "counter.adjust"}
    history = [(h["by"], h["move"], "args" in h) for h in shown["history"]]
    assert history == [
        ("host", "roles.deal", False),
        ("host", "counter.create", True),
        ("host", "ballot.open", True),
        ("player:ben", "counter.adjust", False),
        ("player:ana", "ballot.vote", False),
        ("player:ben", "ballot.vote", False),
    ]
    assert all(h["move"] not in secret or set(h) == {"seq", "by", "move", "at"} for h in shown["history"])


# -- rejections -------------------------------------------------------------------------------------------

BASE = [
    *TIMER,
    host("ballot.open", 2000, name="final", options=["red", "blue"], change="final"),
    vote("ana", "red", 3000, name="final"),
    host("counter.create", 4000, name="hp", initial=10, low=0, high=10),
]


@pytest.mark.parametrize(
    ("by", "move", "args", "code", "params"),
    [
        ("player:ana", "ballot.vote", {"name": "final", "option": "blue"}, "reject.ballot_already_voted", {}),
        ("player:ana", "ballot.vote", {"name": "final", "option": "red"}, "reject.ballot_already_voted", {}),
        ("player:ana", "counter.adjust", {"name": "hp", "player": "ben", "delta": -3}, "reject.not_yours", {}),
        ("player:ana", "ballot.close", {"name": "final"}, "reject.not_allowed",
         {"move": "ballot.close", "sender": "sender.player"}),
        ("player:ana", "timer.expire", {"name": "day"}, "reject.not_allowed",
         {"move": "timer.expire", "sender": "sender.player"}),
        ("host", "timer.warn", {"name": "day", "at_seconds": 30}, "reject.not_allowed",
         {"move": "timer.warn", "sender": "sender.host"}),
        ("table", "counter.adjust", {"name": "hp", "delta": 1}, "reject.not_allowed",
         {"move": "counter.adjust", "sender": "sender.table"}),
        ("host", "ballot.vote", {"name": "final", "option": "red"}, "reject.not_allowed",
         {"move": "ballot.vote", "sender": "sender.host"}),
        ("clock", "timer.expire", {"name": "day"}, "reject.timer_not_due", {}),
        ("host", "ballot.rig", {"name": "final"}, "reject.unknown_move", {"move": "ballot.rig"}),
        ("player:zed", "dice.roll", {}, "reject.not_a_player", {"player": "zed"}),
        ("nobody", "dice.roll", {}, "reject.unknown_sender", {"sender": "nobody"}),
        ("player:ben", "ballot.vote", {"name": "final", "option": "purple"}, "reject.ballot_unknown_option",
         {"option": "purple"}),
        ("player:ben", "ballot.vote", {"name": "nope", "option": "red"}, "reject.no_such",
         {"kind": "kind.ballot", "name": "nope"}),
        ("host", "timer.create", {"name": "day", "seconds": 5}, "reject.name_taken",
         {"kind": "kind.timer", "name": "day"}),
    ],
)
def test_a_refused_input_gives_its_reason_and_changes_nothing(
    tmp_path: Path, by: str, move: str, args: dict[str, Any], code: str, params: dict[str, Any]
) -> None:
    ref = play(tmp_path / "log.sqlite3", *BASE)
    before, state, count = views(ref), copy.deepcopy(ref.state), stored(ref)
    outcome = ref.submit(Input(move, by, args, 10_000))
    assert not outcome.accepted and outcome.reason is not None
    assert (outcome.reason.code, dict(outcome.reason.params)) == (code, params)
    assert views(ref) == before
    assert ref.state == state
    assert stored(ref) == count == len(ref.events)


@pytest.mark.parametrize(
    ("by", "move", "args", "field"),
    [
        ("host", "dice.roll", {"sides": 1}, "sides"),
        ("host", "dice.roll", {"count": "2"}, "count"),  # strict: a string is not a number
        ("host", "dice.roll", {"count": 2.0}, "count"),
        ("player:ben", "ballot.vote", {"name": "final"}, "option"),
        ("host", "timer.create", {"name": "x", "seconds": 10, "colour": "red"}, "colour"),
        ("host", "timer.create", {"name": "", "seconds": 10}, "name"),
        ("host", "ballot.open", {"name": "b", "options": ["only"]}, "options"),
        ("host", "ballot.open", {"name": "b", "options": ["a", "b"], "tie": "coin"}, "tie"),
        ("host", "counter.adjust", {"name": "hp", "delta": 1}, "player"),  # the host must name a player
        ("host", "timer.extend", {"name": "day", "seconds": 0}, "seconds"),
    ],
)
def test_bad_arguments_are_refused_naming_the_field(
    tmp_path: Path, by: str, move: str, args: dict[str, Any], field: str
) -> None:
    ref = play(tmp_path / "log.sqlite3", *BASE)
    before, count = views(ref), stored(ref)
    outcome = ref.submit(Input(move, by, args, 10_000))
    assert outcome.reason is not None
    assert outcome.reason.code == "reject.bad_argument"
    assert outcome.reason.params["field"] == field
    assert outcome.reason.params["problem"]
    assert (views(ref), stored(ref)) == (before, count)


def test_a_script_stops_at_the_first_refused_line_and_names_it(tmp_path: Path) -> None:
    from companion.scripting import ScriptError

    with pytest.raises(ScriptError) as err:
        play(tmp_path / "log.sqlite3", *BASE, vote("ana", "blue", 5000, name="final"), host("dice.roll", 6000))
    assert err.value.line == 2 + len(BASE)
    assert err.value.reason.code == "reject.ballot_already_voted"


# -- corrections ------------------------------------------------------------------------------------------

PREFIX = [
    host("counter.create", 0, name="hp", initial=10, low=0, high=10),
    host("ballot.open", 1000, name="exile", options=["red", "blue", "green"]),
    vote("ana", "green", 2000),
]


def test_undo_of_the_last_two_inputs_leaves_the_game_as_if_they_never_happened(tmp_path: Path) -> None:
    plain = play(tmp_path / "plain.sqlite3", *PREFIX)
    undone = play(
        tmp_path / "undone.sqlite3",
        *PREFIX,
        player("chai", "dice.roll", 3000, count=3),
        host("counter.adjust", 4000, name="hp", player="ben", delta=-3),
        host("host.undo", 5000, count=2),
    )
    assert stored(undone) == len(PREFIX) + 3  # nothing is deleted from the log
    assert undone.view("public")["corrections"] == 1
    for aud in AUDIENCES:
        assert without_corrections(undone.view(aud)) == without_corrections(plain.view(aud)), aud


@pytest.mark.parametrize(
    ("wrong", "right", "later"),
    [
        (  # the host set the timer to 60 s instead of 90: its deadlines move
            host("timer.create", 0, name="day", seconds=60, warnings=[30]),
            host("timer.create", 0, name="day", seconds=90, warnings=[30]),
            [host("timer.start", 1000, name="day"), player("chai", "dice.roll", 2000)],
        ),
        (  # the host forgot Dao's double vote before anyone voted
            host("ballot.open", 0, name="exile", options=["red", "blue"]),
            host("ballot.open", 0, name="exile", options=["red", "blue"], weights={"dao": 2}),
            [host("dice.roll", 1000)],
        ),
        (  # the wrong dice: the same draw, read as a d20
            host("dice.roll", 0, count=2, sides=6),
            host("dice.roll", 0, count=2, sides=20),
            [host("counter.create", 1000, name="hp", initial=3)],
        ),
    ],
)
def test_amend_of_a_non_secret_input_plays_on_as_if_it_had_been_right(
    tmp_path: Path, wrong: dict[str, Any], right: dict[str, Any], later: list[dict[str, Any]]
) -> None:
    expected = play(tmp_path / "right.sqlite3", right, *later)
    amend = host("host.amend", 5000, seq=1, args=right["args"])
    amended = play(tmp_path / "amended.sqlite3", wrong, *later, amend)
    assert without_corrections(amended.view("public")) != without_corrections(
        play(tmp_path / "wrong.sqlite3", wrong, *later).view("public")
    )  # the amendment made a visible difference
    assert amended.view("public")["corrections"] == 1
    for aud in AUDIENCES:
        assert without_corrections(amended.view(aud)) == without_corrections(expected.view(aud)), aud
    assert amended.view("host")["history"][0]["args"] == right["args"]
    assert stored(amended) == 2 + len(later)  # the wrong input stays in the log


def test_the_amended_tally_counts_the_votes_cast_after_the_amendment(tmp_path: Path) -> None:
    ref = play(
        tmp_path / "log.sqlite3",
        host("ballot.open", 0, name="exile", options=["red", "blue"]),
        host("host.amend", 500, seq=1, args={"name": "exile", "options": ["red", "blue"], "weights": {"dao": 2}}),
        vote("dao", "red", 2000),
        vote("ben", "blue", 3000),
        host("ballot.close", 9000, name="exile"),
    )
    result = ref.view("public")["table"]["ballots"]["exile"]["result"]
    assert (result["totals"], result["winner"]) == ({"red": 2, "blue": 1}, "red")


def submit_refused(ref: Referee, inp: Input) -> tuple[str, dict[str, Any]]:
    before, state, count = views(ref), copy.deepcopy(ref.state), stored(ref)
    outcome = ref.submit(inp)
    assert not outcome.accepted and outcome.reason is not None
    assert (views(ref), ref.state, stored(ref)) == (before, state, count)
    return outcome.reason.code, dict(outcome.reason.params)


@pytest.mark.parametrize(
    ("seq", "args"),
    [
        (3, {"name": "exile", "option": "red"}),  # a vote
        (4, {"name": "hp", "delta": 5}),  # a player's hidden counter change
        (5, {"name": "roles", "roles": ["wolf", "wolf", "wolf", "wolf"]}),  # a secret deal
    ],
)
def test_amend_of_a_secret_input_is_refused(tmp_path: Path, seq: int, args: dict[str, Any]) -> None:
    ref = play(
        tmp_path / "log.sqlite3",
        *PREFIX,
        player("ben", "counter.adjust", 3000, name="hp", delta=-1),
        host("roles.deal", 4000, name="roles", roles=["wolf", "seer", "villager", "villager"]),
    )
    assert ref.events[seq - 1].input.args != args
    inp = Input("host.amend", "host", {"seq": seq, "args": args}, 6000)
    assert submit_refused(ref, inp) == ("reject.amend_secret", {"seq": seq})


@pytest.mark.parametrize("by", ["player:ana", "table", "clock"])
def test_only_the_host_may_undo_or_amend(tmp_path: Path, by: str) -> None:
    ref = play(tmp_path / "log.sqlite3", *PREFIX)
    sender = "sender.player" if by.startswith("player:") else f"sender.{by}"
    assert submit_refused(ref, Input("host.undo", by, {"count": 1}, 6000)) == (
        "reject.not_allowed", {"move": "host.undo", "sender": sender})
    amend = Input("host.amend", by, {"seq": 1, "args": {"name": "hp", "initial": 5}}, 6000)
    assert submit_refused(ref, amend)[0] == "reject.not_allowed"


def test_undo_of_more_inputs_than_are_in_force_is_refused(tmp_path: Path) -> None:
    ref = play(tmp_path / "log.sqlite3", *PREFIX, host("host.undo", 3000, count=1))
    assert submit_refused(ref, Input("host.undo", "host", {"count": 3}, 4000)) == (
        "reject.nothing_to_undo", {"count": 3, "available": 2})
    assert ref.submit(Input("host.undo", "host", {"count": 2}, 4000)).accepted
    assert submit_refused(ref, Input("host.undo", "host", {}, 5000)) == (
        "reject.nothing_to_undo", {"count": 1, "available": 0})


def test_amend_of_an_undone_input_is_refused(tmp_path: Path) -> None:
    ref = play(tmp_path / "log.sqlite3", *PREFIX, host("dice.roll", 3000), host("host.undo", 4000))
    assert submit_refused(ref, Input("host.amend", "host", {"seq": 4, "args": {"sides": 8}}, 5000)) == (
        "reject.amend_unknown", {"seq": 4})


def test_undo_of_a_vote_tells_the_table_nothing_about_the_vote(tmp_path: Path) -> None:
    before = play(tmp_path / "before.sqlite3", *PREFIX).view("public")
    red = play(tmp_path / "red.sqlite3", *PREFIX, vote("ben", "red", 3000), host("host.undo", 4000))
    blue = play(tmp_path / "blue.sqlite3", *PREFIX, vote("ben", "blue", 3000), host("host.undo", 4000))
    after = blue.view("public")
    # the option's name appears exactly as often as before the vote (in the option list), no more
    assert json.dumps(after).count('"blue"') == json.dumps(before).count('"blue"')
    assert without_corrections(after) == without_corrections(before)
    assert after["corrections"] == 1
    for aud in AUDIENCES:  # even Ben's own view: his vote is gone
        assert red.view(aud) == blue.view(aud), aud
    assert blue.view("player:ben")["private"]["ballots"]["exile"]["my_vote"] is None


def test_a_roll_undone_and_rolled_again_gives_the_same_dice(tmp_path: Path) -> None:
    ref = play(tmp_path / "log.sqlite3", player("chai", "dice.roll", 1000, count=5, sides=20))
    first = ref.view("public")["table"]["rolls"][-1]["values"]
    twice = play(tmp_path / "twice.sqlite3", *[player("chai", "dice.roll", at, count=5, sides=20) for at in (1, 2)])
    rolls = [r["values"] for r in twice.view("public")["table"]["rolls"]]
    assert rolls[0] == first and rolls[1] != first  # without an undo, the next roll is a new one
    for at in (2000, 4000):
        assert ref.submit(Input("host.undo", "host", {}, at)).accepted
        assert ref.view("public")["table"]["rolls"] == []
        assert ref.submit(Input("dice.roll", "player:chai", {"count": 5, "sides": 20}, at + 1000)).accepted
        assert ref.view("public")["table"]["rolls"][-1]["values"] == first
    other_seed = play(tmp_path / "other.sqlite3", player("chai", "dice.roll", 1000, count=5, sides=20),
                      setup={**SETUP, "seed": 2027})
    assert other_seed.view("public")["table"]["rolls"][-1]["values"] != first


def test_the_host_cannot_learn_a_vote_by_amending_the_ballot(tmp_path: Path) -> None:
    """Secret votes must not leak through a correction's outcome (DESIGN: no side channel, incl. errors).

    An amendment that removes an option would break a later vote for that option: if that decided
    whether the amendment is accepted, the host (and the table, through the corrections count) would
    learn who voted what. The outcome and every view must be the same whatever Ben voted.
    """
    amend = host("host.amend", 4000, seq=2, args={"name": "exile", "options": ["red", "green"]})
    outcomes = {}
    for option in ("red", "blue"):
        ref = play(tmp_path / f"{option}.sqlite3", *PREFIX[:2], vote("ben", option, 3000))
        outcome = ref.submit(Input(amend["move"], "host", amend["args"], amend["at"]))
        outcomes[option] = (outcome.to_json(), {aud: ref.view(aud) for aud in ["public", "host", "player:ana"]})
    assert outcomes["red"] == outcomes["blue"]


def test_amend_of_an_input_followed_by_a_secret_one_is_refused(tmp_path: Path) -> None:
    ref = play(tmp_path / "log.sqlite3", *PREFIX, host("dice.roll", 3000))
    inp = Input("host.amend", "host", {"seq": 1, "args": {"name": "hp", "initial": 5}}, 4000)
    assert submit_refused(ref, inp) == ("reject.amend_before_secret", {"seq": 1})
    assert ref.submit(Input("host.amend", "host", {"seq": 4, "args": {"sides": 8}}, 4000)).accepted


# -- command ids and restarts -----------------------------------------------------------------------------


def test_an_input_resent_with_the_same_id_is_applied_once(tmp_path: Path) -> None:
    ref = play(tmp_path / "log.sqlite3", host("counter.create", 0, name="coins", initial=5))
    spend = Input("counter.adjust", "player:ana", {"name": "coins", "delta": -2}, 1000, id="phone-ana-1")
    first = ref.submit(spend)
    after_first, count = views(ref), stored(ref)
    again = ref.submit(spend)
    assert (first.accepted, first.duplicate) == (True, False)
    assert (again.accepted, again.duplicate, again.seq) == (True, True, first.seq)
    assert (views(ref), stored(ref)) == (after_first, count)
    assert ref.view("player:ana")["private"]["counters"]["coins"] == 3
    other = Input("counter.adjust", "player:ana", {"name": "coins", "delta": -3}, 2000, id="phone-ana-1")
    assert submit_refused(ref, other) == ("reject.command_id_reused", {"id": "phone-ana-1"})


def test_a_command_id_reused_by_another_player_is_never_acknowledged_without_being_applied(
    tmp_path: Path,
) -> None:
    """Two phones that number their commands the same way ("1", "2", ...): Ben's vote is not a retry of
    Ana's, so it must be applied, or refused with a reason; answering "accepted" while dropping it
    would show Ben a vote the referee never counted."""
    ref = play(tmp_path / "log.sqlite3", host("ballot.open", 0, name="exile", options=["red", "blue"]))
    assert ref.submit(Input("ballot.vote", "player:ana", {"name": "exile", "option": "red"}, 1000, id="1")).accepted
    outcome = ref.submit(Input("ballot.vote", "player:ben", {"name": "exile", "option": "blue"}, 2000, id="1"))
    counted = ref.view("player:ben")["private"]["ballots"]["exile"]["my_vote"]
    assert (outcome.accepted, counted) in {(True, "blue"), (False, None)}, outcome.to_json()


def test_a_script_with_a_repeated_command_id_applies_it_once(tmp_path: Path) -> None:
    roll = {**player("chai", "dice.roll", 1000), "id": "chai-1"}
    ref = play(tmp_path / "log.sqlite3", roll, {**roll, "at": 2000}, host("dice.roll", 3000))
    assert [r["by"] for r in ref.view("public")["table"]["rolls"]] == ["player:chai", "host"]
    assert stored(ref) == 2


def test_a_restart_resumes_with_identical_views_deadlines_and_command_ids(tmp_path: Path) -> None:
    path = tmp_path / "log.sqlite3"
    ref = play(
        path,
        *scene("red", "blue"),
        *TIMER,
        {**player("chai", "dice.roll", 3000, count=2), "id": "chai-roll"},
        host("host.amend", 3500, seq=7, args={"name": "day", "seconds": 80, "warnings": [30, 10]}),
        host("host.undo", 4000),
        {**vote("dao", "green", 5000), "id": "dao-vote"},
        {"clock": 40_000},
    )
    before, state, deadlines = views(ref), copy.deepcopy(ref.state), list(ref.deadlines())
    events = [(e.seq, e.input) for e in ref.events]
    ref.log.close()

    log = EventLog(path)
    resumed = Referee.resume(GAMES, log)
    assert resumed is not None
    assert views(resumed) == before
    assert resumed.state == state
    assert list(resumed.deadlines()) == deadlines
    assert [(e.seq, e.input) for e in resumed.events] == events
    resent = resumed.submit(Input("ballot.vote", "player:dao", {"name": "exile", "option": "green"}, 41_000,
                                  id="dao-vote"))
    assert (resent.duplicate, resent.seq) == (True, next(seq for seq, i in events if i.id == "dao-vote"))
    assert resumed.view("player:dao")["private"]["ballots"]["exile"]["my_vote"] == "green"
    # the game goes on from where it was: the amended 80 s timer started at 1 s still fires on time
    assert [d.at for d in deadlines] == [51_000, 71_000, 81_000]
    outcomes = advance(resumed, 100_000)
    assert [o.accepted for o in outcomes] == [True, True, True]
    assert said(resumed)[-1] == (81_000, "toolkit.timer_expired", {"name": "day"})
    log.close()
