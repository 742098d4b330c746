"""The inputs Jailbreak accepts: what the player whose turn it is plays, the target's answer to an
attack, the cuffs at the start of a turn, and the host's turn timer (expiry: docs/games/jailbreak.md)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints

from companion.core.contract import Args, Ctx, Move, NoArgs
from companion.core.rejection import Rejected
from companion.games.jailbreak import attacks, flow, items
from companion.parts import timers

PLAYER = frozenset({"player"})
HOST = frozenset({"host"})
CLOCK = frozenset({"clock"})
Pid = Annotated[str, StringConstraints(min_length=1, max_length=32)]
AttackCard = Literal["knife", "bullet", "steel_pipe", "rope"]
TradeCard = Literal["cigarette", "cash", "vodka", "bible"]


class AttackArgs(Args):
    card: AttackCard
    target: Pid


class CardArgs(Args):
    card: TradeCard


class TargetArgs(Args):
    target: Pid


class HandArgs(Args):
    player: Pid
    cards: int = Field(ge=0, le=40)


class TimerSet(Args):
    seconds: int = Field(ge=0, le=3600)


class TimerExtend(Args):
    seconds: int = Field(ge=1, le=3600)


class TimerTick(Args):
    name: Literal["turn"]
    at_seconds: int | None = None


def _me(ctx: Ctx) -> str:
    assert ctx.player is not None  # the referee checked the sender, phase and turn
    return ctx.player


# -- the action phase (J2.2-J2.6) ---------------------------------------------------------------------------


def attack(ctx: Ctx, a: AttackArgs) -> None:
    attacks.play(ctx, _me(ctx), a.card, a.target)


def use_card(ctx: Ctx, a: CardArgs) -> None:
    items.use_card(ctx, _me(ctx), a.card)


def use_key(ctx: Ctx, a: NoArgs) -> None:
    items.use_key(ctx, _me(ctx))


def use_badge(ctx: Ctx, a: NoArgs) -> None:
    items.use_badge(ctx, _me(ctx))


def go_back(ctx: Ctx, a: NoArgs) -> None:
    items.back(ctx, _me(ctx))


def cuff(ctx: Ctx, a: TargetArgs) -> None:
    items.place_cuffs(ctx, _me(ctx), a.target)


def end_turn(ctx: Ctx, a: NoArgs) -> None:
    flow.end(ctx)


# -- answers ------------------------------------------------------------------------------------------------


def trade(ctx: Ctx, a: CardArgs) -> None:
    attacks.trade(ctx, a.card)


def take(ctx: Ctx, a: NoArgs) -> None:
    attacks.take(ctx)


def baton_use(ctx: Ctx, a: NoArgs) -> None:
    attacks.baton(ctx, True)


def baton_pass(ctx: Ctx, a: NoArgs) -> None:
    attacks.baton(ctx, False)


def unlock(ctx: Ctx, a: NoArgs) -> None:
    """A key on the cuffs of the player whose turn it is: sent by them or by a player in their scene."""
    items.unlock(ctx, ctx.state["turn"]["player"], _me(ctx))


def stay_cuffed(ctx: Ctx, a: NoArgs) -> None:
    """J2.1: no key for the cuffs: the action phase is skipped (draw, then discard)."""
    flow.after_start(ctx, skip_action=True)


# -- the host's count correction ----------------------------------------------------------------------------


def hand_set(ctx: Ctx, a: HandArgs) -> None:
    """The host sets a hand count the table has counted (a card played without telling the referee).
    Announced to everyone; the deck count is not touched (it counts the draws the referee was told of)."""
    if a.player not in ctx.state["people"]:
        raise Rejected("reject.not_a_player", player=a.player)
    ctx.state["people"][a.player]["hand"] = a.cards
    ctx.announce("jailbreak.hand_set", player=a.player, cards=a.cards)


# -- the turn timer ------------------------------------------------------------------------------------------


def timer_set(ctx: Ctx, a: TimerSet) -> None:
    """The host sets the turn time (0: no timer); it applies from the next turn."""
    s = ctx.state
    s["timer_seconds"] = a.seconds
    if a.seconds == 0:
        s["timer"] = None
    elif s["timer"] is None:
        s["timer"] = timers.new(a.seconds, [10])
    elif not s["timer"]["running"]:
        s["timer"].update(duration=a.seconds * 1000, remaining=a.seconds * 1000, expired=False)
    ctx.announce("jailbreak.timer_set", seconds=a.seconds)


def _timer(ctx: Ctx) -> dict[str, Any]:
    t: dict[str, Any] | None = ctx.state["timer"]
    if t is None:
        raise Rejected("reject.jailbreak_no_timer")
    return t


def timer_start(ctx: Ctx, a: NoArgs) -> None:
    t = _timer(ctx)
    if t["running"]:
        raise Rejected("reject.timer_running")
    timers.start(t, ctx.at)
    ctx.announce("jailbreak.timer_started", seconds=int(t["duration"]) // 1000)


def timer_pause(ctx: Ctx, a: NoArgs) -> None:
    timers.pause(_timer(ctx), ctx.at)
    ctx.announce("jailbreak.timer_paused")


def timer_resume(ctx: Ctx, a: NoArgs) -> None:
    timers.resume(_timer(ctx), ctx.at)
    ctx.announce("jailbreak.timer_resumed")


def timer_extend(ctx: Ctx, a: TimerExtend) -> None:
    timers.extend(_timer(ctx), a.seconds, ctx.at)
    ctx.announce("jailbreak.timer_extended", seconds=a.seconds)


def timer_warn(ctx: Ctx, a: TimerTick) -> None:
    if a.at_seconds is None:
        raise Rejected("reject.timer_not_due")
    timers.warn(_timer(ctx), a.at_seconds, ctx.at)
    ctx.announce("jailbreak.timer_warning", seconds=a.at_seconds, player=ctx.state["turn"]["player"])


def timer_expire(ctx: Ctx, a: TimerTick) -> None:
    """Time is up: the decision waiting takes its default (the target takes the hit, no baton, the cuffs
    stay on) and the turn ends with the discard (docs/games/jailbreak.md)."""
    s = ctx.state
    timers.expire(_timer(ctx), ctx.at)
    pid = s["turn"]["player"]
    ctx.announce("jailbreak.timer_expired", player=pid)
    ph = s["turn"]["phase"]
    if ph == "cuffs":
        flow.after_start(ctx, skip_action=True)
        return
    if ph == "response":
        attacks.hit(ctx, s["turn"]["pending"])
    elif ph == "baton":
        attacks.baton(ctx, False)
    if s["finished"] is None:
        flow.end(ctx)


ACTION = frozenset({"action"})
TURN = frozenset({"cuffs", "action", "response", "baton"})

MOVES: dict[str, Move] = {
    m.name: m
    for m in (
        Move("attack", attack, AttackArgs, PLAYER, phases=ACTION, on_turn=True),
        Move("card.use", use_card, CardArgs, PLAYER, phases=ACTION, on_turn=True),
        Move("key.use", use_key, NoArgs, PLAYER, phases=ACTION, on_turn=True),
        Move("badge.use", use_badge, NoArgs, PLAYER, phases=ACTION, on_turn=True),
        Move("scene.back", go_back, NoArgs, PLAYER, phases=ACTION, on_turn=True),
        Move("cuffs.place", cuff, TargetArgs, PLAYER, phases=ACTION, on_turn=True),
        Move("turn.end", end_turn, NoArgs, PLAYER, phases=ACTION, on_turn=True),
        Move("attack.trade", trade, CardArgs, PLAYER, phases=frozenset({"response"}), on_turn=True),
        Move("attack.take", take, NoArgs, PLAYER, phases=frozenset({"response"}), on_turn=True),
        Move("baton.use", baton_use, NoArgs, PLAYER, phases=frozenset({"baton"}), on_turn=True),
        Move("baton.pass", baton_pass, NoArgs, PLAYER, phases=frozenset({"baton"}), on_turn=True),
        Move("cuffs.unlock", unlock, NoArgs, PLAYER, phases=frozenset({"cuffs"})),
        Move("cuffs.stay", stay_cuffed, NoArgs, PLAYER, phases=frozenset({"cuffs"}), on_turn=True),
        Move("hand.set", hand_set, HandArgs, HOST, phases=TURN),
        Move("timer.set", timer_set, TimerSet, HOST),
        Move("timer.start", timer_start, NoArgs, HOST, phases=TURN),
        Move("timer.pause", timer_pause, NoArgs, HOST),
        Move("timer.resume", timer_resume, NoArgs, HOST),
        Move("timer.extend", timer_extend, TimerExtend, HOST),
        Move("timer.warn", timer_warn, TimerTick, CLOCK),
        Move("timer.expire", timer_expire, TimerTick, CLOCK, phases=TURN),
    )
}
