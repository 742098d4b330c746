"""A random but legal Jailbreak table, played only through the game's prompts (what a phone or the booth
offers): for the demo scripts, the benchmark and the property tests.

It is a player, not a rule: it draws from its own `random.Random`, never from the game's seeded source.
It leans towards keys and attacks and ends its turn now and then, so games reach both ends.
"""

from __future__ import annotations

import random
from typing import Any

from companion.core.contract import Game, Setup, State
from companion.core.fold import initial, step
from companion.core.inputs import Input

WEIGHTS = {"key.use": 8, "attack": 3, "badge.use": 3, "card.use": 2, "cuffs.place": 2, "scene.back": 0.3,
           "turn.end": 1.5, "attack.trade": 1, "attack.take": 1, "cuffs.unlock": 3, "cuffs.stay": 1}


def choose(prompt: dict[str, Any], rnd: random.Random) -> dict[str, Any]:
    """Random values for every field of a prompt, from the choices it offers."""
    args: dict[str, Any] = dict(prompt["fixed"])
    for f in prompt["fields"]:
        if f["kind"] == "choice":
            args[f["name"]] = rnd.choice([c["value"] for c in f["choices"]])
    return args


def next_input(game: Game, state: State, rnd: random.Random, at: int) -> Input | None:
    """One legal input for whoever must act now (None once the game is over)."""
    if state.get("ended"):
        return None
    if game.phase(state) == "cuffs":
        pids = [p["id"] for p in state["players"]]
        offers = [(pid, p.to_json()) for pid in pids for p in game.prompts(state, f"player:{pid}")]
    else:
        pid = game.current_player(state)
        if pid is None:
            return None
        offers = [(pid, p.to_json()) for p in game.prompts(state, f"player:{pid}")]
    weights = [WEIGHTS.get(p["move"], 1.0) for _, p in offers]
    pid, prompt = rnd.choices(offers, weights)[0]
    return Input(prompt["move"], f"player:{pid}", choose(prompt, rnd), at)


def play(game: Game, setup: Setup, rnd: random.Random, limit: int = 5000) -> tuple[State, list[Input]]:
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
