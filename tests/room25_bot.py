"""A random but legal Room 25 table, driven only through the game's own prompts (what a phone or the
kiosk booth would offer): used by the property tests, the scripted-game checks and the benchmark.

It works on the pure core (`fold.step`), so thousands of games run without a log file; the end-to-end
tests replay what it produced through the real referee and SQLite log.
"""

from __future__ import annotations

import random
from typing import Any

from companion.core.contract import Player, Setup, State
from companion.core.fold import initial, step
from companion.core.inputs import Input
from companion.games import registry

GAME = registry()["room25"]
NAMES = ["ana", "ben", "chai", "dao", "eli", "fon"]


def setup(mode: str, count: int, seed: int, **options: Any) -> Setup:
    players = tuple(Player(p, p.title()) for p in NAMES[:count])
    return Setup("room25", players, {"mode": mode, **options}, seed)


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


def next_input(state: State, rnd: random.Random, at: int) -> Input | None:
    """One legal input for whoever must act now (None once the game is over)."""
    if state.get("ended"):
        return None
    phase = GAME.phase(state)
    if phase in ("reveal", "locate_exit"):
        prompt = next(p.to_json() for p in GAME.prompts(state, "host") if p.move in ("room.reveal", "exit.locate"))
        return Input(prompt["move"], rnd.choice(["host", "table"]), choose(prompt, rnd), at)
    if phase == "programming":
        waiting = [p for p in state["program"]["expected"] if p not in state["program"]["committed"]]
        pid = rnd.choice(waiting)
    else:
        pid = GAME.current_player(state)
        assert pid is not None, phase
    prompts = [p.to_json() for p in GAME.prompts(state, f"player:{pid}")]
    useful = [p for p in prompts if p["move"] not in ("act.forfeit", "room.skip")]
    if phase == "action" and not any(all(f["choices"] for f in p["fields"]) for p in useful):
        useful = []
    pool = useful if useful and rnd.random() > 0.05 else prompts
    prompt = rnd.choice(pool)
    return Input(prompt["move"], f"player:{pid}", choose(prompt, rnd), at)


def play(s: Setup, rnd: random.Random, limit: int = 2000) -> tuple[State, list[Input]]:
    """A whole random game: the final state and the inputs that made it."""
    state = initial(GAME, s)
    inputs: list[Input] = []
    at = 0
    for _ in range(limit):
        at += 1000
        inp = next_input(state, rnd, at)
        if inp is None:
            break
        state = step(GAME, state, inp)
        inputs.append(inp)
    return state, inputs
