"""One random but legal table for every game: a bot plays every seat, for the demo scripts, the
benchmarks and the property tests.

It is a player, not a rule: it draws from its own `random.Random`, never from the game's seeded source.
A game's ``bot.py`` holds only its choice function, ``next_input(game, state, rnd, at)``: one input for
whoever must act now (None when nobody can). Most play through the game's prompts, what a phone or the
booth offers, with the pieces below; `Bot` runs the loop and stops when the game has ended.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from companion.core.contract import Game, Setup, State
from companion.core.fold import initial, step
from companion.core.inputs import HOST, Input

#: A game's choice function: the next input of whoever must act now, or None.
NextInput = Callable[[Game, State, random.Random, int], "Input | None"]
#: A prompt as the phone reads it (`Prompt.to_json`), and who may answer it.
Offer = tuple[str, dict[str, Any]]
#: What goes into a number field: (field, prompt, rnd) -> the value.
Number = Callable[[dict[str, Any], dict[str, Any], random.Random], Any]


@dataclass(frozen=True)
class Bot:
    game: Game
    next_input: NextInput
    #: how many inputs a whole game may take at the most
    limit: int = 3000
    #: table time between two inputs (ms)
    step_ms: int = 1000

    def __call__(self, state: State, rnd: random.Random, at: int) -> Input | None:
        """The next input, at table time `at` (None once the game has ended)."""
        return None if state.get("ended") else self.next_input(self.game, state, rnd, at)

    def play(self, setup: Setup, rnd: random.Random, limit: int | None = None) -> tuple[State, list[Input]]:
        """A whole game (or `limit` inputs of it): the final state and the inputs that made it."""
        state = initial(self.game, setup)
        inputs: list[Input] = []
        for n in range(self.limit if limit is None else limit):
            inp = self(state, rnd, self.step_ms * (n + 1))
            if inp is None:
                break
            state = step(self.game, state, inp)
            inputs.append(inp)
        return state, inputs

    def first(self, setup_for: Callable[[int], Setup], wanted: Callable[[State, list[Input]], bool],
              tries: int = 400) -> tuple[int, Setup, State, list[Input]]:
        """The first game, by bot seed 1, 2, ..., that ends as `wanted` (for a demo script): its seed,
        setup, final state and inputs."""
        for seed in range(1, tries):
            setup = setup_for(seed)
            state, inputs = self.play(setup, random.Random(seed))
            if wanted(state, inputs):
                return seed, setup, state, inputs
        raise SystemExit(f"no {self.game.id} game as wanted in {tries} tries")


def offers(game: Game, state: State, *actors: str) -> list[Offer]:
    """What each actor's prompts offer now, actor by actor."""
    return [(actor, p.to_json()) for actor in actors for p in game.prompts(state, actor)]


def usable(prompt: dict[str, Any]) -> bool:
    """Every choice field of the prompt has something to choose, and nothing must be typed: a bot types
    no text (a text field is filled from its suggestions; a list of typed texts makes the prompt unusable)."""
    return (all(f["choices"] for f in prompt["fields"] if f["kind"] in ("choice", "text"))
            and not any(f["kind"] == "texts" for f in prompt["fields"]))


def weighted(rnd: random.Random, pool: Sequence[Offer], likes: Mapping[str, float]) -> Offer | None:
    """One offer, each as likely as the bot likes its move (1 unless said); None when there is none."""
    if not pool:
        return None
    return rnd.choices(pool, [likes.get(prompt["move"], 1.0) for _, prompt in pool])[0]


def spread(field: dict[str, Any], prompt: dict[str, Any], rnd: random.Random) -> int:
    """A number anywhere in the field's range."""
    return rnd.randint(field["min"], field["max"])


def choose(prompt: dict[str, Any], rnd: random.Random, number: Number | None = None) -> dict[str, Any]:
    """Random values for every field of a prompt, from the choices it offers; a number field takes its
    default unless `number` says otherwise."""
    args: dict[str, Any] = dict(prompt["fixed"])
    for f in prompt["fields"]:
        values = [c["value"] for c in f["choices"]]
        if f["kind"] == "choice":
            args[f["name"]] = rnd.choice(values)
        elif f["kind"] == "choices":
            args[f["name"]] = rnd.sample(values, f["max"])
        elif f["kind"] == "text":  # one of the suggested texts
            args[f["name"]] = rnd.choice(values)
        elif f["kind"] == "subset":
            low = f.get("min") or 0
            high = len(values) if f.get("max") is None else min(f["max"], len(values))
            args[f["name"]] = rnd.sample(values, rnd.randint(low, high))
        elif f["kind"] == "number":
            args[f["name"]] = f["default"] if number is None else number(f, prompt, rnd)
    return args


def answer(offer: Offer, rnd: random.Random, at: int, number: Number | None = None) -> Input:
    """The input that fills in an offered prompt."""
    by, prompt = offer
    return Input(prompt["move"], by, choose(prompt, rnd, number), at)


def reported(game: Game, state: State, rnd: random.Random, at: int, moves: Sequence[str]) -> Input:
    """The table reports what it turned up (a tile, a card) through the host's prompt for it, sent by
    the host or by a tap on the table's reader."""
    prompt = next(p for _, p in offers(game, state, HOST) if p["move"] in moves)
    return answer((rnd.choice([HOST, "table"]), prompt), rnd, at)


def script(comments: Sequence[str], setup: Setup, inputs: Sequence[Input]) -> str:
    """A bot game as a script (docs/scripting.md): comment lines, the setup, one line per input."""
    lines = [*(f"# {c}" for c in comments), json.dumps(setup.to_json(), ensure_ascii=False),
             *(json.dumps({"by": i.by, "move": i.move, "args": dict(i.args), "at": i.at}, ensure_ascii=False)
               for i in inputs)]
    return "\n".join(lines) + "\n"
