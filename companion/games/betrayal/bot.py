"""A random but legal Betrayal table, played only through the game's prompts (what a phone, the booth
or the host's screen offers): for the kiosk's attract loop, the benchmark and the property tests.

It is a player, not a rule: it draws from its own `random.Random`, never from the game's seeded source.
Now and then the host changes a trait (what an event or a room did) or ends the haunt.
"""

from __future__ import annotations

import random
from typing import Any

from companion.core.contract import Game, Setup, State
from companion.core.fold import initial, step
from companion.core.inputs import Input

RARE = {"turn.end": 0.25, "trait.roll": 0.3, "card.use": 0.3, "monsters.done": 0.3}


def choose(prompt: dict[str, Any], rnd: random.Random) -> dict[str, Any]:
    """Random values for every field of a prompt, from the choices it offers."""
    args: dict[str, Any] = dict(prompt["fixed"])
    for f in prompt["fields"]:
        values = [c["value"] for c in f["choices"]]
        if f["kind"] == "choice":
            args[f["name"]] = rnd.choice(values)
        elif f["kind"] == "number":
            spread = f["name"] == "first" or (f["name"] == "total" and prompt["move"] == "haunt.roll")
            args[f["name"]] = rnd.randint(f["min"], f["max"]) if spread else f["default"]
    return args


def _usable(prompt: dict[str, Any]) -> bool:
    return all(f["choices"] for f in prompt["fields"] if f["kind"] == "choice")


def _pick(prompts: list[dict[str, Any]], rnd: random.Random) -> dict[str, Any] | None:
    usable = [p for p in prompts if _usable(p)]
    if not usable:
        return None
    weights = [RARE.get(p["move"], 1.0) for p in usable]
    return rnd.choices(usable, weights)[0]


def next_input(game: Game, state: State, rnd: random.Random, at: int) -> Input | None:
    """One legal input for whoever must act now (None once the game is over)."""
    if state.get("ended"):
        return None
    phase = game.phase(state)

    def host_prompts() -> list[dict[str, Any]]:
        return [p.to_json() for p in game.prompts(state, "host")]

    if phase != "choosing" and rnd.random() < 0.03:
        host = host_prompts()
        extra = [p for p in host if _usable(p) and (p["move"] == "trait.adjust"
                                                     or (p["move"] == "haunt.end" and rnd.random() < 0.2))]
        if extra:
            prompt = rnd.choice(extra)
            return Input(prompt["move"], "host", choose(prompt, rnd), at)
    if phase == "choosing":
        waiting = [p for p, e in state["explorers"].items() if e["character"] is None]
        pid: str | None = rnd.choice(waiting)
    elif phase in ("room", "card"):
        prompt = next(p for p in host_prompts() if p["move"] in ("room.reveal", "card.reveal"))
        return Input(prompt["move"], rnd.choice(["host", "table"]), choose(prompt, rnd), at)
    else:
        pid = game.current_player(state)
    if pid is None:
        picked = _pick([p for p in host_prompts() if p["move"].startswith("monster")], rnd)
        return None if picked is None else Input(picked["move"], "host", choose(picked, rnd), at)
    picked = _pick([p.to_json() for p in game.prompts(state, f"player:{pid}")], rnd)
    if picked is None:
        return None
    return Input(picked["move"], f"player:{pid}", choose(picked, rnd), at)


def play(game: Game, setup: Setup, rnd: random.Random, limit: int = 2000) -> tuple[State, list[Input]]:
    """A whole random game (or `limit` inputs of it): the final state and the inputs that made it."""
    state = initial(game, setup)
    inputs: list[Input] = []
    for n in range(limit):
        inp = next_input(game, state, rnd, 1000 * (n + 1))
        if inp is None:
            break
        state = step(game, state, inp)
        inputs.append(inp)
    return state, inputs
