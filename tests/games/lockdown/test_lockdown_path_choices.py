"""Lockdown offers only what the referee accepts now (issue 21, rulings L1.3 and L2): every spawn room the
setup form offers is accepted; every path built step by step from what the path field offers (the
picker of the booth and of the phone, `companion.core.prompts.next_steps`) is accepted once the picker
lets it be sent; and every path the referee accepts (found by asking the referee, room by room, among
all 70) can be built by that picker. Players start anywhere, with or without the rope, adrenaline, or
as a shadow, so the stairs, bridges, rope, floating, helicopter, chute and teleport all come up."""

from __future__ import annotations

import copy
import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.core.contract import Player, Setup, State
from companion.core.fold import initial, step
from companion.core.inputs import Input
from companion.core.prompts import next_steps, path_ready
from companion.core.rejection import Rejected
from companion.games.lockdown import GAME, bot, flow, mapgraph, movement

ROOMS = sorted(mapgraph.rooms(initial(GAME, Setup("lockdown", (Player("a", "A"), Player("b", "B")), {}, 1))))
DEPTH = 2  # how many steps of the referee's paths are searched from every room (adrenaline gives 10)


def at_first_move(n: int, seed: int) -> State:
    """A real game played by the bots up to the first player's move of round 1."""
    setup = Setup("lockdown", tuple(Player(f"p{i}", f"P{i}") for i in range(n)),
                  {"free_seconds": 0, "turn_seconds": 0}, seed)
    state = initial(GAME, setup)
    rng = random.Random(seed)
    while state["phase"] != "action":
        s = bot.next_step(state, rng)
        state = step(GAME, state, Input(s["move"], s["by"], s["args"], 0))
    return state


def placed(state: State, room: str, rope: bool, shadow: bool, adrenaline: bool) -> tuple[State, str]:
    """The same game with the player to move put in `room`, holding the rope or not, a shadow or not."""
    s = copy.deepcopy(state)
    pid = flow.current_player(s)
    assert pid is not None
    p = s["people"][pid]
    p["room"], p["shadow"] = room, shadow
    p["items"] = ["rope-1"] if rope else []
    if adrenaline:
        p["adrenaline_until"] = s["round"]
    return s, pid


def path_of(state: State, pid: str) -> dict[str, Any]:
    prompt = next(p for p in GAME.prompts(state, f"player:{pid}") if p.move == "lockdown.move")
    field: dict[str, Any] = prompt.to_json()["fields"][0]
    return field


def accepted(state: State, pid: str, path: list[str]) -> bool:
    try:
        step(GAME, state, Input("lockdown.move", f"player:{pid}", {"path": path}, 0))
    except Rejected:
        return False
    return True


def referee_paths(state: State, pid: str) -> list[list[str]]:
    """Every path of up to DEPTH steps the referee accepts, found by trying each room at each step and
    keeping the prefixes whose hops it does not refuse."""
    found: list[list[str]] = []
    prefixes: list[list[str]] = [[]]
    for _ in range(min(DEPTH, movement.speed(state, state["people"][pid]))):
        longer: list[list[str]] = []
        for prefix in prefixes:
            for room in ROOMS:
                try:
                    movement.check(state, pid, [*prefix, room])
                except Rejected as why:
                    if why.code == "reject.lockdown_path_ends_at_start":
                        longer.append([*prefix, room])
                    continue
                longer.append([*prefix, room])
                found.append([*prefix, room])
        prefixes = longer
    return found


def buildable(field: dict[str, Any], path: list[str]) -> bool:
    return all(room in next_steps(field, path[:i]) for i, room in enumerate(path)) and path_ready(field, path)


STATES = {seed: at_first_move(2 + seed % 4, seed) for seed in range(4)}


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.sampled_from(sorted(STATES)), rope=st.booleans(), shadow=st.booleans(), adrenaline=st.booleans(),
       walk=st.integers(0, 2**32))
def test_the_path_picker_offers_exactly_the_paths_the_referee_accepts(seed: int, rope: bool, shadow: bool,
                                                                      adrenaline: bool, walk: int) -> None:
    rng = random.Random(walk)
    for room in ROOMS:  # from every room of the map
        state, pid = placed(STATES[seed], room, rope, shadow, adrenaline and not shadow)
        field = path_of(state, pid)
        for _ in range(3):  # random walks through the picker: each one it lets be sent is accepted
            picks: list[str] = []
            while (offered := next_steps(field, picks)) and rng.random() < 0.8:
                picks.append(rng.choice(offered))
            if path_ready(field, picks):
                assert accepted(state, pid, picks), picks
            else:  # nothing picked yet, or back where it started with a step left to go on
                assert not picks or (picks[-1] == room and next_steps(field, picks)), picks
        wanted = referee_paths(state, pid)
        assert wanted, f"{room} has a way out"
        for path in wanted:
            assert buildable(field, path), (room, path)


def test_every_offered_spawn_room_is_accepted_and_every_room_is_offered() -> None:
    """Ruling L1.3: any room of the map may be the spawn room."""
    state = initial(GAME, Setup("lockdown", (Player("a", "A"), Player("b", "B")), {}, 5))
    prompt = GAME.prompts(state, "player:a")[0]
    spawn = next(f for f in prompt.fields if f.name == "spawn")
    assert sorted(c.value for c in spawn.choices) == ROOMS
    assert {c.group_params["floor"] for c in spawn.choices} == set(state["map"]["floors"])
    for c in spawn.choices:
        args = {"force": 3, "speed": 4, "load": 3, "spawn": c.value}
        step(GAME, state, Input("lockdown.prepare", "player:a", args, 0))  # raises if refused
