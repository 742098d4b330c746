"""Jailbreak property tests over random legal games, played through the game's own prompts (the bot):
scenes stay within 1..6; hands are never negative and at most 5 once a turn's discard is done; the deck
count is the composition minus every draw announced; the handcuffs are with at most one player per
sheriff; the seed never reaches a public output; a replay gives the identical state; every game ends."""

from __future__ import annotations

import json
import random

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from companion.core.contract import State
from companion.core.fold import fold, initial, step
from companion.core.inputs import Input
from companion.games.jailbreak import bot, data
from tests.kits.host_view_twins import game_bot, seed_twin, twins
from tests.kits.jailbreak_table import GAME, setup


def check(state: State) -> None:
    for pid, p in state["people"].items():
        assert 1 <= p["scene"] <= data.SCENES, (pid, p)
        assert p["scene"] <= p["reached"] <= data.SCENES
        assert p["hand"] >= 0, (pid, p)
        if p["cuffed_by"] is not None:
            assert "handcuffs" in state["equipment"][p["cuffed_by"]]
    cuffers = [p["cuffed_by"] for p in state["people"].values() if p["cuffed_by"] is not None]
    assert len(cuffers) == len(set(cuffers))
    assert state["deck"] >= 0 and state["deck"] + state["drawn"] == data.deck().size


def new_draws(before: State, after: State) -> int:
    fresh = after["announced"] - before["announced"]
    said = after["announcements"][-fresh:] if fresh else []
    return sum(a["params"]["count"] for a in said if a["msg"] == "jailbreak.drew")


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(n=st.integers(3, 8), seed=st.integers(10**9, 2**40), moves=st.integers(0, 2**32),
       timer=st.sampled_from([0, 0, 45]))
@example(n=3, seed=1_000_000_000, moves=181404516, timer=45)  # both others flipped: the same player again
def test_random_legal_games_keep_the_invariants_and_replay_identically(n: int, seed: int, moves: int,
                                                                      timer: int) -> None:
    s = setup(n, seed, turn_seconds=timer)
    rnd = random.Random(moves)
    state = initial(GAME, s)
    draws = sum(a["params"]["count"] for a in state["announcements"] if a["msg"] == "jailbreak.drew")
    inputs: list[Input] = []
    at = 0
    for _ in range(5000):
        check(state)
        public = json.dumps([GAME.view_public(state), state["announcements"],
                             [p.to_json() for p in GAME.prompts(state, "host")]])
        assert str(seed) not in public and "rng" not in public  # the seed: long enough to be unmistakable
        at += 1000
        due = GAME.deadlines(state)
        if due and rnd.random() < 0.1:  # now and then the clock runs out
            d = due[-1]
            at = max(at, d.at)
            inp: Input | None = Input(d.move, "clock", dict(d.args), at)
        elif timer and not state["timer"]["started"]:
            inp = Input("timer.start", "host", {}, at)
        else:
            inp = bot.BOT(state, rnd, at)
        if inp is None:
            break
        owner = state["turn"]["player"]
        number = state["turn"]["number"]
        after = step(GAME, state, inp)
        draws += new_draws(state, after)
        state = after
        inputs.append(inp)
        if state["turn"]["number"] != number and not state["ended"]:
            # J2.1: discarded down to 5 (and, if everyone else was skipped, their next turn's draw on top)
            again = data.DRAW if state["turn"]["player"] == owner else 0
            assert state["people"][owner]["hand"] <= data.HAND_LIMIT + again
    assert state["ended"], "the deck runs out at the latest"
    check(state)
    assert state["deck"] == data.deck().size - data.START_HAND * n - draws
    result = GAME.result(state)
    assert result is not None and result["winner"] in ("prisoners", "sheriffs")
    if result["winner"] == "prisoners":
        assert state["people"][result["escaped"]]["scene"] == 6
        assert state["roles"][result["escaped"]] == "prisoner"
    else:
        assert state["deck"] == 0
    assert fold(GAME, s, inputs) == state


def test_bots_reach_both_wins() -> None:
    winners = set()
    for seed in range(30):
        state, _ = bot.BOT.play(setup(3 + seed % 6, seed), random.Random(seed))
        winners.add(GAME.result(state)["winner"])  # type: ignore[index]
    assert winners == {"prisoners", "sheriffs"}


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(n=st.integers(3, 4), seed=st.integers(0, 10**6), moves=st.integers(0, 2**32), timer=st.sampled_from([0, 45]))
def test_twin_evenings_that_differ_only_in_secrets_show_the_host_the_same(n: int, seed: int, moves: int,
                                                                          timer: int) -> None:
    """Jailbreak keeps no secret but its seed (roles, characters and hands are on the table): two evenings
    on seeds that deal the same sheriffs and characters (found for 3 and 4 players) show the host the same
    (tests/kits/host_view_twins.py)."""
    s = setup(n, seed, turn_seconds=timer)
    twins(s, seed_twin(s), game_bot("jailbreak"), moves=moves, branch=0)
