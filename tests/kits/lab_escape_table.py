"""An Escape the Lab table for rule tests: real inputs through the pure core (`fold.step`), with helpers
to lay cards, seat players and hand out items by hand, so every expected result can be worked out from
the rule text. Dice are the table's (entered with each input) unless a test asks for the referee's."""

from __future__ import annotations

from typing import Any

import pytest

from companion.core.contract import Player, Setup, State
from companion.core.fold import initial, step
from companion.core.inputs import Input
from companion.core.rejection import Rejected
from companion.games import registry
from companion.games.lab_escape import bot, data

GAME = registry()["lab_escape"]
NAMES = ["ana", "ben", "chai", "dao"]


def setup(count: int = 3, seed: int = 1, **options: Any) -> Setup:
    return Setup("lab_escape", tuple(Player(p, p.title()) for p in NAMES[:count]), options, seed)


def components(s: State) -> dict[str, int]:
    """Every item counted where it is: supply, players, room floors, used up (must equal the box)."""
    out = dict(s["supply"])
    for p in s["people"].values():
        for item in p["items"]:
            out[item] += 1
    for things in s["floor"].values():
        for item in things:
            out[item] += 1
    for item, n in s["spent"].items():
        out[item] += n
    return out


def assert_invariants(s: State) -> None:
    assert all(1 <= p["stamina"] <= 6 for p in s["people"].values())
    assert components(s) == s["total"]
    assert all(n >= 0 for n in s["supply"].values())
    for p in s["people"].values():
        assert len(set(p["items"])) == len(p["items"])  # E3.3
    cards = [*s["lab"], *s["display"], *s["deck"]]
    assert sorted(cards) == sorted(c.id for c in data.bundled().cards)  # the 9 cards, each in one place
    rooms = {r.id for c in s["lab"] for r in data.bundled().card(c).rooms}
    assert all(p["room"] in rooms for p in s["people"].values())


class Table:
    def __init__(self, players: int = 3, seed: int = 1, **options: Any) -> None:
        options.setdefault("dice", "table")
        self.setup = setup(players, seed, **options)
        self.state: State = initial(GAME, self.setup)
        self.at = 0
        self.inputs: list[Input] = []

    # -- laying the table by hand ----------------------------------------------------------------------------

    def lay(self, *cards: str) -> Table:
        """Put cards straight into the lab (from the deck or the display)."""
        s = self.state
        for c in cards:
            for pile in ("deck", "display"):
                if c in s[pile]:
                    s[pile].remove(c)
            s["lab"].append(c)
        return self

    def show(self, *cards: str) -> Table:
        """Make `cards` the display (the ones shown before go back into the deck)."""
        s = self.state
        s["deck"] = sorted([*s["deck"], *s["display"]])
        s["display"] = []
        for c in cards:
            s["deck"].remove(c)
            s["display"].append(c)
        return self

    def seat(self, pid: str, room: str | None = None, stamina: int | None = None,
             items: list[str] | None = None) -> Table:
        """Put a player somewhere, with that stamina and those items (taken from the supply)."""
        p = self.state["people"][pid]
        if room is not None:
            p["room"] = room
            if self.state["turn"]["player"] == pid and self.state["turn"]["steps"] == 0:
                self.state["turn"]["visited"] = [room]
        if stamina is not None:
            p["stamina"] = stamina
        if items is not None:
            for item in p["items"]:
                self.state["supply"][item] += 1
            for item in items:
                self.state["supply"][item] -= 1
            p["items"] = sorted(items)
        return self

    def stage(self, stage: str) -> Table:
        """Jump the current turn to a stage (a test that starts with the move or the action)."""
        self.state["turn"]["stage"] = stage
        return self

    # -- inputs ---------------------------------------------------------------------------------------------

    def send(self, by: str, move: str, **args: Any) -> Table:
        self.at += 1000
        inp = Input(move, by, args, self.at)
        self.state = step(GAME, self.state, inp)
        self.inputs.append(inp)
        return self

    def me(self, move: str, **args: Any) -> Table:
        """An input from the player whose turn it is."""
        return self.send(f"player:{self.turn}", move, **args)

    def refused(self, by: str, move: str, **args: Any) -> str:
        before = self.state
        with pytest.raises(Rejected) as caught:
            step(GAME, self.state, Input(move, by, args, self.at + 1000))
        assert self.state is before
        return caught.value.code

    def my_refusal(self, move: str, **args: Any) -> str:
        return self.refused(f"player:{self.turn}", move, **args)

    def walk(self, *rooms: str) -> Table:
        for room in rooms:
            self.me("step", room=room)
        return self

    # -- reading ----------------------------------------------------------------------------------------------

    @property
    def turn(self) -> str:
        pid = GAME.current_player(self.state)
        assert pid is not None
        return pid

    @property
    def phase(self) -> str | None:
        return GAME.phase(self.state)

    def person(self, pid: str) -> dict[str, Any]:
        p: dict[str, Any] = self.state["people"][pid]
        return p

    def stamina(self, pid: str) -> int:
        return int(self.person(pid)["stamina"])

    def items(self, pid: str) -> list[str]:
        return list(self.person(pid)["items"])

    def public(self) -> dict[str, Any]:
        return GAME.view_public(self.state)

    def said(self) -> list[str]:
        return [a["msg"] for a in self.state["announcements"]]

    def prompts(self, actor: str) -> list[dict[str, Any]]:
        return [p.to_json() for p in GAME.prompts(self.state, actor)]


def play(s: Setup, rnd: Any, limit: int = 3000) -> tuple[State, list[Input]]:
    return bot.BOT.play(s, rnd, limit)
