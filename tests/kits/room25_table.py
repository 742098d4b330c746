"""A Room 25 table for rule tests: real inputs through the pure core (`fold.step`), with helpers to
lay the rooms by hand so that every expected result can be worked out from the rule text."""

from __future__ import annotations

from typing import Any

import pytest

from companion.core.contract import State
from companion.core.fold import initial, step
from companion.core.inputs import Input
from companion.core.rejection import Rejected
from companion.games.room25 import board, grid
from tests.kits.room25_bot import GAME, setup


def tile(r: int, c: int) -> int:
    return r * 5 + c


class Table:
    def __init__(self, mode: str = "cooperation", players: int = 3, seed: int = 1, **options: Any) -> None:
        self.setup = setup(mode, players, seed, **options)
        self.state: State = initial(GAME, self.setup)
        self.at = 0
        self.inputs: list[Input] = []

    # -- laying the rooms (digital games: the referee's hidden deal, set by hand) --------------------------

    def lay(self, rooms: dict[tuple[int, int], str], rest: str = "empty") -> Table:
        """Every hidden tile becomes `rest` except the cells named (by the cell each tile was dealt to)."""
        for t in range(25):
            if t != grid.START:
                self.state["tiles"][t]["kind"] = rest
        for (r, c), kind in rooms.items():
            self.state["tiles"][tile(r, c)]["kind"] = kind
        return self

    # -- inputs ---------------------------------------------------------------------------------------------

    def send(self, by: str, move: str, **args: Any) -> Table:
        self.at += 1000
        inp = Input(move, by, args, self.at)
        self.state = step(GAME, self.state, inp)
        self.inputs.append(inp)
        return self

    def refused(self, by: str, move: str, **args: Any) -> str:
        before = self.state
        with pytest.raises(Rejected) as caught:
            step(GAME, self.state, Input(move, by, args, self.at + 1000))
        assert self.state is before
        return caught.value.code

    def plan(self, *plans: tuple[str, list[str]]) -> Table:
        for pid, acts in plans:
            self.send(f"player:{pid}", "plan", actions=acts)
        return self

    def plan_all(self, acts: list[str]) -> Table:
        for pid in list(self.state["program"]["expected"]):
            self.send(f"player:{pid}", "plan", actions=acts)
        return self

    def act(self, pid: str, move: str, **args: Any) -> Table:
        return self.send(f"player:{pid}", move, **args)

    def forfeit_rest(self) -> Table:
        """Forfeit every action left this turn (until programming comes round again, or the end)."""
        while GAME.phase(self.state) == "action":
            pid = GAME.current_player(self.state)
            self.send(f"player:{pid}", "act.forfeit")
        return self

    def turn(self, acts: dict[str, list[tuple[str, dict[str, Any] | None]]] | None = None) -> Table:
        """Play one turn: each player's actions as (action, args), args None to forfeit; whoever is not
        named plans look and move and forfeits both. Stops early if a room asks for a choice."""
        acts = acts or {}
        for pid in list(self.state["program"]["expected"]):
            names = [name for name, _ in acts.get(pid, [])]
            spare = [a for a in ("look", "move", "push", "control") if a not in names]
            size = self.private(pid)["actions_this_turn"]
            self.send(f"player:{pid}", "plan", actions=[*names, *spare][:size])
        while self.phase == "action":
            pid = str(self.turn_of)
            slot = self.state["current"]["slot"]
            mine = acts.get(pid, [])
            if slot < len(mine) and mine[slot][1] is not None:
                self.send(f"player:{pid}", f"act.{mine[slot][0]}", **mine[slot][1])
            else:
                self.send(f"player:{pid}", "act.forfeit")
        return self

    def turns(self, count: int) -> Table:
        for _ in range(count):
            if self.result is not None:
                break
            self.turn()
        return self

    # -- reading ---------------------------------------------------------------------------------------------

    @property
    def phase(self) -> str | None:
        return GAME.phase(self.state)

    @property
    def turn_of(self) -> str | None:
        return GAME.current_player(self.state)

    def public(self) -> dict[str, Any]:
        return GAME.view_public(self.state)

    def private(self, pid: str) -> dict[str, Any]:
        return GAME.view_player(self.state, pid)

    def cell(self, pid: str) -> tuple[int, int] | None:
        return board.cell_of(self.state, pid)

    def status(self, pid: str) -> str:
        found: str = self.state["people"][pid]["status"]
        return found

    def said(self) -> list[str]:
        return [a["msg"] for a in self.state["announcements"]]

    @property
    def result(self) -> dict[str, Any] | None:
        return GAME.result(self.state)
