"""What a game's prompts ask, for the choice checks' other direction (tests/kits/picker_checks.py): the
argument values seen in every prompt so far, move by move and field by field, numbers a little beyond their
ranges, every seated player where a field names players, and the values a move's schema names."""

from __future__ import annotations

import itertools
import json
import random
import typing
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from companion.core.contract import Game, State
from companion.core.inputs import HOST

TRIED_PER_MOVE = 40  # inputs tried per move
Values = Callable[[dict[str, Any], random.Random], list[Any]]  # the values a field offers


@dataclass
class Universe:
    """Argument values seen in the game's prompts so far, move by move and field by field."""

    values: dict[str, dict[str, dict[str, Any]]] = field(default_factory=dict)  # move -> field -> json -> value
    fixed: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    asked: dict[str, set[str]] = field(default_factory=dict)  # role (host, player) -> the moves its prompts ask

    def learn(self, game: Game, state: State, rnd: random.Random, prompts: dict[str, list[dict[str, Any]]],
              values: Values) -> None:
        """What every actor's prompts at `state` ask (`prompts`: by actor, as their phones get them)."""
        for actor, asked in prompts.items():
            for prompt in asked:
                self.asked.setdefault(role(actor), set()).add(prompt["move"])
                seen = self.values.setdefault(prompt["move"], {})
                fixed = self.fixed.setdefault(prompt["move"], [])
                if prompt["fixed"] not in fixed:
                    fixed.append(prompt["fixed"])
                for f in prompt["fields"]:
                    into = seen.setdefault(f["name"], {})
                    vals = [*values(f, rnd), *_schema_values(game, prompt["move"], f["name"])]
                    if any(c["plain"] for c in f["choices"]):  # a player's name: any seated player
                        vals += [p["id"] for p in state["players"]]
                    if f["kind"] == "number":
                        vals = [*vals, vals[0] - 1, vals[-1] + 1] if vals else vals
                    if f["kind"] in ("choices", "path"):
                        vals = [*vals, *([c["value"]] for c in f["choices"])]
                    for v in vals:
                        into.setdefault(json.dumps(v, sort_keys=True), v)

    def merge(self, other: Universe) -> None:
        """Add what another universe has seen (another demo script of the game)."""
        for move, fields in other.values.items():
            for name, seen in fields.items():
                self.values.setdefault(move, {}).setdefault(name, {}).update(seen)
        for move, fixed in other.fixed.items():
            mine = self.fixed.setdefault(move, [])
            mine += [f for f in fixed if f not in mine]
        for who, moves in other.asked.items():
            self.asked.setdefault(who, set()).update(moves)

    def candidates(self, move: str, rnd: random.Random) -> list[dict[str, Any]]:
        """Inputs of `move` to try: every combination of the fixed args and values seen when there are at
        most TRIED_PER_MOVE, else TRIED_PER_MOVE drawn at random (each a random fixed part and random values;
        a walk's many states between them try the others)."""
        names = sorted(self.values.get(move, {}))
        pools = [list(self.values[move][n].values()) for n in names]
        fixed = self.fixed.get(move, [{}])
        size = len(fixed)
        for p in pools:
            size *= len(p)
        if size <= TRIED_PER_MOVE:
            combos: Iterable[tuple[dict[str, Any], tuple[Any, ...]]] = itertools.product(fixed,
                                                                                          itertools.product(*pools))
        else:
            combos = ((rnd.choice(fixed), tuple(rnd.choice(p) for p in pools)) for _ in range(TRIED_PER_MOVE))
        return [{**f, **dict(zip(names, c, strict=True))} for f, c in combos]


def _schema_values(game: Game, move: str, name: str) -> list[Any]:
    """The values a move's argument schema allows when it names them (a Literal, optional or not)."""
    info = game.moves[move].args.model_fields.get(name)
    kinds = [info.annotation] if info is not None else []
    kinds += [k for k in typing.get_args(kinds[0])] if kinds and typing.get_origin(kinds[0]) is not None else []
    return [v for k in kinds if typing.get_origin(k) is typing.Literal for v in typing.get_args(k)]


def role(actor: str) -> str:
    """The host, or a player: each side is checked on the moves its own prompts ask. The host may also send
    a player's input for them (someone without a phone, the traitor's monsters): that counts as reachable
    when the player's own forms offer it."""
    return HOST if actor == HOST else "player"
