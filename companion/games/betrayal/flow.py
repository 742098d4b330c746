"""Whose turn it is and what the game waits for.

Phases: ``choosing`` (players pick their explorers), ``turn`` (an explorer's turn: move, explore, roll,
attack, trade, in any order), ``room`` (the table says which room tile was laid), ``card`` (the table
says which card the new room showed), ``haunt_roll`` (the player who drew an omen rolls six dice at the
end of the turn), ``damage`` (the loser of an attack splits the damage), ``steal`` (the winner of an
attack by 2 or more may steal instead) and ``monsters`` (the monsters' turn, played by the traitor).

Before the haunt turns go left from the birthday explorer (B1.2); after it, heroes from the traitor's
left, then the traitor, then the monsters (B3.3).
"""

from __future__ import annotations

from typing import Any

from companion.core.contract import Ctx, State
from companion.games.betrayal import explorers, monsters, outcome, seating
from companion.parts import timers

MONSTERS = "@monsters"
TIMER = "turn"
WARNING_SECONDS = 10


def phase(s: State) -> str | None:
    if s["finished"] is not None:
        return None
    if s["turn"] is None:
        return "choosing"
    if s["pending"] is not None:
        kind: str = s["pending"]["kind"]
        return kind
    return "monsters" if s["turn"]["actor"] == MONSTERS else "turn"


def controller(s: State) -> str | None:
    """Who plays the monsters: the traitor, or the host when there is none (B3.2)."""
    h = s["haunt"]
    return None if h is None else h["traitor"]


def current_player(s: State) -> str | None:
    ph = phase(s)
    if ph in (None, "choosing"):
        return None
    if ph in ("damage", "steal"):
        who: str = s["pending"]["player"]
        return who
    actor: str = s["turn"]["actor"]
    return controller(s) if actor == MONSTERS else actor


def new_turn(actor: str, number: int) -> dict[str, Any]:
    return {"actor": actor, "number": number, "spent": 0, "entered": 0, "stopped": False, "omen": False,
            "voluntary": [], "attacked": False, "gave": False, "used": [], "over": False}


def cycle(s: State) -> list[str]:
    """B3.3: the haunt's order: heroes from the traitor's left (the revealer's when there is no
    traitor), then the traitor, then the monsters."""
    h = s["haunt"]
    head = h["traitor"] or h["revealer"]
    ring = [*seating.from_left(s["seats"], head, include_self=False), head]
    heroes = [p for p in ring if p != h["traitor"]]
    out = heroes + ([h["traitor"]] if h["traitor"] else [])
    return out + ([MONSTERS] if h["monsters"] else [])


def begin(ctx: Ctx, actor: str, start_timer: bool = True) -> None:
    s = ctx.state
    s["turn"] = new_turn(actor, 1 if s["turn"] is None else s["turn"]["number"] + 1)
    if actor == MONSTERS:
        monsters.start_turn(ctx)
    else:
        ctx.announce("betrayal.turn", player=actor)
    t = s["timer"]
    if t is not None:
        t["duration"] = s["timer_seconds"] * 1000
        if start_timer:
            timers.start(t, ctx.at)
        else:  # the game was set up before anyone sat down: the host starts the first turn's timer
            t.update(running=False, deadline=None, remaining=t["duration"], expired=False)


def next_actor(s: State, after: str) -> str | None:
    alive = set(explorers.living(s))
    if s["haunt"] is None:
        return seating.left_of(s["seats"], after, skip=set(s["seats"]) - alive) or (after if after in alive else None)
    order = cycle(s)
    ring = order[order.index(after) + 1:] + order[:order.index(after) + 1]
    return next((a for a in ring if a == MONSTERS or a in alive), None)


def advance(ctx: Ctx) -> None:
    """The next turn (B1.2 before the haunt, B3.3 after it); with nobody left alive the game ends."""
    s = ctx.state
    nxt = next_actor(s, s["turn"]["actor"])
    if nxt is None or not explorers.living(s):
        outcome.finish(ctx, "none")
        return
    begin(ctx, nxt)


def end_turn(ctx: Ctx) -> None:
    """B3.1: a turn in which an omen was drawn before the haunt ends with the haunt roll."""
    s = ctx.state
    t = s["timer"]
    if t is not None and t["running"]:
        timers.pause(t, ctx.at)
    if s["turn"]["omen"] and s["haunt"] is None and s["turn"]["actor"] in explorers.living(s):
        s["pending"] = {"kind": "haunt_roll", "player": s["turn"]["actor"]}
        return
    if s["turn"]["actor"] == MONSTERS:
        monsters.end_turn(ctx)
    advance(ctx)


def settle(ctx: Ctx) -> None:
    """After any move: a turn whose time ran out, or whose explorer died, ends once nothing waits; with
    no explorer left alive the game ends."""
    s = ctx.state
    if s["finished"] is not None or s["turn"] is None:
        return
    if not explorers.living(s):  # the last explorer died (even in the monsters' turn): both sides lose
        outcome.finish(ctx, "none")
        return
    if s["pending"] is not None:
        return
    actor = s["turn"]["actor"]
    if s["turn"]["over"] or (actor != MONSTERS and not explorers.get(s, actor)["alive"]):
        s["turn"]["over"] = False
        end_turn(ctx)
