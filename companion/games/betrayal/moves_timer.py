"""The optional turn timer (`turn_seconds`; 0: none), kept under the public view's ``timers``.

Each turn (an explorer's or the monsters') starts it afresh, with a warning 10 seconds before the end.
When it runs out the turn is over: at once if the player is free to act, else as soon as what the game
waits for (a room or card the table reports, a haunt roll, a damage split) is done. A turn that ends
with an omen still has its haunt roll (B3.1). After a restart running timers are paused (on_resume).
The host's pause, resume and extend and the clock's warning are the shared ones (companion/parts/turn_timer).
"""

from __future__ import annotations

from companion.core.contract import Ctx
from companion.games.betrayal import flow
from companion.parts import timers
from companion.parts.turn_timer import TimerSet, TimerTick, TurnTimer

TIMER = TurnTimer("betrayal", flow.TIMER)


def timer_set(ctx: Ctx, a: TimerSet) -> None:
    """The host sets the turn time (0: no timer); a new time applies from the next turn."""
    s = ctx.state
    s["timer_seconds"] = a.seconds
    if a.seconds == 0:
        s["timer"] = None
    elif s["timer"] is None:
        s["timer"] = timers.new(a.seconds, [flow.WARNING_SECONDS])
    ctx.announce("betrayal.timer_set", seconds=a.seconds)


def timer_expire(ctx: Ctx, a: TimerTick) -> None:
    s = ctx.state
    TIMER.expire(ctx, a)
    ctx.announce("betrayal.timer_expired")
    if s["turn"] is None:  # started by hand while explorers were still being chosen: nothing to end
        return
    s["turn"]["over"] = True
    flow.settle(ctx)


TIMER_MOVES = tuple(TIMER.moves(timer_expire, start=False, set_move=timer_set))
