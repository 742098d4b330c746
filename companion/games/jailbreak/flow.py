"""The turn (J2.1): start (a flipped character flips back and skips the turn; the bible goes; cuffs),
draw 2, action, discard down to 5, end; then the next player counter-clockwise (J1.4).

The start, draw, discard and end are automatic: the referee announces them. A person is needed in the
phases ``cuffs`` (a cuffed player unlocks or stays), ``action`` (the player whose turn it is),
``response`` (the target of an attack gives a trade card or takes it) and ``baton`` (a sheriff with the
baton chooses the flip instead of the card after a knife hit).
"""

from __future__ import annotations

from typing import Any

from companion.core.contract import Ctx, State
from companion.games.jailbreak import data
from companion.parts import timers, turn_order

TIMER = "turn"


def phase(s: State) -> str | None:
    if s["finished"] is not None:
        return None
    ph: str = s["turn"]["phase"]
    return ph


def current_player(s: State) -> str | None:
    """Who must act now: the target answering an attack, else the player whose turn it is."""
    if s["finished"] is not None:
        return None
    t = s["turn"]
    if t["phase"] == "response":
        who: str = t["pending"]["target"]
        return who
    owner: str = t["player"]
    return owner


def person(s: State, pid: str) -> dict[str, Any]:
    p: dict[str, Any] = s["people"][pid]
    return p


def finish(ctx: Ctx, winner: str, reason: str, escaped: str | None = None) -> None:
    """J3: the prisoners' side when one escapes (J3.1), the sheriffs' when the deck runs dry (J3.2)."""
    s = ctx.state
    sheriffs = [p for p in s["order"] if s["roles"][p] == "sheriff"]
    prisoners = [p for p in s["order"] if s["roles"][p] == "prisoner"]
    ranking = [prisoners, sheriffs] if winner == "prisoners" else [sheriffs, prisoners]
    s["finished"] = {"winner": winner, "reason": reason, "escaped": escaped, "ranking": ranking}
    stop_timer(ctx)
    if winner == "prisoners":
        ctx.announce("jailbreak.escaped", player=escaped)
    else:
        ctx.announce("jailbreak.deck_out")


def draw(ctx: Ctx, pid: str, n: int) -> None:
    """`pid` draws `n` cards; J3.2: a draw from an empty deck ends the game for the sheriffs."""
    s = ctx.state
    got = 0
    for _ in range(n):
        if s["deck"] == 0:
            if got:
                ctx.announce("jailbreak.drew", player=pid, count=got, deck=s["deck"])
            finish(ctx, "sheriffs", "deck")
            return
        s["deck"] -= 1
        s["drawn"] += 1
        person(s, pid)["hand"] += 1
        got += 1
    ctx.announce("jailbreak.drew", player=pid, count=got, deck=s["deck"])


def fresh_turn(pid: str, number: int) -> dict[str, Any]:
    return {"player": pid, "number": number, "phase": "action", "keys": 0, "key_limit": 1, "attacks": 0,
            "attack_limit": 1, "bullet_target": None, "pending": None}


def begin(ctx: Ctx, pid: str) -> None:
    """Start `pid`'s turn, skipping flipped characters (J2.1), until someone must act or the game ends."""
    s = ctx.state
    while s["finished"] is None:
        p = person(s, pid)
        s["turn"] = fresh_turn(pid, s["turn"]["number"] + 1)
        if p["bible"]:  # J2.6: the bible goes to the discard pile at the start of its owner's next turn
            p["bible"] = False
            ctx.announce("jailbreak.bible_discarded", player=pid)
        if p["flipped"]:  # J2.1: flips back and skips the whole turn
            p["flipped"] = False
            ctx.announce("jailbreak.turn_skipped", player=pid)
            pid = next_player(s, pid)
            continue
        ctx.announce("jailbreak.turn_started", player=pid)
        restart_timer(ctx)
        if p["cuffed_by"] is not None:  # J2.1: unlock the cuffs or skip the action phase
            s["turn"]["phase"] = "cuffs"
            ctx.announce("jailbreak.cuffed_at_start", player=pid)
            return
        after_start(ctx)
        return


def after_start(ctx: Ctx, skip_action: bool = False) -> None:
    """The draw phase, then the action phase (or straight to the discard when cuffed, J2.1)."""
    s = ctx.state
    pid = s["turn"]["player"]
    draw(ctx, pid, data.DRAW)
    if s["finished"] is not None:
        return
    if skip_action:
        ctx.announce("jailbreak.action_skipped", player=pid)
        end(ctx)
        return
    s["turn"]["phase"] = "action"


def end(ctx: Ctx) -> None:
    """The discard phase (down to 5, J2.1), the end of the turn, and the next player's turn."""
    s = ctx.state
    pid = s["turn"]["player"]
    p = person(s, pid)
    if p["hand"] > data.HAND_LIMIT:
        ctx.announce("jailbreak.discarded", player=pid, count=p["hand"] - data.HAND_LIMIT)
        p["hand"] = data.HAND_LIMIT
    begin(ctx, next_player(s, pid))


def next_player(s: State, pid: str) -> str:
    """J1.4: counter-clockwise, i.e. the previous seat in the (clockwise) seating order."""
    nxt = turn_order.next_player(s["order"], pid, reverse=True)
    assert nxt is not None
    return nxt


def restart_timer(ctx: Ctx) -> None:
    t = ctx.state["timer"]
    if t is not None:
        t["duration"] = ctx.state["timer_seconds"] * 1000
        timers.start(t, ctx.at)


def stop_timer(ctx: Ctx) -> None:
    t = ctx.state["timer"]
    if t is not None and t["running"]:
        timers.pause(t, ctx.at)
