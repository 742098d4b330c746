"""Table tests for the ballot part (companion/parts/ballot): eligibility, changing a vote, weights,
tie rules and what the public and each voter see, as pure functions over plain dicts."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.core.rejection import Rejected
from companion.parts import ballot
from tests.kits.rejection_code import code_of

# -- ballots ----------------------------------------------------------------------------------------


VOTERS = ["ana", "ben", "chai", "dao"]


def voted(votes: dict[str, str], **kw: Any) -> ballot.Ballot:
    b = ballot.new(["red", "blue", "green"], VOTERS, **kw)
    for voter, option in votes.items():
        ballot.cast(b, voter, option)
    return b


@pytest.mark.parametrize(
    ("options", "voters", "weights", "code"),
    [
        (["red"], ["ana"], None, "reject.ballot_options"),
        (["red", "red"], ["ana"], None, "reject.ballot_options"),
        (["red", "blue"], [], None, "reject.ballot_no_voters"),
        (["red", "blue"], ["ana"], {"ben": 2}, "reject.ballot_weight_not_voter"),
    ],
)
def test_a_badly_formed_ballot_is_refused(
    options: list[str], voters: list[str], weights: Any, code: str
) -> None:
    assert code_of(ballot.new, options, voters, weights) == code


def test_weights_count_in_the_tally() -> None:
    b = voted({"ana": "red", "ben": "blue", "chai": "blue"}, weights={"ana": 3})
    ballot.close(b, random.Random(0))
    assert b["result"] == {
        "totals": {"red": 3, "blue": 2, "green": 0},
        "cast": 3,
        "tied": [],
        "winner": "red",
        "awaiting_host": False,
    }


def test_until_close_lets_a_voter_change_their_vote_and_only_the_last_one_counts() -> None:
    b = voted({"ana": "red"})
    ballot.cast(b, "ana", "blue")
    assert ballot.private(b, "ana") == {"eligible": True, "my_vote": "blue"}
    ballot.close(b, random.Random(0))
    assert b["result"]["totals"] == {"red": 0, "blue": 1, "green": 0}
    assert b["result"]["cast"] == 1


def test_final_refuses_a_second_vote_and_keeps_the_first() -> None:
    b = voted({"ana": "red"}, change="final")
    assert code_of(ballot.cast, b, "ana", "blue") == "reject.ballot_already_voted"
    assert code_of(ballot.cast, b, "ana", "red") == "reject.ballot_already_voted"
    assert ballot.private(b, "ana")["my_vote"] == "red"


def test_a_voter_not_on_the_roll_is_refused() -> None:
    b = ballot.new(["red", "blue"], ["ana", "ben"])
    assert code_of(ballot.cast, b, "chai", "red") == "reject.ballot_not_eligible"
    assert ballot.private(b, "chai") == {"eligible": False, "my_vote": None}
    assert b["votes"] == {}


def test_an_option_not_on_the_ballot_is_refused_and_named() -> None:
    b = ballot.new(["red", "blue"], ["ana"])
    with pytest.raises(Rejected) as err:
        ballot.cast(b, "ana", "purple")
    assert (err.value.code, err.value.params) == ("reject.ballot_unknown_option", {"option": "purple"})
    assert b["votes"] == {}


def test_a_closed_ballot_takes_no_vote_and_cannot_close_again() -> None:
    b = voted({"ana": "red"})
    ballot.close(b, random.Random(0))
    assert code_of(ballot.cast, b, "ben", "red") == "reject.ballot_closed"
    assert code_of(ballot.close, b, random.Random(0)) == "reject.ballot_closed"


TIE = {"ana": "red", "ben": "blue", "chai": "green", "dao": "blue"}  # with ana weight 2: red 2, blue 2


def test_a_tie_with_no_winner_rule_has_no_winner_and_names_the_tied_options() -> None:
    b = voted(TIE, weights={"ana": 2})
    ballot.close(b, random.Random(0))
    r = b["result"]
    assert (r["winner"], r["tied"], r["awaiting_host"]) == (None, ["red", "blue"], False)
    assert code_of(ballot.decide, b, "red") == "reject.ballot_no_tie"


@pytest.mark.parametrize("seed", range(5))
def test_a_random_tie_break_picks_a_tied_option_and_the_same_one_for_the_same_seed(seed: int) -> None:
    winners = set()
    for _ in range(3):
        b = voted(TIE, weights={"ana": 2}, tie="random")
        ballot.close(b, random.Random(seed))
        winners.add(b["result"]["winner"])
        assert b["result"]["tied"] == ["red", "blue"]
    assert len(winners) == 1 and winners <= {"red", "blue"}


def test_a_random_tie_break_really_depends_on_the_seed() -> None:
    winners = set()
    for seed in range(40):
        b = voted(TIE, weights={"ana": 2}, tie="random")
        ballot.close(b, random.Random(seed))
        winners.add(b["result"]["winner"])
    assert winners == {"red", "blue"}


def test_host_decides_leaves_the_winner_open_until_the_host_picks_a_tied_option() -> None:
    b = voted(TIE, weights={"ana": 2}, tie="host_decides")
    assert code_of(ballot.decide, b, "red") == "reject.ballot_no_tie"  # still open
    ballot.close(b, random.Random(0))
    assert (b["result"]["winner"], b["result"]["awaiting_host"]) == (None, True)
    assert code_of(ballot.decide, b, "green") == "reject.ballot_unknown_option"  # not among the tied
    ballot.decide(b, "blue")
    assert (b["result"]["winner"], b["result"]["awaiting_host"]) == ("blue", False)
    assert code_of(ballot.decide, b, "red") == "reject.ballot_no_tie"  # decided once


def test_host_decides_without_a_tie_needs_no_decision() -> None:
    b = voted({"ana": "red"}, tie="host_decides")
    ballot.close(b, random.Random(0))
    assert (b["result"]["winner"], b["result"]["awaiting_host"]) == ("red", False)
    assert code_of(ballot.decide, b, "red") == "reject.ballot_no_tie"


@pytest.mark.parametrize("tie", ["no_winner", "random", "host_decides"])
def test_a_ballot_with_no_votes_has_no_winner_whatever_the_tie_rule(tie: Any) -> None:
    b = voted({}, tie=tie)
    ballot.close(b, random.Random(0))
    assert b["result"] == {
        "totals": {"red": 0, "blue": 0, "green": 0},
        "cast": 0,
        "tied": [],
        "winner": None,
        "awaiting_host": False,
    }


def test_votes_of_weight_zero_elect_nobody() -> None:
    b = voted({"ana": "red"}, weights={"ana": 0}, tie="random")
    ballot.close(b, random.Random(0))
    assert (b["result"]["winner"], b["result"]["cast"]) == (None, 1)


def test_the_public_ballot_shows_how_many_voted_but_no_vote() -> None:
    b = voted({"ana": "red", "ben": "blue"})
    shown = ballot.public(b)
    assert shown["cast"] == 2 and shown["result"] is None
    assert "votes" not in shown
    assert "red" not in str({k: v for k, v in shown.items() if k != "options"})
    assert ballot.private(b, "ben") == {"eligible": True, "my_vote": "blue"}
    assert ballot.private(b, "chai") == {"eligible": True, "my_vote": None}


@given(
    st.dictionaries(st.sampled_from(VOTERS), st.sampled_from(["red", "blue", "green"])),
    st.dictionaries(st.sampled_from(VOTERS), st.integers(0, 5)),
    st.sampled_from(["no_winner", "random", "host_decides"]),
    st.integers(0, 2**32),
)
def test_a_tally_adds_each_voters_weight_once_and_a_winner_has_the_most(
    votes: dict[str, str], weights: dict[str, int], tie: Any, seed: int
) -> None:
    b = voted(votes, weights=weights, tie=tie)
    ballot.close(b, random.Random(seed))
    r = b["result"]
    assert sum(r["totals"].values()) == sum(weights.get(v, 1) for v in votes)
    assert r["cast"] == len(votes)
    top = max(r["totals"].values())
    if r["winner"] is not None:
        assert r["totals"][r["winner"]] == top > 0
    if len(r["tied"]) < 2:
        assert (r["winner"] is None) == (top == 0)
