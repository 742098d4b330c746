"""The optional turn timer (`turn_seconds`; 0: none), kept under the public view's ``timers``.

Each turn (an explorer's or the monsters') starts it afresh, with a warning 10 seconds before the end.
When it runs out the turn is over: at once if the player is free to act, else as soon as what the game
waits for (a room or card the table reports, a haunt roll, a damage split) is done. A turn that ends
with an omen still has its haunt roll (B3.1). After a restart running timers are paused (on_resume).
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from companion.core.contract import Args, Ctx, Move, NoArgs
from companion.core.rejection import Rejected
from companion.games.betrayal import flow
from companion.parts import timers

HOST = frozenset({"host"})
CLOCK = frozenset({"clock"})


class TimerSet(Args):
    seconds: int = Field(ge=0, le=3600)


class TimerExtend(Args):
    seconds: int = Field(ge=1, le=3600)


class TimerTick(Args):
    name: Literal["turn"]
    at_seconds: int | None = None


def timer_set(ctx: Ctx, a: TimerSet) -> None:
    """The host sets the turn time (0: no timer); a new time applies from the next turn."""
    s = ctx.state
    s["timer_seconds"] = a.seconds
    if a.seconds == 0:
        s["timer"] = None
    elif s["timer"] is None:
        s["timer"] = timers.new(a.seconds, [flow.WARNING_SECONDS])
    ctx.announce("betrayal.timer_set", seconds=a.seconds)


def _timer(ctx: Ctx) -> dict[str, Any]:
    t: dict[str, Any] | None = ctx.state["timer"]
    if t is None:
        raise Rejected("reject.betrayal_no_timer")
    return t


def timer_pause(ctx: Ctx, a: NoArgs) -> None:
    timers.pause(_timer(ctx), ctx.at)
    ctx.announce("betrayal.timer_paused")


def timer_resume(ctx: Ctx, a: NoArgs) -> None:
    timers.resume(_timer(ctx), ctx.at)
    ctx.announce("betrayal.timer_resumed")


def timer_extend(ctx: Ctx, a: TimerExtend) -> None:
    timers.extend(_timer(ctx), a.seconds, ctx.at)
    ctx.announce("betrayal.timer_extended", seconds=a.seconds)


def timer_warn(ctx: Ctx, a: TimerTick) -> None:
    if a.at_seconds is None:
        raise Rejected("reject.timer_not_due")
    timers.warn(_timer(ctx), a.at_seconds, ctx.at)
    ctx.announce("betrayal.timer_warning", seconds=a.at_seconds)


def timer_expire(ctx: Ctx, a: TimerTick) -> None:
    s = ctx.state
    timers.expire(_timer(ctx), ctx.at)
    ctx.announce("betrayal.timer_expired")
    if s["turn"] is None:  # started by hand while explorers were still being chosen: nothing to end
        return
    s["turn"]["over"] = True
    flow.settle(ctx)


TIMER_MOVES = (
    Move("timer.set", timer_set, TimerSet, HOST),
    Move("timer.pause", timer_pause, NoArgs, HOST),
    Move("timer.resume", timer_resume, NoArgs, HOST),
    Move("timer.extend", timer_extend, TimerExtend, HOST),
    Move("timer.warn", timer_warn, TimerTick, CLOCK),
    Move("timer.expire", timer_expire, TimerTick, CLOCK),
)
