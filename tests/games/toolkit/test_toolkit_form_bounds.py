"""The toolkit's referee accepts what its forms offer and no more (issue 21; companion/games/toolkit/checks.py):
Start is for a timer that is not running, a player's own change keeps their counter within its bounds (as
their form offers; the host's, who is not told hidden values, stops at them), and a role is revealed once.
Each refusal gives its reason and changes nothing; what the forms offer is still accepted."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest

from companion.core.inputs import Input
from tests.kits.toolkit_script import TIMER, host, play, player, stored, views

BASE = [
    *TIMER,  # day: created and running
    host("counter.create", 2000, name="coins", initial=3, low=0, high=10),
    host("roles.deal", 3000, name="roles", roles=["wolf", "seer", "villager", "villager"]),
    host("roles.reveal", 4000, name="roles", player="ana"),
]


@pytest.mark.parametrize(
    ("by", "move", "args", "code", "params"),
    [
        ("host", "timer.start", {"name": "day"}, "reject.timer_running", {}),
        ("player:ana", "counter.adjust", {"name": "coins", "delta": -4}, "reject.tally_bounds", {"low": 0, "high": 10}),
        ("player:ana", "counter.adjust", {"name": "coins", "player": "ana", "delta": 8}, "reject.tally_bounds",
         {"low": 0, "high": 10}),
        ("host", "roles.reveal", {"name": "roles", "player": "ana"}, "reject.roles_revealed", {"player": "ana"}),
    ],
)
def test_what_no_form_offers_is_refused_with_its_reason_and_changes_nothing(
    tmp_path: Path, by: str, move: str, args: dict[str, Any], code: str, params: dict[str, Any]
) -> None:
    ref = play(tmp_path / "log.sqlite3", *BASE)
    before, state, count = views(ref), copy.deepcopy(ref.state), stored(ref)
    outcome = ref.submit(Input(move, by, args, 10_000))
    assert not outcome.accepted and outcome.reason is not None
    assert (outcome.reason.code, dict(outcome.reason.params)) == (code, params)
    assert (views(ref), ref.state, stored(ref)) == (before, state, count)


def test_what_the_forms_offer_is_accepted(tmp_path: Path) -> None:
    ref = play(tmp_path / "log.sqlite3", *BASE,
               player("ana", "counter.adjust", 5000, name="coins", delta=-3),  # all her coins: down to 0
               host("counter.adjust", 6000, name="coins", player="ben", delta=-5),  # the host's stops at 0
               host("timer.pause", 7000, name="day"), host("timer.start", 8000, name="day"),  # again from 60 s
               host("roles.reveal", 9000, name="roles"))  # everyone's (ana's was shown)
    assert ref.state["counters"]["coins"]["values"] == {"ana": 0, "ben": 0, "chai": 3, "dao": 3}
    assert ref.state["timers"]["day"]["running"] and ref.state["timers"]["day"]["remaining"] == 60_000
    assert sorted(ref.state["deals"]["roles"]["revealed"]) == ["ana", "ben", "chai", "dao"]
    outcome = ref.submit(Input("roles.reveal", "host", {"name": "roles"}, 10_000))  # nothing left to show
    mine = {f.name: (f.min, f.max) for p in ref.game.prompts(ref.state, "player:chai")
            if p.move == "counter.adjust" for f in p.fields}
    assert mine == {"delta": (-3, 7)}  # chai's 3 coins: all of them to spend, up to 10
    assert outcome.reason is not None and outcome.reason.code == "reject.roles_all_revealed"


def test_a_vote_that_counts_twice_is_set_in_the_hosts_form(tmp_path: Path) -> None:
    """The host's vote forms offer "votes that count twice" (a Werewolf sheriff's) among the seated
    players: Ben's vote for chai then outweighs Ana's for dao (hand count: chai 2, dao 1). A doubled
    player who does not vote changes nothing; one who is not seated is refused."""
    from companion.games.toolkit.host_forms import ballot_forms

    ref = play(tmp_path / "log.sqlite3")
    form = next(p for p in ballot_forms(ref.state) if p.label == "toolkit.prompt.ballot_players")
    double = next(f for f in form.fields if f.name == "double")
    assert double.kind == "subset" and {c.value for c in double.choices} == {p["id"] for p in ref.state["players"]}
    opened = ref.submit(Input("ballot.open", "host", {"name": "exile", "options": ["chai", "dao"],
                                                      "voters": ["ana", "ben"], "double": ["ben", "chai"]}, 1000))
    assert opened.accepted, opened
    for pid, option in (("ana", "dao"), ("ben", "chai")):
        assert ref.submit(Input("ballot.vote", f"player:{pid}", {"name": "exile", "option": option}, 2000)).accepted
    assert ref.submit(Input("ballot.close", "host", {"name": "exile"}, 3000)).accepted
    result = ref.state["ballots"]["exile"]["result"]
    assert result["winner"] == "chai" and result["totals"] == {"chai": 2, "dao": 1}
    stray = ref.submit(Input("ballot.open", "host", {"name": "vote", "options": ["a", "b"], "double": ["zed"]}, 4000))
    assert not stray.accepted and stray.reason is not None and stray.reason.code == "reject.not_a_player"
