"""The toolkit game end to end: the host's corrections (undo, amend), what they change, and what they must
never reveal of a secret."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from companion.core.inputs import Input
from tests.kits.toolkit_script import (
    AUDIENCES,
    SETUP,
    host,
    play,
    player,
    stored,
    submit_refused,
    vote,
    without_corrections,
)

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
