"""A random but legal Room 25 table, played only through the game's prompts (what a phone or the booth
offers): for the kiosk's attract loop, the benchmark and the property tests.

It is a player, not a rule: it draws from its own `random.Random`, never from the game's seeded source.
"""

from __future__ import annotations

import random
from typing import Any

from companion.core.contract import Game, Setup, State
from companion.core.fold import initial, step
from companion.core.inputs import Input


def choose(prompt: dict[str, Any], rnd: random.Random) -> dict[str, Any]:
    """Random values for every field of a prompt, from the choices it offers."""
    args: dict[str, Any] = dict(prompt["fixed"])
    for f in prompt["fields"]:
        values = [c["value"] for c in f["choices"]]
        if f["kind"] == "choice":
            args[f["name"]] = rnd.choice(values)
        elif f["kind"] == "choices":
            args[f["name"]] = rnd.sample(values, f["max"])
        elif f["kind"] == "number":
            args[f["name"]] = f["default"]
    return args


def next_input(game: Game, state: State, rnd: random.Random, at: int) -> Input | None:
    """One legal input for whoever must act now (None once the game is over)."""
    if state.get("ended"):
        return None
    phase = game.phase(state)
    if phase in ("reveal", "locate_exit"):
        prompt = next(p.to_json() for p in game.prompts(state, "host") if p.move in ("room.reveal", "exit.locate"))
        return Input(prompt["move"], rnd.choice(["host", "table"]), choose(prompt, rnd), at)
    if phase == "programming":
        waiting = [p for p in state["program"]["expected"] if p not in state["program"]["committed"]]
        pid = rnd.choice(waiting)
    else:
        pid = game.current_player(state)
        if pid is None:
            return None
    prompts = [p.to_json() for p in game.prompts(state, f"player:{pid}")]
    useful = [p for p in prompts if p["move"] not in ("act.forfeit", "room.skip")]
    if not any(all(f["choices"] for f in p["fields"] if f["kind"] == "choice") for p in useful):
        useful = []
    pool = useful if useful and rnd.random() > 0.05 else prompts
    prompt = rnd.choice(pool)
    return Input(prompt["move"], f"player:{pid}", choose(prompt, rnd), at)


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
