"""The inputs Room 25 accepts: secret programming, each action's details, room choices, the table's
reports (physical tiles) and the programming timer."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints

from companion.core.contract import Args, Ctx, Move, NoArgs, State
from companion.core.rejection import Rejected
from companion.games.room25 import actions, board, flow, grid, outcome, rooms, slides
from companion.games.room25.data import EXIT, bundled
from companion.parts.turn_timer import TimerTick, TurnTimer

Action = Literal["look", "move", "push", "control"]
Direction = Annotated[str, StringConstraints(min_length=1, max_length=8)]
SlideName = Annotated[str, StringConstraints(min_length=1, max_length=16)]
PLAYER = frozenset({"player"})
TABLE = frozenset({"host", "table"})
HOST = frozenset({"host"})
CLOCK = frozenset({"clock"})


class Plan(Args):
    actions: list[Action] = Field(min_length=1, max_length=2)


class Towards(Args):
    direction: Direction


class PushArgs(Args):
    target: Annotated[str, StringConstraints(min_length=1, max_length=32)]
    direction: Direction


class SlideArgs(Args):
    slide: SlideName


class PickArgs(Args):
    tile: int = Field(ge=0, le=24)


class RevealArgs(Args):
    kind: Annotated[str, StringConstraints(min_length=1, max_length=16)]


# -- programming (R2.1) -------------------------------------------------------------------------------------


def plan(ctx: Ctx, a: Plan) -> None:
    s = ctx.state
    pid = ctx.player
    assert pid is not None
    if board.person(s, pid)["status"] != board.ALIVE:
        raise Rejected("reject.program_not_expected")
    wanted = flow.slots(s, pid)
    if len(a.actions) != wanted:
        raise Rejected("reject.room25_plan_size", count=wanted)
    if len(set(a.actions)) != len(a.actions):
        raise Rejected("reject.room25_plan_twice")
    flow.commit(ctx, pid, list(a.actions))
    ctx.announce("room25.planned", player=pid)
    flow.run(ctx)


# -- the current action (R2.3-R2.6) -----------------------------------------------------------------------


def _acting(ctx: Ctx, action: str) -> str:
    current = ctx.state["current"]
    assert current is not None and ctx.player is not None  # the referee checked phase and turn
    if current["action"] != action:
        raise Rejected("reject.room25_other_action", action=f"kind.room25.action.{current['action']}")
    current["done"] = True
    return ctx.player


def act_look(ctx: Ctx, a: Towards) -> None:
    actions.look(ctx, _acting(ctx, "look"), a.direction)
    flow.run(ctx)


def act_move(ctx: Ctx, a: Towards) -> None:
    actions.move(ctx, _acting(ctx, "move"), a.direction)
    flow.run(ctx)


def act_push(ctx: Ctx, a: PushArgs) -> None:
    actions.push(ctx, _acting(ctx, "push"), a.target, a.direction)
    flow.run(ctx)


def act_control(ctx: Ctx, a: SlideArgs) -> None:
    actions.control(ctx, _acting(ctx, "control"), a.slide)
    flow.run(ctx)


def act_forfeit(ctx: Ctx, a: NoArgs) -> None:
    """R2.1: an action may be forfeited when its time comes."""
    current = ctx.state["current"]
    current["done"] = True
    ctx.announce("room25.action_forfeited", player=ctx.player, action=f"kind.room25.action.{current['action']}")
    flow.run(ctx)


# -- room choices (R3.1, R3.3) -------------------------------------------------------------------------------


def _choice(ctx: Ctx) -> dict[str, Any]:
    head: dict[str, Any] = ctx.state["pending"][0]
    return head


def room_pick(ctx: Ctx, a: PickArgs) -> None:
    s = ctx.state
    head = _choice(ctx)
    kind, pid = head["room"], head["player"]
    if kind == "control":
        raise Rejected("reject.room25_choose_slide")
    if a.tile not in rooms.choices(s, kind, pid):
        raise Rejected("reject.room25_bad_pick", room=f"kind.room25.room.{kind}")
    s["pending"].pop(0)
    if kind == "camera":
        rooms.peek(ctx, pid, a.tile)
    elif kind == "smoke":
        rooms.smoke_to(ctx, pid, a.tile)
    else:
        ctx.announce("room25.passage", player=pid, **(board.place(s, a.tile) or {}))
        rooms.arrive(ctx, pid, a.tile, "teleport")
    flow.run(ctx)


def room_slide(ctx: Ctx, a: SlideArgs) -> None:
    s = ctx.state
    head = _choice(ctx)
    if head["room"] != "control":
        raise Rejected("reject.room25_bad_pick", room=f"kind.room25.room.{head['room']}")
    slides.check(s, head["player"], a.slide)
    s["pending"].pop(0)
    slides.slide(ctx, head["player"], a.slide)
    flow.run(ctx)


def room_skip(ctx: Ctx, a: NoArgs) -> None:
    head = _choice(ctx)
    if head["room"] not in rooms.OPTIONAL:  # R3.3: the smoke must be left
        raise Rejected("reject.room25_must_choose")
    ctx.state["pending"].pop(0)
    flow.run(ctx)


# -- the table's reports (physical tiles) -----------------------------------------------------------------


def possible_kinds(s: State, tile: int) -> list[str]:
    """Which rooms a closed physical tile can still be: the mode's rooms not all turned up yet, and the
    exit only where it was shuffled in (R1.1: the twelve outer cells)."""
    counts = dict(bundled().modes[s["mode"]].tiles)
    counts[EXIT] = 1 if grid.group(tile) == "outer" else 0
    for t in s["tiles"]:
        if t["kind"] in counts:
            counts[t["kind"]] -= 1
    return [k for k, n in counts.items() if n > 0]


def room_reveal(ctx: Ctx, a: RevealArgs) -> None:
    s = ctx.state
    head = s["pending"][0]
    if a.kind not in (*bundled().kinds, EXIT):
        raise Rejected("reject.room25_unknown_room", kind=a.kind)
    if a.kind not in possible_kinds(s, head["tile"]):
        raise Rejected("reject.room25_not_that_room", room=f"kind.room25.room.{a.kind}")
    s["pending"].pop(0)
    rooms.turn_up(ctx, head["tile"], a.kind)
    rooms.effect(ctx, head["player"], head["tile"], head["how"])
    flow.run(ctx)


def exit_locate(ctx: Ctx, a: PickArgs) -> None:
    s = ctx.state
    if a.tile not in board.closed(s) or EXIT not in possible_kinds(s, a.tile):
        raise Rejected("reject.room25_not_exit_here")
    s["tiles"][a.tile]["kind"] = EXIT
    s["locating"] = False
    ctx.announce("room25.exit_located", **(board.place(s, a.tile) or {}))
    outcome.time_out(ctx)


# -- the programming timer --------------------------------------------------------------------------------


TIMER = TurnTimer("room25", flow.TIMER)


def timer_expire(ctx: Ctx, a: TimerTick) -> None:
    """Time is up: whoever has not programmed does nothing this turn (docs/games/room25.md)."""
    s = ctx.state
    TIMER.expire(ctx, a)
    late = [p for p in s["program"]["expected"] if p not in s["program"]["committed"]]
    for pid in late:
        flow.commit(ctx, pid, [])
    ctx.announce("room25.timer_expired", players=late)
    flow.run(ctx)


PROGRAMMING = frozenset({"programming"})
ACTING = frozenset({"action"})
CHOOSING = frozenset({"effect"})

MOVES: dict[str, Move] = {
    m.name: m
    for m in (
        Move("plan", plan, Plan, PLAYER, secret=True, phases=PROGRAMMING),
        # What players do during a turn is announced to everyone as it happens, but it is marked secret so
        # the host cannot amend it: whether the later inputs still fit an amended move would depend on
        # the rooms under closed tiles (an amended step into a closed smoke room leaves the next player's
        # input out of phase), and the refusal would tell the host what a closed room is. Undo instead.
        Move("act.look", act_look, Towards, PLAYER, secret=True, phases=ACTING, on_turn=True),
        Move("act.move", act_move, Towards, PLAYER, secret=True, phases=ACTING, on_turn=True),
        Move("act.push", act_push, PushArgs, PLAYER, secret=True, phases=ACTING, on_turn=True),
        Move("act.control", act_control, SlideArgs, PLAYER, secret=True, phases=ACTING, on_turn=True),
        Move("act.forfeit", act_forfeit, NoArgs, PLAYER, secret=True, phases=ACTING, on_turn=True),
        Move("room.pick", room_pick, PickArgs, PLAYER, secret=True, phases=CHOOSING, on_turn=True),
        Move("room.slide", room_slide, SlideArgs, PLAYER, secret=True, phases=CHOOSING, on_turn=True),
        Move("room.skip", room_skip, NoArgs, PLAYER, secret=True, phases=CHOOSING, on_turn=True),
        Move("room.reveal", room_reveal, RevealArgs, TABLE, phases=frozenset({"reveal"})),
        Move("exit.locate", exit_locate, PickArgs, TABLE, phases=frozenset({"locate_exit"})),
        *TIMER.moves(timer_expire, start_phases=PROGRAMMING, expire_phases=PROGRAMMING),
    )
}
