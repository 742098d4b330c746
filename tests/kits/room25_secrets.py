"""Counterfactual secrecy checks for Room 25: change every secret the rules have not revealed yet (the
rooms under closed tiles, unrevealed role cards, programmed actions not yet played) and require the
public view and the host's view to stay exactly the same."""

from __future__ import annotations

from typing import Any

from companion.core.contract import Game, State
from companion.core.fold import copy_state
from companion.games.room25 import board, grid
from tests.kits.room25_bot import GAME

OTHER = {"look": "move", "move": "push", "push": "control", "control": "look"}


def scramble(state: State) -> State:
    s = copy_state(state)
    closed = [t for t in range(25) if not s["tiles"][t]["open"] and s["tiles"][t]["kind"] is not None]
    kinds = [s["tiles"][t]["kind"] for t in closed]
    for t, kind in zip(closed, [*kinds[1:], *kinds[:1]], strict=True):
        s["tiles"][t]["kind"] = kind
    if s["deal"] is not None:
        for pid in s["deal"]["assigned"]:
            if pid not in s["deal"]["revealed"]:
                s["deal"]["assigned"][pid] = "prisoner" if s["deal"]["assigned"][pid] == "guard" else "guard"
    played = {(pid, i) for pid, i, _ in s["program"]["revealed"]}
    for pid, actions in s["program"]["committed"].items():
        s["program"]["committed"][pid] = [
            a if a is None or (pid, i) in played else OTHER[a] for i, a in enumerate(actions)
        ]
    return s


def secrets_in(state: State) -> int:
    """How many secrets `scramble` changed (so a check over a state without any cannot pass vacuously)."""
    closed = sum(1 for t in state["tiles"] if not t["open"] and t["kind"] is not None)
    hidden_roles = 0 if state["deal"] is None else len(set(state["deal"]["assigned"]) - set(state["deal"]["revealed"]))
    played = {(pid, i) for pid, i, _ in state["program"]["revealed"]}
    unplayed = sum(
        1 for pid, acts in state["program"]["committed"].items() for i, a in enumerate(acts)
        if a is not None and (pid, i) not in played
    )
    return closed + hidden_roles + unplayed


def assert_nothing_leaks(state: State, game: Game = GAME) -> None:
    """The public and host views, and the host's prompts, do not depend on any unrevealed secret."""
    if state.get("ended"):
        return
    other = scramble(state)
    assert game.view_public(state) == game.view_public(other)
    assert game.view_host(state) == game.view_host(other)
    assert [p.to_json() for p in game.prompts(state, "host")] == [p.to_json() for p in game.prompts(other, "host")]
    assert game.phase(state) == game.phase(other) and game.current_player(state) == game.current_player(other)


def assert_invariants(state: State) -> None:
    """The grid holds each of the 25 tiles once (the exit counted once it left); the public view shows a
    room only once it is face up, and a role only once the rules reveal it."""
    on = board.on_grid(state)
    gone = [t for t in range(25) if state["tiles"][t]["kind"] == "exit" and state["exit_left"]]
    assert sorted(on + gone) == list(range(25))
    assert len(gone) == (1 if state["exit_left"] else 0)
    assert grid.where(state["grid"], grid.START) == grid.START_CELL
    public: dict[str, Any] = GAME.view_public(state)
    for pid, p in state["people"].items():
        assert (p["tile"] is not None) == (p["status"] == "alive"), pid
        if p["tile"] is not None:
            assert p["tile"] in on
    if state.get("ended"):
        return
    for room in public["rooms"]:
        assert (room["room"] is not None) == state["tiles"][room["tile"]]["open"]
    if state["deal"] is not None:
        assert set(public["roles"]["revealed"]) <= set(state["deaths"])
        assert all(state["deal"]["assigned"][p] == r for p, r in public["roles"]["revealed"].items())
    for pid, i, action in public["program"]["revealed"]:
        assert state["program"]["committed"][pid][i] == action
