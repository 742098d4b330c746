"""Lockdown's inputs outside the action turn: setup, the free phase, the host's controls and the clock.

The timers are the shared phase timers (companion/parts/turn_timer.py, flow.TIMERS) in ``state["timers"]``:
``free`` for the free phase and ``turn`` for each action turn. On expiry (written down in
docs/games/lockdown.md): the free phase ends as if the host had begun the actions (hands over load are
trimmed); a turn ends as if the host had forced it (a player who had not moved stays where they are and
casts no vote; their hand is trimmed).
"""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from companion.core.contract import Args, Ctx, Move
from companion.core.rejection import Rejected
from companion.games.lockdown import flow, mapgraph, rooms, trades
from companion.games.lockdown.moves_turn import TURN_MOVES, CardId, Cards, NoArgs, RoomId
from companion.parts.turn_timer import TimerName, TimerTick

PLAYER = frozenset({"player"})
HOST = frozenset({"host"})


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

Kinds = Annotated[list[CardId], Field(max_length=trades.MAX_CARDS)]


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


class ForceEndArgs(Args):
    player: str | None = None  # whose turn the host's form named; None ends whoever's turn it is


def force_end_turn(ctx: Ctx, a: ForceEndArgs) -> None:
    """The host ends a turn (a player walked away): the same as the turn timer running out. A form that
    named a player ends only that player's turn, so words read before the turn passed never end the next."""
    if a.player is not None and a.player != flow.current_player(ctx.state):
        raise Rejected("reject.lockdown_turn_moved_on", player=a.player[:32])
    flow.finish_turn(ctx, forced=True)


def timer_expire(ctx: Ctx, a: TimerTick) -> None:
    timer = flow.TIMERS.get(a.name)
    timer.expire(ctx, a)
    ctx.announce("lockdown.timer_expired", **timer.said())
    if timer is flow.FREE and ctx.state["phase"] == "free":
        flow.begin_actions(ctx)
    elif timer is flow.TURN and ctx.state["phase"] == "action":
        flow.finish_turn(ctx, forced=True)


def timer_resume(ctx: Ctx, a: TimerName) -> None:
    """The host resumes a paused timer, only in the phase it times (issue 33: the turn timer, stopped for
    the free phase, would otherwise run there and its end would do nothing)."""
    if ctx.state["phase"] not in flow.TIMER_PHASES.get(a.name, frozenset({ctx.state["phase"]})):
        raise Rejected("reject.lockdown_timer_not_now", name=f"kind.lockdown_timer_{a.name}")
    flow.TIMERS.resume(ctx, a)


MOVES: dict[str, Move] = {
    m.name: m
    for m in (
        Move("lockdown.prepare", prepare, PrepareArgs, PLAYER, secret=True, phases=frozenset({"setup"})),
        Move("lockdown.offer", offer, OfferArgs, PLAYER, secret=True, phases=frozenset({"free"})),
        Move("lockdown.accept", accept, TradeArgs, PLAYER, secret=True, phases=frozenset({"free"})),
        Move("lockdown.withdraw", withdraw, TradeArgs, PLAYER, secret=True, phases=frozenset({"free"})),
        Move("lockdown.discard", discard, DiscardArgs, PLAYER, secret=True, phases=frozenset({"free"})),
        Move("lockdown.begin_actions", begin_actions, NoArgs, HOST, phases=frozenset({"free"})),
        Move("lockdown.force_end_turn", force_end_turn, ForceEndArgs, HOST, phases=frozenset({"action"})),
        *flow.TIMERS.moves(timer_expire),
        Move("lockdown.timer_resume", timer_resume, TimerName, HOST),  # in place of PhaseTimers' own
        *TURN_MOVES,
    )
}
