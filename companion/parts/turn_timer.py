"""The one host-run timer of a turn-based game: Room 25's programming timer, a turn timer.

The game keeps it at ``state["timer"]`` (None: no timer) with its length at ``state["timer_seconds"]``,
and shows it under the public view's ``timers`` by `name`. The host sets, starts, pauses, resumes and
extends it; the clock warns and expires it. Announcements and refusals use the game's own ids
(``<game>.timer_started``, ``reject.<game>_no_timer``); what expiry means is the game's, so `moves`
takes the game's expire move.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from pydantic import Field

from companion.core.contract import Args, Ctx, Deadline, Move, NoArgs, State
from companion.core.rejection import Rejected
from companion.parts import timers

HOST = frozenset({"host"})
CLOCK = frozenset({"clock"})
WARN_AT_SECONDS = 10


class TimerSet(Args):
    seconds: int = Field(ge=0, le=3600)


class TimerExtend(Args):
    seconds: int = Field(ge=1, le=3600)


class TimerTick(Args):
    name: str = Field(max_length=40)
    at_seconds: int | None = None


def _no_params(state: State) -> dict[str, Any]:
    return {}


@dataclass(frozen=True)
class TurnTimer:
    game: str
    name: str
    warn_params: Callable[[State], Mapping[str, Any]] = field(default=_no_params)

    def deadlines(self, state: State) -> list[Deadline]:
        """The clock inputs the timer is waiting for (its warning and its end), if it runs."""
        t = state["timer"]
        return [] if t is None else timers.deadlines(self.name, t, "timer.warn", "timer.expire")

    def on_resume(self, state: State) -> list[tuple[str, dict[str, Any]]]:
        """After a restart a running timer is paused until the host resumes it."""
        t = state["timer"]
        return [("timer.pause", {})] if t is not None and t["running"] else []

    def of(self, ctx: Ctx) -> dict[str, Any]:
        t: dict[str, Any] | None = ctx.state["timer"]
        if t is None:
            raise Rejected(f"reject.{self.game}_no_timer")
        return t

    def tick(self, ctx: Ctx, a: TimerTick) -> dict[str, Any]:
        """The timer a clock input names (the deadline names it; a script could name another)."""
        if a.name != self.name:
            raise Rejected("reject.bad_argument", field="name", problem=f"expected {self.name!r}")
        return self.of(ctx)

    def set(self, ctx: Ctx, a: TimerSet) -> None:
        """The host sets the time (0: no timer); a running timer keeps its time until the next start."""
        s = ctx.state
        s["timer_seconds"] = a.seconds
        if a.seconds == 0:
            s["timer"] = None
        elif s["timer"] is None:
            s["timer"] = timers.new(a.seconds, [WARN_AT_SECONDS])
        elif not s["timer"]["running"]:
            s["timer"].update(duration=a.seconds * 1000, remaining=a.seconds * 1000, expired=False)
        ctx.announce(f"{self.game}.timer_set", seconds=a.seconds)

    def start(self, ctx: Ctx, a: NoArgs) -> None:
        t = self.of(ctx)
        if t["running"]:
            raise Rejected("reject.timer_running")
        timers.start(t, ctx.at)
        ctx.announce(f"{self.game}.timer_started", seconds=int(t["duration"]) // 1000)

    def pause(self, ctx: Ctx, a: NoArgs) -> None:
        timers.pause(self.of(ctx), ctx.at)
        ctx.announce(f"{self.game}.timer_paused")

    def resume(self, ctx: Ctx, a: NoArgs) -> None:
        timers.resume(self.of(ctx), ctx.at)
        ctx.announce(f"{self.game}.timer_resumed")

    def extend(self, ctx: Ctx, a: TimerExtend) -> None:
        timers.extend(self.of(ctx), a.seconds, ctx.at)
        ctx.announce(f"{self.game}.timer_extended", seconds=a.seconds)

    def warn(self, ctx: Ctx, a: TimerTick) -> None:
        t = self.tick(ctx, a)
        if a.at_seconds is None:
            raise Rejected("reject.timer_not_due")
        timers.warn(t, a.at_seconds, ctx.at)
        ctx.announce(f"{self.game}.timer_warning", seconds=a.at_seconds, **self.warn_params(ctx.state))

    def expire(self, ctx: Ctx, a: TimerTick) -> None:
        """Mark the timer expired; the game's own expire move then does what time-up means."""
        timers.expire(self.tick(ctx, a), ctx.at)

    def moves(self, expire: Callable[[Ctx, TimerTick], None], *, start: bool = True,
              start_phases: frozenset[str] = frozenset(), expire_phases: frozenset[str] = frozenset(),
              set_move: Callable[[Ctx, TimerSet], None] | None = None) -> list[Move]:
        out = [Move("timer.set", set_move or self.set, TimerSet, HOST)]
        if start:
            out.append(Move("timer.start", self.start, NoArgs, HOST, phases=start_phases))
        return [
            *out,
            Move("timer.pause", self.pause, NoArgs, HOST),
            Move("timer.resume", self.resume, NoArgs, HOST),
            Move("timer.extend", self.extend, TimerExtend, HOST),
            Move("timer.warn", self.warn, TimerTick, CLOCK),
            Move("timer.expire", expire, TimerTick, CLOCK, phases=expire_phases),
        ]
