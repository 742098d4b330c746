"""Lockdown's `player_view_keys` (views made only when what they show could have changed, issue 20):
across random legal games (bots at every seat) the key of a seat never stays equal from one state to
the next while that seat's private view or prompts change; and the table's views, made from the last
ones (companion/table/views.py), equal views computed afresh after every input, JSON included."""

from __future__ import annotations

import random
from collections.abc import Callable
from itertools import pairwise
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.core.bot import answer, offers, usable
from companion.core.contract import Player, Setup, State
from companion.core.fold import initial, step
from companion.core.inputs import Input
from companion.core.referee import audience_view, player_part, public_view
from companion.core.rejection import Rejected
from companion.games.lockdown import GAME, bot
from companion.table.views import Views, encode, lines_of

Keys = Callable[[State], dict[str, object]]


def own(state: State, pid: str) -> Any:
    """What the seat's own part is made of, fresh: its private view, its prompts, their lines."""
    part = player_part(GAME, state, pid)
    return part, GAME.private_lines(part["private"])


def stale_seats(keys: Keys, before: State, after: State) -> list[str]:
    """Seats whose key stayed equal while their own part changed (a player would see old data)."""
    old, new = keys(before), keys(after)
    return [pid for pid in after["people"] if old[pid] == new[pid] and own(before, pid) != own(after, pid)]


def game_states(n: int, seed: int, physical: bool, limit: int = 3000, wander: float = 0.0) -> list[State]:
    """The states of a bot's game; with `wander`, that share of the inputs is instead any prompt offered
    to any player, filled in at random (trades, declarations, gold, the control room...), if accepted."""
    setup = Setup("lockdown", tuple(Player(f"p{i}", f"P{i}") for i in range(n)),
                  {"items": "physical" if physical else "digital", "free_seconds": 0, "turn_seconds": 0}, seed)
    state = initial(GAME, setup)
    rng = random.Random(seed)
    states = [state]
    while not state["ended"] and len(states) < limit:
        at = len(states) * 1000
        if rng.random() < wander:
            pool = [o for o in offers(GAME, state, *(f"player:{pid}" for pid in state["people"])) if usable(o[1])]
            if pool:
                try:
                    state = step(GAME, state, answer(rng.choice(pool), rng, at))
                except (Rejected, ValueError, TypeError):  # a random filling the referee refuses
                    continue
                states.append(state)
                continue
        s = bot.next_step(state, rng)
        state = step(GAME, state, Input(s["move"], s["by"], s["args"], at))
        states.append(state)
    return states


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(n=st.integers(2, 9), seed=st.integers(0, 10**6), physical=st.booleans(),
       wander=st.sampled_from([0.0, 0.3]))
def test_the_key_never_stays_while_a_seats_view_changes(n: int, seed: int, physical: bool, wander: float) -> None:
    states = game_states(n, seed, physical, wander=wander)
    assert states[-1]["ended"] or len(states) == 3000
    reused = 0
    for before, after in pairwise(states):
        assert stale_seats(GAME.player_view_keys, before, after) == []
        old, new = GAME.player_view_keys(before), GAME.player_view_keys(after)
        reused += sum(old[pid] == new[pid] for pid in after["people"])
    assert reused > 0  # the key does stay equal, often: otherwise it would save nothing


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(n=st.integers(2, 9), seed=st.integers(0, 10**6), physical=st.booleans())
def test_views_made_from_the_last_ones_equal_fresh_views(n: int, seed: int, physical: bool) -> None:
    """What the table hands its outputs and the phones are sent, every seat after every input."""
    states = game_states(n, seed, physical)
    setup = Setup("lockdown", tuple(Player(f"p{i}", f"P{i}") for i in range(n)), {}, seed)
    last: Views | None = None
    for state in states:
        views = Views(GAME, setup, state, (), 1, last)
        public = public_view(GAME, setup, state, (), 1)
        for pid in state["people"]:
            fresh = audience_view(GAME, state, (), public, f"player:{pid}")
            assert views.player(pid) == fresh
            assert views.json(f"player:{pid}") == encode(lines_of(GAME, fresh, public))
        assert views.json("public") == encode(lines_of(GAME, public, public))
        last = views


def test_a_key_that_missed_a_part_would_be_caught() -> None:
    """Guard: a key without the player's own cards and HP stays equal while the view changes."""
    states = game_states(4, 7, False, limit=120)

    def careless(state: State) -> dict[str, object]:
        return {pid: (state["phase"], state["round"]) for pid in state["people"]}

    assert any(stale_seats(careless, a, b) for a, b in pairwise(states))
