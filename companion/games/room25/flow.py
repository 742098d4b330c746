"""The turn (R2.1, R2.2): secret programming, then all first actions in turn order, then all second
actions, then the first player goes last. `run` drives the game forward until someone must act.

Phases: ``programming`` (everyone alive chooses in secret), ``action`` (the current player gives the
details of their revealed action: a direction, a target, a slide), ``effect`` (a player chooses what a
room lets them do), ``reveal`` (physical tiles: the table says which room was turned up) and
``locate_exit`` (physical tiles, end of a competition or team game: the table says where the exit is).
"""

from __future__ import annotations

from companion.core.contract import Ctx, State
from companion.games.room25 import actions, board, outcome, rooms
from companion.parts import programming, timers, turn_order

TIMER = "programming"


def phase(s: State) -> str | None:
    if s["finished"] is not None:
        return None
    if s["locating"]:
        return "locate_exit"
    if s["pending"] and s["pending"][0]["kind"] == "reveal":
        return "reveal"
    if s["pending"] and s["pending"][0]["kind"] == "choice":
        return "effect"
    if s["current"] is not None and not s["current"]["done"]:
        return "action"
    return "programming"


def current_player(s: State) -> str | None:
    ph = phase(s)
    if ph == "effect":
        who: str = s["pending"][0]["player"]
        return who
    if ph == "action":
        actor: str = s["current"]["player"]
        return actor
    return None


def slots(s: State, pid: str) -> int:
    """R2.1: two actions, one in the turn after entering the cold room (R3.2)."""
    return 1 if board.person(s, pid)["one_action_turn"] == s["turn"] else 2


def start_programming(ctx: Ctx) -> None:
    s = ctx.state
    s["program"] = programming.new(board.living(s), 2)
    s["current"] = None
    t = s["timer"]
    if t is not None and s["turn"] > 1:  # turn 1's timer waits for the host to start it
        t["duration"] = s["timer_seconds"] * 1000
        timers.start(t, ctx.at)


def commit(ctx: Ctx, pid: str, chosen: list[str | None]) -> None:
    """Keep a plan (padded to the two slots the programming part holds; None is no action)."""
    s = ctx.state
    programming.commit(s["program"], pid, [*chosen, *([None] * (2 - len(chosen)))])


def stop_timer(ctx: Ctx) -> None:
    t = ctx.state["timer"]
    if t is not None and t["running"]:
        timers.pause(t, ctx.at)


def run(ctx: Ctx) -> None:
    """Resolve everything automatic, stopping where a person (or the table) must say something."""
    s = ctx.state
    while s["finished"] is None and not s["locating"]:
        if s["pending"]:
            head = s["pending"][0]
            if head["kind"] in rooms.WAITING:
                return
            s["pending"].pop(0)
            rooms.process(ctx, head)
            continue
        current = s["current"]
        if current is not None:
            if not current["done"]:
                return
            end_action(ctx, current["player"])
            continue
        if not programming.complete(s["program"]):
            return
        if not s["program"]["revealed"]:
            stop_timer(ctx)
        nxt = programming.reveal_next(s["program"], s["order"])
        if nxt is None:
            end_turn(ctx)
            continue
        pid, slot, action = nxt
        if action is None or board.person(s, pid)["status"] != board.ALIVE:
            continue
        ctx.announce("room25.action_revealed", player=pid, action=f"kind.room25.action.{action}", slot=slot + 1)
        s["current"] = {"player": pid, "slot": slot, "action": action, "done": False}
        if not actions.possible(s, pid, action):  # nothing it could do: forfeited (R2.1)
            ctx.announce("room25.action_impossible", player=pid, action=f"kind.room25.action.{action}")
            s["current"]["done"] = True


def end_action(ctx: Ctx, pid: str) -> None:
    """After `pid`'s action and all it caused: the trap claims who did not get out (R3.3)."""
    s = ctx.state
    s["current"] = None
    p = board.person(s, pid)
    trap = p["trap"]
    if trap is None or p["status"] != board.ALIVE:
        return
    if trap["wait"]:  # the action that led them in does not count
        trap["wait"] = False
        return
    p["trap"] = None
    if p["tile"] == trap["tile"]:
        outcome.kill(ctx, pid)


def end_turn(ctx: Ctx) -> None:
    """Flooded rooms claim who stayed (R3.3); then the turn track moves, or the game ends (R2.2)."""
    s = ctx.state
    for pid in board.living(s):
        p = board.person(s, pid)
        flood = p["flood"]
        if flood is None:
            continue
        if p["tile"] != flood["tile"]:
            p["flood"] = None
        elif s["turn"] >= flood["turn"] + 1:
            outcome.kill(ctx, pid)
    if s["finished"] is not None:
        return
    if s["turn"] >= s["last_turn"]:
        if s["physical"] and outcome.needs_exit_located(s):
            s["locating"] = True
            ctx.announce("room25.locate_exit")
            return
        outcome.time_out(ctx)
        return
    s["turn"] += 1
    s["order"] = turn_order.move_first_to_end(s["order"])
    ctx.announce("room25.turn_started", turn=s["turn"], last=s["last_turn"])
    start_programming(ctx)
