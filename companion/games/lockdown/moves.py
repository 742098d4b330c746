"""Lockdown's inputs outside the action turn: setup, the free phase, the host's controls and the clock.

Timers (companion.parts.timers) live in ``state["timers"]``: ``free`` for the free phase and ``turn`` for
each action turn. On expiry (written down in docs/games/lockdown.md): the free phase ends as if the
host had begun the actions (hands over load are trimmed); a turn ends as if the host had forced it
(a player who had not moved stays where they are and casts no vote; their hand is trimmed).
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from companion.core.contract import Args, Ctx, Move
from companion.core.rejection import Rejected
from companion.games.lockdown import flow, mapgraph, rooms, trades
from companion.games.lockdown.moves_turn import TURN_MOVES, CardId, Cards, NoArgs, RoomId
from companion.parts import timers

PLAYER = frozenset({"player"})
HOST = frozenset({"host"})
CLOCK = frozenset({"clock"})
TimerName = Literal["free", "turn"]


def _pid(ctx: Ctx) -> str:
    assert ctx.player is not None
    return ctx.player


# -- setup ----------------------------------------------------------------------------------------------


class PrepareArgs(Args):
    force: int = Field(ge=0, le=10)
    speed: int = Field(ge=1, le=10)
    load: int = Field(ge=0, le=10)
    spawn: RoomId


def prepare(ctx: Ctx, a: PrepareArgs) -> None:
    """Ruling L1.2 (genes add up to 10, speed >= 1) and L1.3 (a secret spawn, any room of the map).
    A player may change their mind until the last player is ready; then round 1 begins."""
    rooms.check_genes(a.force, a.speed, a.load, 10)
    if a.spawn not in mapgraph.rooms(ctx.state):
        raise Rejected("reject.lockdown_no_such_room", room=a.spawn)
    p = ctx.state["people"][_pid(ctx)]
    p.update(genes={"force": a.force, "speed": a.speed, "load": a.load}, spawn=a.spawn, room=a.spawn)
    if all(q["genes"] is not None for q in ctx.state["people"].values()):
        flow.begin_round(ctx)


# -- free phase -----------------------------------------------------------------------------------------

Kinds = Annotated[list[CardId], Field(max_length=10)]


class OfferArgs(Args):
    to: Annotated[str, Field(min_length=1, max_length=32)]
    give: Kinds = Field(default_factory=list)
    get: Kinds = Field(default_factory=list)
    swap_order: bool = False


class TradeArgs(Args):
    trade: Annotated[str, Field(min_length=1, max_length=12)]


def offer(ctx: Ctx, a: OfferArgs) -> None:
    trades.offer(ctx.state, _pid(ctx), a.to, list(a.give), list(a.get), a.swap_order)


def accept(ctx: Ctx, a: TradeArgs) -> None:
    trades.accept(ctx.state, _pid(ctx), a.trade)


def withdraw(ctx: Ctx, a: TradeArgs) -> None:
    trades.withdraw(ctx.state, _pid(ctx), a.trade)


class DiscardArgs(Args):
    cards: Cards


def discard(ctx: Ctx, a: DiscardArgs) -> None:
    trades.discard(ctx.state, _pid(ctx), list(a.cards))


def begin_actions(ctx: Ctx, a: NoArgs) -> None:
    flow.begin_actions(ctx)


# -- host controls and the clock ------------------------------------------------------------------------


def force_end_turn(ctx: Ctx, a: NoArgs) -> None:
    """The host ends a turn (a player walked away): the same as the turn timer running out."""
    flow.finish_turn(ctx, forced=True)


class TimerArgs(Args):
    name: TimerName


class ExtendArgs(Args):
    name: TimerName
    seconds: int = Field(ge=1, le=3600)


class WarnArgs(Args):
    name: TimerName
    at_seconds: int = Field(ge=1)


def _timer(ctx: Ctx, name: str) -> dict[str, object]:
    t: dict[str, object] | None = ctx.state["timers"].get(name)
    if t is None:
        raise Rejected("reject.lockdown_no_timer", name=name)
    return t


def timer_pause(ctx: Ctx, a: TimerArgs) -> None:
    timers.pause(_timer(ctx, a.name), ctx.at)
    ctx.announce("lockdown.timer_paused", name=f"kind.lockdown_timer_{a.name}")


def timer_resume(ctx: Ctx, a: TimerArgs) -> None:
    timers.resume(_timer(ctx, a.name), ctx.at)
    ctx.announce("lockdown.timer_resumed", name=f"kind.lockdown_timer_{a.name}")


def timer_extend(ctx: Ctx, a: ExtendArgs) -> None:
    timers.extend(_timer(ctx, a.name), a.seconds, ctx.at)
    ctx.announce("lockdown.timer_extended", name=f"kind.lockdown_timer_{a.name}", seconds=a.seconds)


def timer_warn(ctx: Ctx, a: WarnArgs) -> None:
    timers.warn(_timer(ctx, a.name), a.at_seconds, ctx.at)
    ctx.announce("lockdown.timer_warning", name=f"kind.lockdown_timer_{a.name}", seconds=a.at_seconds)


def timer_expire(ctx: Ctx, a: TimerArgs) -> None:
    timers.expire(_timer(ctx, a.name), ctx.at)
    ctx.announce("lockdown.timer_expired", name=f"kind.lockdown_timer_{a.name}")
    if a.name == "free" and ctx.state["phase"] == "free":
        flow.begin_actions(ctx)
    elif a.name == "turn" and ctx.state["phase"] == "action":
        flow.finish_turn(ctx, forced=True)


MOVES: dict[str, Move] = {
    m.name: m
    for m in (
        Move("lockdown.prepare", prepare, PrepareArgs, PLAYER, secret=True, phases=frozenset({"setup"})),
        Move("lockdown.offer", offer, OfferArgs, PLAYER, secret=True, phases=frozenset({"free"})),
        Move("lockdown.accept", accept, TradeArgs, PLAYER, secret=True, phases=frozenset({"free"})),
        Move("lockdown.withdraw", withdraw, TradeArgs, PLAYER, secret=True, phases=frozenset({"free"})),
        Move("lockdown.discard", discard, DiscardArgs, PLAYER, secret=True, phases=frozenset({"free"})),
        Move("lockdown.begin_actions", begin_actions, NoArgs, HOST, phases=frozenset({"free"})),
        Move("lockdown.force_end_turn", force_end_turn, NoArgs, HOST, phases=frozenset({"action"})),
        Move("lockdown.timer_pause", timer_pause, TimerArgs, HOST),
        Move("lockdown.timer_resume", timer_resume, TimerArgs, HOST),
        Move("lockdown.timer_extend", timer_extend, ExtendArgs, HOST),
        Move("lockdown.timer_warn", timer_warn, WarnArgs, CLOCK),
        Move("lockdown.timer_expire", timer_expire, TimerArgs, CLOCK),
        *TURN_MOVES,
    )
}
