"""A random but legal Escape the Lab table, played only through the game's prompts (what a phone or
the booth offers): for the benchmark and the property tests.

It is a player, not a rule: it draws from its own `random.Random`, never from the game's seeded source.
It leans towards what moves a game forward (placing, stepping, activating) and ends a move early often
enough that games finish; a prompt the referee refuses (a Control room on a room that then costs too
much) is dropped and another tried.
"""

from __future__ import annotations

import random
from typing import Any

from companion.core.contract import Game, Setup, State
from companion.core.fold import initial, step
from companion.core.inputs import Input
from companion.core.rejection import Rejected

#: How much the bot likes each move (it still picks among those offered).
WEIGHTS = {"step": 6, "move.end": 3, "activate": 6, "attack": 3, "item.use": 1, "turn.end": 1, "stuck": 0.05,
           "card.place": 5, "card.drawn": 5}


def choose(prompt: dict[str, Any], rnd: random.Random) -> dict[str, Any]:
    """Random values for every field of a prompt, from the choices or range it offers."""
    args: dict[str, Any] = dict(prompt["fixed"])
    for f in prompt["fields"]:
        if f["kind"] == "choice":
            args[f["name"]] = rnd.choice([c["value"] for c in f["choices"]])
        elif f["kind"] == "number":
            args[f["name"]] = rnd.randint(f["min"], f["max"])
    return args


def next_input(game: Game, state: State, rnd: random.Random, at: int) -> Input | None:
    """One legal input for whoever must act now (None once the game is over)."""
    if state.get("ended"):
        return None
    pid = game.current_player(state)
    if pid is None:
        return None
    by = f"player:{pid}"
    pool = [p.to_json() for p in game.prompts(state, by)]
    while pool:
        weights = [WEIGHTS.get(p["move"], 1) for p in pool]
        prompt = rnd.choices(pool, weights)[0]
        inp = Input(prompt["move"], by, choose(prompt, rnd), at)
        try:
            step(game, state, inp)
        except Rejected:
            pool.remove(prompt)
            continue
        return inp
    raise AssertionError(f"no prompt of {by} is accepted in phase {game.phase(state)}")


def play(game: Game, setup: Setup, rnd: random.Random, limit: int = 3000) -> tuple[State, list[Input]]:
    """A whole random game: the final state and the inputs that made it."""
    state = initial(game, setup)
    inputs: list[Input] = []
    for n in range(limit):
        inp = next_input(game, state, rnd, 1000 * (n + 1))
        if inp is None:
            break
        state = step(game, state, inp)
        inputs.append(inp)
    return state, inputs
