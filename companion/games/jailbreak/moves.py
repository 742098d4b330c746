"""The inputs Jailbreak accepts: what the player whose turn it is plays, the target's answer to an
attack, the cuffs at the start of a turn, and the host's turn timer (expiry: docs/games/jailbreak.md)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, StringConstraints

from companion.core.contract import Args, Ctx, Move, NoArgs
from companion.core.rejection import Rejected
from companion.games.jailbreak import attacks, flow, items
from companion.parts.turn_timer import TimerTick, TurnTimer

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


TIMER = TurnTimer("jailbreak", flow.TIMER, warn_params=lambda s: {"player": s["turn"]["player"]})


def timer_expire(ctx: Ctx, a: TimerTick) -> None:
    """Time is up: the decision waiting takes its default (the target takes the hit, no baton, the cuffs
    stay on) and the turn ends with the discard (docs/games/jailbreak.md)."""
    s = ctx.state
    TIMER.expire(ctx, a)
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
        *TIMER.moves(timer_expire, start_phases=TURN, expire_phases=TURN),
    )
}
