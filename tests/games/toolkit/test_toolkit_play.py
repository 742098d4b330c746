"""The toolkit game end to end, played by `companion.scripting.run` on a real SQLite log: timers that warn
and expire on their deadlines, weighted ballots and their tie rules, hidden counters."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from companion.core.inputs import Input
from tests.kits.toolkit_script import PLAYERS, SETUP, TIMER, host, play, player, said, vote

# -- timers ---------------------------------------------------------------------------------------------

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
        host("counter.adjust", 2000, name="hp", player="ben", delta=7),  # 13, clamped to 10
        host("counter.adjust", 3000, name="hp", player="ana", delta=-15),  # -5, clamped to 0
        host("counter.adjust", 4000, name="hp", player="chai", delta=-3),
    ]
    ref = play(tmp_path / "log.sqlite3", *lines)
    mine = {p: ref.view(f"player:{p}")["private"]["counters"] for p in PLAYERS}
    assert mine == {"ana": {"hp": 0}, "ben": {"hp": 10}, "chai": {"hp": 7}, "dao": {"hp": 10}}
    # a player's own change stays within the bounds their form offers (issue 21: the host's clamps, as above)
    too_far = ref.submit(Input("counter.adjust", "player:chai", {"name": "hp", "delta": 4}, 4500))
    assert too_far.reason is not None and too_far.reason.code == "reject.tally_bounds"
    assert ref.view("public")["table"]["counters"] == {"hp": {"low": 0, "high": 10, "revealed": False}}
    ref = play(tmp_path / "revealed.sqlite3", *lines, host("counter.reveal", 5000, name="hp"))
    shown = ref.view("public")["table"]["counters"]["hp"]
    assert shown["values"] == {"ana": 0, "ben": 10, "chai": 7, "dao": 10}


def test_a_counter_for_some_players_only_is_absent_from_the_others_views(tmp_path: Path) -> None:
    ref = play(tmp_path / "log.sqlite3", host("counter.create", 0, name="gold", initial=3, players=["ana"]))
    assert ref.view("player:ana")["private"]["counters"] == {"gold": 3}
    assert ref.view("player:ben")["private"]["counters"] == {}
