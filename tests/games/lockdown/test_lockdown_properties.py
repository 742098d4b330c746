"""Property tests over random legal Lockdown games (bots at every seat, with illegal inputs mixed in):
HP always 0..10; every item card in exactly one place; the public view never depends on a secret (a
vote, HP before it is announced, a position, a spawn, a hand, genes, an order card, a detoxed room, a
rocket target): it is the same after every secret is changed; announcements carry only public words;
a refused input changes nothing; the replay of the accepted inputs gives the same state."""

from __future__ import annotations

import copy
import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion import i18n
from companion.core.contract import Player, Setup, State
from companion.core.fold import fold, initial, step
from companion.core.inputs import Input
from companion.core.rejection import Rejected
from companion.games.lockdown import GAME, bot, items, mapgraph, views
from tests.kits.host_view_twins import game_bot, seed_twin, twins

CARDS = 97
PUBLIC_PARAMS = {
    "lockdown.round_started": {"round"}, "lockdown.actions_begin": set(), "lockdown.turn": {"player"},
    "lockdown.turn_timed_out": {"player"}, "lockdown.settlement": {"round"}, "lockdown.surgery_done": {"room"},
    "lockdown.no_surgery": {"room"}, "lockdown.fight": {"room"}, "lockdown.brawl": {"room"},
    "lockdown.shadow_encounter": {"room"}, "lockdown.poison_floors": {"floors"}, "lockdown.no_new_poison": set(),
    "lockdown.hunger": set(), "lockdown.rocket_hit": {"room"}, "lockdown.used_pill": {"player"},
    "lockdown.used_adrenaline": {"player"}, "lockdown.used_alcohol": {"player", "roll", "effect"},
    "lockdown.no_consumables": set(), "lockdown.revived": {"player"}, "lockdown.became_shadow": {"player"},
    "lockdown.hp_shown": {"hp"}, "lockdown.game_over": {"reason", "ranking"},
}


def scrambled(state: State, rng: random.Random) -> State:
    """The same game with every secret changed: positions, spawns, hands, HP, genes, order cards, votes,
    detoxed rooms, rocket targets, the turn's details and the room stocks."""
    s = copy.deepcopy(state)
    rooms = sorted(mapgraph.rooms(s))
    for p in s["people"].values():
        p["room"] = rng.choice(rooms)
        p["spawn"] = rng.choice(rooms)
        p["hp"] = rng.randint(0, 10)
        p["items"] = [f"junk-{rng.randint(100, 999)}"]
        if p["genes"] is not None:
            p["genes"] = {"force": rng.randint(0, 9), "speed": rng.randint(1, 9), "load": rng.randint(0, 9)}
        p["order"] = rng.randint(1, 9)
        p["rocket_target"] = rng.choice(rooms)
        p["declared"] = ["pill-77"]
        p["seen_genes"] = {"x": 1}
        p["detoxed"] = [rng.choice(rooms)]
    if s["ballot"] is not None:
        s["ballot"]["votes"] = {v: rng.choice(s["ballot"]["options"]) for v in s["ballot"]["voters"]}
    s["detox"] = [rng.choice(rooms)]
    for pile in s["stocks"].values():
        rng.shuffle(pile)
        del pile[: rng.randint(0, len(pile))]
    if s["turn_state"] is not None:
        s["turn_state"]["path"] = [rng.choice(rooms)]
    s["trades"] = {"t99": {"from": "x", "to": "y", "give": [], "get": [], "swap_order": True}}
    return s


def check_prompts(state: State) -> None:
    """Every prompt names a move of the game, sends only that move's arguments, and every label a player
    reads is translated (a plain proper name excepted)."""
    known = i18n.msgids("en") & i18n.msgids("zh") & i18n.msgids("th")
    for actor in ["host", *(f"player:{pid}" for pid in state["people"])]:
        for prompt in GAME.prompts(state, actor):
            move = GAME.moves[prompt.move]
            sent = {f.name for f in prompt.fields if f.kind != "confirm"} | set(prompt.fixed)
            assert sent <= set(move.args.model_fields), (prompt.move, sent)
            assert prompt.label in known
            for field in prompt.fields:
                assert field.label in known
                assert all(c.plain or c.label in known for c in field.choices), prompt.move


def check_player_views(state: State, rng: random.Random) -> None:
    """A player's view does not change when another player's secrets do (position, HP, hand, spawn,
    order card, declared items, rocket target, vote)."""
    pids = list(state["people"])
    a = rng.choice(pids)
    other = copy.deepcopy(state)
    q = other["people"][a]
    q.update(room=rng.choice(sorted(mapgraph.rooms(other))), spawn="B777", hp=rng.randint(0, 10),
             items=[f"junk-{rng.randint(100, 999)}"], order=99, declared=["pill-77"], rocket_target="B707")
    if other["ballot"] is not None and a in other["ballot"]["votes"]:
        other["ballot"]["votes"][a] = rng.choice(other["ballot"]["options"])
    for b in pids:
        if b != a and not any(a in (t["from"], t["to"]) for t in state["trades"].values()):
            assert views.player(state, b) == views.player(other, b), (a, b)


def check_invariants(state: State, rng: random.Random) -> None:
    for p in state["people"].values():
        assert 0 <= p["hp"] <= 10
        assert not (p["shadow"] and p["items"])
    cards = items.all_places(state)
    assert len(cards) == len(set(cards)) == CARDS
    public = views.public(state)
    assert public == views.public(scrambled(state, rng))
    assert views.host(state) == views.host(scrambled(state, rng))
    for a in state["announcements"]:
        assert set(a["params"]) <= PUBLIC_PARAMS.get(a["msg"], {"name", "seconds"}), a
        if a["msg"] == "lockdown.hp_shown":
            assert len(a["params"]["hp"]) == len(state["people"])


JUNK_INPUTS = [
    Input("lockdown.move", "player:p0", {"path": ["B101", "B102"]}),
    Input("lockdown.vote", "player:p1", {"floor": "B3"}),
    Input("lockdown.draw", "player:p0", {"count": 9}),
    Input("lockdown.end_turn", "player:p1", {}),
    Input("lockdown.begin_actions", "player:p0", {}),
    Input("lockdown.take", "player:p0", {"cards": ["airdrop6"]}),
    Input("lockdown.timer_expire", "clock", {"name": "turn"}),
]


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(n=st.integers(2, 9), seed=st.integers(0, 10**6), physical=st.booleans(), junk=st.integers(0, 9))
def test_random_legal_games_keep_every_invariant(n: int, seed: int, physical: bool, junk: int) -> None:
    setup = Setup("lockdown", tuple(Player(f"p{i}", f"P{i}") for i in range(n)),
                  {"items": "physical" if physical else "digital", "free_seconds": 0, "turn_seconds": 0}, seed)
    state = initial(GAME, setup)
    rng = random.Random(seed)
    accepted: list[Input] = []
    at = 0
    while not state["ended"] and len(accepted) < 2000:
        at += 1000
        if junk and rng.random() < junk / 30:
            bad = rng.choice(JUNK_INPUTS)
            before = copy.deepcopy(state)
            try:
                state = step(GAME, state, Input(bad.move, bad.by, bad.args, at))
                accepted.append(Input(bad.move, bad.by, bad.args, at))
            except Rejected:
                assert state == before
            continue
        s = bot.next_step(state, rng)
        inp = Input(s["move"], s["by"], s["args"], at)
        state = step(GAME, state, inp)
        accepted.append(inp)
        check_invariants(state, rng)
        check_prompts(state)
        check_player_views(state, rng)
    assert state["ended"]
    assert fold(GAME, setup, accepted) == state


def test_the_scrambler_would_catch_a_leak() -> None:
    """Guard: a public view that showed a position or a real HP would differ after the scramble."""
    setup = Setup("lockdown", (Player("p0", "A"), Player("p1", "B")), {"free_seconds": 0, "turn_seconds": 0}, 3)
    state = initial(GAME, setup)
    rng = random.Random(1)
    while state["phase"] != "action":
        s = bot.next_step(state, rng)
        state = step(GAME, state, Input(s["move"], s["by"], s["args"], 0))

    def leaky(st_: State) -> dict[str, Any]:
        return {**views.public(st_), "where": [p["room"] for p in st_["people"].values()]}

    assert leaky(state) != leaky(scrambled(state, random.Random(2)))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(n=st.integers(2, 6), seed=st.integers(0, 10**6), physical=st.booleans(), moves=st.integers(0, 2**32),
       branch=st.integers(0, 60), other_seed=st.booleans())
def test_twin_evenings_that_differ_only_in_secrets_show_the_host_the_same(n: int, seed: int, physical: bool,
                                                                          moves: int, branch: int,
                                                                          other_seed: bool) -> None:
    """The host's view after every input is the same in two evenings that differ only in secrets (the
    seed, and from input `branch` on every secret choice a player makes), as long as the table's is:
    tests/kits/host_view_twins.py."""
    s = Setup("lockdown", tuple(Player(f"p{i}", f"P{i}") for i in range(n)),
              {"items": "physical" if physical else "digital", "free_seconds": 0, "turn_seconds": 0}, seed)
    twins(s, seed_twin(s) if other_seed else s, game_bot("lockdown"), moves=moves, branch=branch)
