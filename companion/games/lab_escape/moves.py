"""The inputs Escape the Lab accepts: the table's cards, the steps of a move, room effects, attacks,
items, the stuck rule and the turn timer. Table and host may input for the player whose turn it is
(a tap on a shared reader, a correction on the kiosk)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from companion.core.contract import Args, Ctx, Move, NoArgs
from companion.core.rejection import Rejected
from companion.games.lab_escape import board, checks, flow, geometry, items, rooms
from companion.games.lab_escape.rooms import Die, Effect, Name
from companion.parts.turn_timer import TimerTick, TurnTimer

PLAY = frozenset({"player", "host", "table"})
HOST = frozenset({"host"})
CLOCK = frozenset({"clock"})


class CardArgs(Args):
    card: Name


class PlaceArgs(Args):
    """E2.1 with E1.1 (issue 31): the card, and where it lies and which of its doors are blocked when the
    table wants the referee to judge movement."""

    card: Name
    at: geometry.Spot | None = None
    blocked: list[geometry.Door] | None = Field(default=None, max_length=8)


class StepArgs(Args):
    room: Name
    vent: bool = False


class AttackArgs(Args):
    target: Name
    take: Name
    roll: Die | None = None
    defense_roll: Die | None = None


class ItemUse(Effect):
    item: Literal["adrenaline", "wrench"]


def _who(ctx: Ctx) -> str:
    pid = ctx.player or flow.current_player(ctx.state)
    assert pid is not None
    return pid


def card_drawn(ctx: Ctx, a: CardArgs) -> None:
    flow.drawn(ctx, a.card)


def card_place(ctx: Ctx, a: PlaceArgs) -> None:
    flow.place(ctx, _who(ctx), a.card, a.at, a.blocked)


def stuck(ctx: Ctx, a: NoArgs) -> None:
    flow.stuck(ctx, _who(ctx))


def step(ctx: Ctx, a: StepArgs) -> None:
    flow.step(ctx, _who(ctx), a.room, a.vent)


def move_end(ctx: Ctx, a: NoArgs) -> None:
    flow.end_move(ctx, _who(ctx))


def activate(ctx: Ctx, a: Effect) -> None:
    """E2.4: activate the room the player is in; the turn then ends."""
    pid = _who(ctx)
    rooms.activate(ctx, pid, board.person(ctx.state, pid)["room"], a)
    flow.end_turn(ctx)


def attack(ctx: Ctx, a: AttackArgs) -> None:
    """E2.4, E4.1: attack a player in the same room; the turn then ends."""
    checks.attack(ctx, _who(ctx), a.target, a.take, a.roll, a.defense_roll)
    flow.end_turn(ctx)


def item_use(ctx: Ctx, a: ItemUse) -> None:
    """E2.4: adrenaline (flip the die) or the wrench (any room's 『启动』 effect), before the move or after."""
    s = ctx.state
    pid = _who(ctx)
    if s["turn"]["stage"] == "move" and s["turn"]["steps"] > 0:
        raise Rejected("reject.lab_escape_not_mid_move")
    items.spend(ctx, pid, a.item)
    if a.item == "adrenaline":
        board.flip(ctx, pid)
    else:
        if a.room is None:
            raise Rejected("reject.lab_escape_pick_room")
        rooms.activate(ctx, pid, a.room, a, remote=True)


def turn_end(ctx: Ctx, a: NoArgs) -> None:
    flow.end_turn(ctx)


# -- the turn timer ------------------------------------------------------------------------------------------


TIMER = TurnTimer("lab_escape", flow.TIMER)


def timer_expire(ctx: Ctx, a: TimerTick) -> None:
    TIMER.expire(ctx, a)
    flow.time_up(ctx)


PLACING = frozenset({"place"})
MOVING = frozenset({"move"})
ACTING = frozenset({"act"})
PLAYING = frozenset({"place", "move", "act"})

MOVES: dict[str, Move] = {
    m.name: m
    for m in (
        Move("card.drawn", card_drawn, CardArgs, PLAY, phases=frozenset({"refill"}), on_turn=True),
        Move("card.place", card_place, PlaceArgs, PLAY, phases=PLACING, on_turn=True),
        Move("stuck", stuck, NoArgs, PLAY, phases=frozenset({"place", "move"}), on_turn=True),
        Move("step", step, StepArgs, PLAY, phases=MOVING, on_turn=True),
        Move("move.end", move_end, NoArgs, PLAY, phases=MOVING, on_turn=True),
        Move("activate", activate, Effect, PLAY, phases=ACTING, on_turn=True),
        Move("attack", attack, AttackArgs, PLAY, phases=ACTING, on_turn=True),
        Move("item.use", item_use, ItemUse, PLAY, phases=frozenset({"move", "act"}), on_turn=True),
        Move("turn.end", turn_end, NoArgs, PLAY, phases=ACTING, on_turn=True),
        *TIMER.moves(timer_expire, start_phases=PLAYING),
    )
}
