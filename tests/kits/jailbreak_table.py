"""A Jailbreak table for rule tests: real inputs through the pure core (`fold.step`), with helpers to
put people in scenes and set hand sizes by hand, so every expected result can be worked out from the
rule text. Players sit clockwise in the order given; turns go counter-clockwise (J1.4)."""

from __future__ import annotations

from typing import Any

import pytest

from companion.core.contract import Player, Setup, State
from companion.core.fold import initial, step
from companion.core.inputs import Input
from companion.core.rejection import Rejected
from companion.games import registry

GAME = registry()["jailbreak"]
NAMES = ("ana", "ben", "chai", "dao", "eli", "fon", "gus", "hui")


def setup(n: int = 5, seed: int = 1, **options: Any) -> Setup:
    return Setup("jailbreak", tuple(Player(p, p.title()) for p in NAMES[:n]), options, seed)


class Table:
    """Five players by default: ana and ben are the sheriffs (ana: badge; ben: pistol); ana starts."""

    def __init__(self, n: int = 5, seed: int = 1, **options: Any) -> None:
        if "sheriffs" not in options:
            options["sheriffs"] = ["ana", "ben", "chai"][: {3: 1, 4: 1, 5: 2, 6: 2, 7: 3, 8: 3}[n]]
        self.setup = setup(n, seed, **options)
        self.state: State = initial(GAME, self.setup)
        self.at = 0

    @property
    def s(self) -> State:
        return self.state

    def p(self, pid: str) -> dict[str, Any]:
        person: dict[str, Any] = self.state["people"][pid]
        return person

    def put(self, **scenes: int) -> Table:
        for pid, scene in scenes.items():
            self.p(pid)["scene"] = scene
            self.p(pid)["reached"] = max(self.p(pid)["reached"], scene)
        return self

    def hands(self, **sizes: int) -> Table:
        for pid, n in sizes.items():
            self.p(pid)["hand"] = n
        return self

    def send(self, pid: str, move: str, **args: Any) -> Table:
        self.at += 1000
        by = pid if pid in ("host", "clock") else f"player:{pid}"
        self.state = step(GAME, self.state, Input(move, by, args, self.at))
        return self

    def refused(self, pid: str, move: str, **args: Any) -> str:
        before = self.state
        by = pid if pid in ("host", "clock") else f"player:{pid}"
        with pytest.raises(Rejected) as caught:
            step(GAME, self.state, Input(move, by, args, self.at + 1000))
        assert self.state is before
        return caught.value.code

    def turn(self) -> str:
        who: str = self.state["turn"]["player"]
        return who

    def phase(self) -> str | None:
        return GAME.phase(self.state)

    def said(self) -> list[str]:
        return [a["msg"] for a in self.state["announcements"]]

    def moves(self, pid: str) -> list[str]:
        return [p.move for p in GAME.prompts(self.state, f"player:{pid}")]
