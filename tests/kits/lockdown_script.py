"""Helpers for the Lockdown tests: script lines, a runner on a real SQLite file, and a bare state for
rule tests computed by hand (positions, HP and items set directly, then one rule applied)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from companion.core.contract import Ctx, Player, Setup, State
from companion.core.eventlog import EventLog
from companion.core.fold import initial
from companion.core.referee import Referee
from companion.games import registry
from companion.games.lockdown import GAME, mapgraph
from companion.scripting import run

GAMES = registry()
SCRIPTS = Path(__file__).resolve().parents[2] / "docs" / "games" / "lockdown"


def setup_line(players: list[str], seed: int = 7, **options: Any) -> dict[str, Any]:
    opts = {"free_seconds": 0, "turn_seconds": 0, **options}
    return {"game": "lockdown", "players": [{"id": p, "name": p.title()} for p in players], "options": opts,
            "seed": seed}


def by(pid: str, move: str, **args: Any) -> dict[str, Any]:
    return {"by": f"player:{pid}", "move": f"lockdown.{move}", "args": args}


def host(move: str, **args: Any) -> dict[str, Any]:
    return {"by": "host", "move": f"lockdown.{move}", "args": args}


def prepare(pid: str, force: int, speed: int, load: int, spawn: str) -> dict[str, Any]:
    return by(pid, "prepare", force=force, speed=speed, load=load, spawn=spawn)


def play(path: Path, setup: dict[str, Any], lines: list[dict[str, Any]]) -> Referee:
    text = [json.dumps(setup), *(json.dumps(line) for line in lines)]
    return run(GAMES, EventLog(path), text)


def play_file(path: Path, script: Path) -> Referee:
    return run(GAMES, EventLog(path), script.read_text(encoding="utf-8").splitlines())


# -- bare states for rule tests ------------------------------------------------------------------------


def bare(players: list[str], genes: dict[str, tuple[int, int, int]] | None = None, rnd: int = 1) -> State:
    """A state in the action phase of round `rnd` with everyone's genes set and nobody placed."""
    state = initial(GAME, Setup("lockdown", tuple(Player(p, p) for p in players),
                                {"free_seconds": 0, "turn_seconds": 0}, 5))
    for pid in players:
        f, s, l_ = (genes or {}).get(pid, (4, 3, 3))
        state["people"][pid].update(genes={"force": f, "speed": s, "load": l_}, room="B102", spawn="B102")
    state["round"] = rnd
    state["phase"] = "action"
    state["action_order"] = list(players)
    return state


def ctx(state: State) -> Ctx:
    return Ctx(state=state, by="host", role="host", player=None, at=0)


def place(state: State, **where: str) -> None:
    for pid, room in where.items():
        state["people"][pid]["room"] = room


def hand(state: State, pid: str, *kinds: str) -> list[str]:
    """Move one card of each kind from wherever it is (a stock, the airdrops, out) to the player."""
    got = []
    for kind in kinds:
        for pile in [*state["stocks"].values(), state["out"], state["airdrops"], state["consumed"]]:
            card = next((c for c in pile if c.rsplit("-", 1)[0] == kind), None)
            if card is not None:
                pile.remove(card)
                state["people"][pid]["items"].append(card)
                got.append(card)
                break
        else:
            raise AssertionError(f"no {kind} card left")
    return got


def room(state: State, function: str) -> str:
    return mapgraph.room_of(state, function)


def said(ref_or_state: Any) -> list[str]:
    anns = ref_or_state["announcements"] if isinstance(ref_or_state, dict) else ref_or_state.state["announcements"]
    return [a["msg"] for a in anns]


def turn_of(state: State, pid: str, moved: bool = True) -> None:
    """Make it `pid`'s action turn, having moved already (or not)."""
    state["action_order"] = [pid, *[p for p in state["people"] if p != pid]]
    state["turn"] = 0
    state["turn_state"] = {"moved": moved, "path": [], "used_room": False, "drawn": [], "recycled": False,
                           "airdrop_taken": False, "peek": None}
