"""The host-run timers of the turn-based games: Room 25's programming timer, a turn timer, and
Lockdown's free-phase and action-turn timers.

A game with one timer keeps it at ``state["timer"]`` (None: no timer) with its length at
``state["timer_seconds"]``, and shows it under the public view's ``timers`` by `name`. The host sets,
starts, pauses, resumes and extends it; the clock warns and expires it. A game with a timer per phase
(`PhaseTimers`) keeps them at ``state["timers"]`` by name (absent: that phase is untimed); its flow
restarts and resets them, the host pauses, resumes and extends one by naming it. Announcements and
refusals use the game's own ids (``<game>.timer_started``, ``reject.<game>_no_timer``); what expiry means
is the game's, so `moves` takes the game's expire move.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from pydantic import Field

from companion.core.contract import Args, Ctx, Deadline, Move, NoArgs, State
from companion.core.host_controls import TimerMoves
from companion.core.rejection import Rejected
from companion.parts import timers
from companion.parts.timers import Timer

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


class TimerName(Args):
    """Which of a game's phase timers the host means."""

    name: str = Field(max_length=40)


class NamedExtend(TimerExtend):
    name: str = Field(max_length=40)


def _no_params(state: State) -> dict[str, Any]:
    return {}


@dataclass(frozen=True)
class TurnTimer:
    game: str
    name: str
    warn_params: Callable[[State], Mapping[str, Any]] = field(default=_no_params)
    #: False: the game's one timer, at ``state["timer"]``, its inputs ``timer.<verb>``. True: one of its
    #: phase timers (`PhaseTimers`), at ``state["timers"][name]``, its inputs ``<game>.timer_<verb>`` with
    #: the timer's name, its announcements naming it (``kind.<game>_timer_<name>``).
    named: bool = False

    def timer(self, state: State) -> Timer | None:
        found: Timer | None = state["timers"].get(self.name) if self.named else state["timer"]
        return found

    def which(self) -> dict[str, Any]:
        """The arguments that name this timer in an input (and in its refusals)."""
        return {"name": self.name} if self.named else {}

    def said(self) -> dict[str, Any]:
        """What its announcements add to say which timer it is."""
        return {"name": f"kind.{self.game}_timer_{self.name}"} if self.named else {}

    def input(self, verb: str) -> str:
        return f"{self.game}.timer_{verb}" if self.named else f"timer.{verb}"

    def deadlines(self, state: State) -> list[Deadline]:
        """The clock inputs the timer is waiting for (its warning and its end), if it runs."""
        t = self.timer(state)
        return [] if t is None else timers.deadlines(self.name, t, self.input("warn"), self.input("expire"))

    def on_resume(self, state: State) -> list[tuple[str, dict[str, Any]]]:
        """After a restart a running timer is paused until the host resumes it."""
        t = self.timer(state)
        return [(self.input("pause"), self.which())] if t is not None and t["running"] else []

    def restart(self, ctx: Ctx) -> None:
        """The flow starts it afresh (a new phase, a new turn), silently; nothing when it is off."""
        t = self.timer(ctx.state)
        if t is not None:
            timers.start(t, ctx.at)

    def reset(self, state: State) -> None:
        """The flow stops it and puts it back to its full time (what it timed is over)."""
        t = self.timer(state)
        if t is not None:
            timers.reset(t)

    def of(self, ctx: Ctx) -> Timer:
        t = self.timer(ctx.state)
        if t is None:
            raise Rejected(f"reject.{self.game}_no_timer", **self.which())
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
        ctx.announce(f"{self.game}.timer_set", seconds=a.seconds, **self.said())

    def start(self, ctx: Ctx, a: Args) -> None:
        t = self.of(ctx)
        if t["running"]:
            raise Rejected("reject.timer_running")
        timers.start(t, ctx.at)
        ctx.announce(f"{self.game}.timer_started", seconds=int(t["duration"]) // 1000, **self.said())

    def pause(self, ctx: Ctx, a: Args) -> None:
        timers.pause(self.of(ctx), ctx.at)
        ctx.announce(f"{self.game}.timer_paused", **self.said())

    def resume(self, ctx: Ctx, a: Args) -> None:
        timers.resume(self.of(ctx), ctx.at)
        ctx.announce(f"{self.game}.timer_resumed", **self.said())

    def resume_started(self, ctx: Ctx, a: Args) -> None:
        """Resume where the host starts the timer: a timer never started is started, not resumed (its
        form and menu offer the start; issue 33)."""
        if not self.of(ctx)["started"]:
            raise Rejected("reject.timer_not_started")
        self.resume(ctx, a)

    def extend(self, ctx: Ctx, a: TimerExtend) -> None:
        timers.extend(self.of(ctx), a.seconds, ctx.at)
        ctx.announce(f"{self.game}.timer_extended", seconds=a.seconds, **self.said())

    def warn(self, ctx: Ctx, a: TimerTick) -> None:
        t = self.tick(ctx, a)
        if a.at_seconds is None:
            raise Rejected("reject.timer_not_due")
        timers.warn(t, a.at_seconds, ctx.at)
        ctx.announce(f"{self.game}.timer_warning", seconds=a.at_seconds, **self.said(),
                     **self.warn_params(ctx.state))

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
            Move("timer.resume", self.resume_started if start else self.resume, NoArgs, HOST),
            Move("timer.extend", self.extend, TimerExtend, HOST),
            Move("timer.warn", self.warn, TimerTick, CLOCK),
            Move("timer.expire", expire, TimerTick, CLOCK, phases=expire_phases),
        ]


@dataclass(frozen=True)
class PhaseTimers:
    """A game's timers of several phases (Lockdown's free phase and each action turn), named timers of
    one game. The host pauses, resumes and extends one by naming it; the clock warns and expires it."""

    timers: tuple[TurnTimer, ...]

    def get(self, name: str) -> TurnTimer:
        for t in self.timers:
            if t.name == name:
                return t
        raise Rejected(f"reject.{self.timers[0].game}_no_timer", name=name)

    def deadlines(self, state: State) -> list[Deadline]:
        return [d for t in self.timers for d in t.deadlines(state)]

    def host_moves(self, phases: Mapping[str, frozenset[str]]) -> TimerMoves:
        """The host's pause, resume and extend, for its host menu (they name the timer); `phases`: the
        phases each timer times (the flow starts it there)."""
        named = self.timers[0].input
        return TimerMoves(None, named("pause"), named("resume"), named("extend"), named=True, phases=phases)

    def on_resume(self, state: State) -> list[tuple[str, dict[str, Any]]]:
        return [r for t in self.timers for r in t.on_resume(state)]

    def pause(self, ctx: Ctx, a: TimerName) -> None:
        self.get(a.name).pause(ctx, a)

    def resume(self, ctx: Ctx, a: TimerName) -> None:
        self.get(a.name).resume(ctx, a)

    def extend(self, ctx: Ctx, a: NamedExtend) -> None:
        self.get(a.name).extend(ctx, a)

    def warn(self, ctx: Ctx, a: TimerTick) -> None:
        self.get(a.name).warn(ctx, a)

    def moves(self, expire: Callable[[Ctx, TimerTick], None]) -> list[Move]:
        """The host's pause, resume and extend and the clock's inputs, ``<game>.timer_<verb>``."""
        named = self.timers[0].input
        return [
            Move(named("pause"), self.pause, TimerName, HOST),
            Move(named("resume"), self.resume, TimerName, HOST),
            Move(named("extend"), self.extend, NamedExtend, HOST),
            Move(named("warn"), self.warn, TimerTick, CLOCK),
            Move(named("expire"), expire, TimerTick, CLOCK),
        ]
