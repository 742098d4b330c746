"""Betrayal test helpers: a table with chosen explorers, inputs that must pass or must be refused, and
the shortest legal way to the haunt (explore a room that shows an omen, draw it, end the turn, roll)."""

from __future__ import annotations

from typing import Any

from companion.core.contract import Player, Setup, State
from companion.core.fold import initial, step
from companion.core.inputs import Input
from companion.core.rejection import Rejected
from companion.games import registry

GAME = registry()["betrayal"]
NAMES = ["ana", "ben", "chai", "dao", "eli", "fon"]


def setup(characters: list[str], seed: int = 7, **options: Any) -> Setup:
    players = tuple(Player(p, p.title()) for p in NAMES[:len(characters)])
    chosen = dict(zip(NAMES, characters, strict=False))
    return Setup("betrayal", players, {"explorers": chosen, **options}, seed)


class Table:
    """A game driven input by input, as the referee would, with the table clock moving on."""

    def __init__(self, characters: list[str], seed: int = 7, **options: Any) -> None:
        self.setup = setup(characters, seed, **options)
        self.state: State = initial(GAME, self.setup)
        self.inputs: list[Input] = []
        self.at = 1000

    def do(self, by: str, move: str, **args: Any) -> Table:
        self.at += 1000
        inp = Input(move, by if by in ("host", "table", "clock") else f"player:{by}", args, self.at)
        self.state = step(GAME, self.state, inp)
        self.inputs.append(inp)
        return self

    def refused(self, by: str, move: str, **args: Any) -> str:
        """The reason an input is refused; the state must not change."""
        before = self.state
        try:
            self.do(by, move, **args)
        except Rejected as err:
            assert self.state is before
            return err.code
        raise AssertionError(f"{move} {args} was accepted")

    @property
    def turn(self) -> str:
        actor: str = self.state["turn"]["actor"]
        return actor

    def said(self) -> list[tuple[str, dict[str, Any]]]:
        return [(a["msg"], a["params"]) for a in self.state["announcements"]]

    def player(self, character: str) -> str:
        return next(p for p, e in self.state["explorers"].items() if e["character"] == character)

    def value(self, pid: str, trait: str) -> int:
        return int(GAME.view_public(self.state)["explorers"][pid]["traits"][trait]["value"])

    def explore(self, room: str, by: str | None = None) -> Table:
        who = by or self.turn
        return self.do(who, "explore").do("table", "room.reveal", room=room)

    def omen(self, omen: str, room: str, dice: list[int]) -> Table:
        """The current explorer explores `room` (one step from where they stand), draws `omen`, ends the
        turn and rolls `dice` for the haunt."""
        who = self.turn
        self.explore(room).do("table", "card.reveal", card=omen).do(who, "turn.end")
        return self.do(who, "haunt.roll", dice=dice)


FLOOR_OF = {"conservatory": "ground", "chapel": "ground", "attic": "upper", "gallery": "upper",
            "vault": "basement", "crypt": "basement"}
STAIR = {"ground": None, "upper": "upper_stair", "basement": "cellar_steps"}


def haunt_in(t: Table, omen: str, room: str) -> Table:
    """The current explorer goes to `room`'s floor, finds it, draws `omen`, and the haunt starts (six
    blank dice: a total of 0 is lower than one omen, B3.1)."""
    stair = STAIR[FLOOR_OF[room]]
    if stair is not None:
        t.do(t.turn, "move", to=stair)
    return t.omen(omen, room, [0] * 6)
