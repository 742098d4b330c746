"""The inputs of an action turn (the player whose turn it is, in the booth or on their phone).

All of them are secret moves: their arguments (a path, a vote, a draw) never reach the host's history.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, StringConstraints

from companion.core.contract import Args, Ctx, Move
from companion.core.rejection import Rejected
from companion.games.lockdown import actions, data, flow, items, movement, poison, rooms

RoomId = Annotated[str, StringConstraints(min_length=1, max_length=8, pattern=r"^[A-Za-z0-9]+$")]
CardId = Annotated[str, StringConstraints(min_length=1, max_length=24, pattern=r"^[a-z0-9_-]+$")]
Cards = Annotated[list[CardId], Field(max_length=30)]
PLAYER = frozenset({"player"})
ACTION = frozenset({"action"})


def _pid(ctx: Ctx) -> str:
    assert ctx.player is not None
    return ctx.player


def _digital(ctx: Ctx) -> bool:
    return bool(ctx.state["options"]["items"] == "digital")


def _wrong_mode(ctx: Ctx) -> Rejected:
    """A draw shaped for the other item mode (a count with physical cards, taps with digital ones)."""
    if _digital(ctx):
        return Rejected("reject.lockdown_digital_items")
    return Rejected("reject.lockdown_physical_items")


class PathArgs(Args):
    path: Annotated[list[RoomId], Field(min_length=1, max_length=12)]


def move(ctx: Ctx, a: PathArgs) -> None:
    """Ruling L2: the path, hop by hop; refused whole when any hop is not allowed."""
    ts = ctx.state["turn_state"]
    if ts["moved"]:
        raise Rejected("reject.lockdown_already_moved")
    pid = _pid(ctx)
    movement.walk(ctx.state, pid, list(a.path))
    ts.update(moved=True, path=list(a.path))  # a death by the laser is announced at settlement (L5)


class DrawArgs(Args):
    count: int | None = Field(default=None, ge=1, le=20)
    cards: Cards = Field(default_factory=list)


def draw(ctx: Ctx, a: DrawArgs) -> None:
    if _digital(ctx) != (a.count is not None) or (a.count is not None and a.cards):
        raise _wrong_mode(ctx)
    rng = ctx.rng() if _digital(ctx) else None
    actions.draw(ctx.state, _pid(ctx), rng, a.count, list(a.cards))


class CardsArgs(Args):
    cards: Annotated[list[CardId], Field(min_length=1, max_length=30)]


class MaybeCard(Args):
    card: CardId | None = None


def drop(ctx: Ctx, a: CardsArgs) -> None:
    actions.drop(ctx.state, _pid(ctx), list(a.cards))


def gold(ctx: Ctx, a: MaybeCard) -> None:
    actions.gold(ctx.state, _pid(ctx), a.card)


def take(ctx: Ctx, a: CardsArgs) -> None:
    actions.take(ctx.state, _pid(ctx), list(a.cards))


def recycle(ctx: Ctx, a: MaybeCard) -> None:
    if _digital(ctx) == (a.card is not None):
        raise _wrong_mode(ctx)
    actions.recycle(ctx.state, _pid(ctx), ctx.rng() if _digital(ctx) else None, a.card)


class RoomArgs(Args):
    room: RoomId


def rocket(ctx: Ctx, a: RoomArgs) -> None:
    actions.aim_rocket(ctx.state, _pid(ctx), a.room)


class DeclareArgs(Args):
    cards: Cards


def declare(ctx: Ctx, a: DeclareArgs) -> None:
    actions.declare(ctx.state, _pid(ctx), list(a.cards))


class TapArgs(Args):
    card: Annotated[str, StringConstraints(min_length=1, max_length=24, pattern=r"^[a-z0-9_]+$")]


def tap(ctx: Ctx, a: TapArgs) -> None:
    """A tapped item card the player holds, which may mean more than one thing now (issue 31; the token
    router sends it, `Lockdown.on_token`): the referee keeps it and asks which (`use_tapped`)."""
    if _digital(ctx):
        raise Rejected("reject.lockdown_digital_items")
    if not ctx.state["turn_state"]["moved"]:
        raise Rejected("reject.lockdown_move_first")
    if len(actions.tap_uses(ctx.state, _pid(ctx), a.card)) < 2:
        raise Rejected("reject.lockdown_tap_use_not_now", use="kind.lockdown_use_any",
                       card=f"kind.lockdown_item_{a.card}" if a.card in data.items().kinds else a.card)
    ctx.state["turn_state"]["tapped"] = a.card


class UseArgs(Args):
    use: Literal["draw", "take", "drop", "declare"]


def use_tapped(ctx: Ctx, a: UseArgs) -> None:
    """The player's answer to a tapped held card: draw another, pick at the helipad, drop or use it."""
    ts = ctx.state["turn_state"]
    kind = ts.get("tapped")
    if kind is None:
        raise Rejected("reject.lockdown_nothing_tapped")
    actions.use_tapped(ctx.state, _pid(ctx), a.use, kind)
    ts["tapped"] = None


class NoArgs(Args):
    pass


def gene_bank(ctx: Ctx, a: NoArgs) -> None:
    rooms.gene_bank(ctx.state, _pid(ctx))


class GenesArgs(Args):
    force: int = Field(ge=0, le=40)
    speed: int = Field(ge=1, le=40)
    load: int = Field(ge=0, le=40)


def gene_console(ctx: Ctx, a: GenesArgs) -> None:
    rooms.gene_console(ctx.state, _pid(ctx), a.force, a.speed, a.load)


class ControlArgs(Args):
    mode: Literal["ten_votes", "detox"]
    room: RoomId | None = None


def control_room(ctx: Ctx, a: ControlArgs) -> None:
    rooms.control_room(ctx.state, _pid(ctx), a.mode, a.room)


class VoteArgs(Args):
    floor: Annotated[str, StringConstraints(min_length=1, max_length=8)]


def vote(ctx: Ctx, a: VoteArgs) -> None:
    """Ruling L4.1: every living player votes once per round, after moving, for a floor not yet poisonous."""
    if not ctx.state["turn_state"]["moved"]:
        raise Rejected("reject.lockdown_move_first")
    if ctx.state["people"][_pid(ctx)]["shadow"]:
        raise Rejected("reject.lockdown_shadow_no_vote")
    if a.floor in ctx.state["poison"]:
        raise Rejected("reject.lockdown_already_poisonous", floor=a.floor)
    poison.cast(ctx.state, _pid(ctx), a.floor)


def end_turn(ctx: Ctx, a: NoArgs) -> None:
    """The player leaves the action room: moved, voted (if living), within load, junkyard rule kept."""
    state, pid = ctx.state, _pid(ctx)
    p = state["people"][pid]
    if not state["turn_state"]["moved"]:
        raise Rejected("reject.lockdown_move_first")
    if poison.must_vote(state, pid) and not poison.voted(state, pid):
        raise Rejected("reject.lockdown_vote_first")
    if flow.junk_extras(state, pid):
        raise Rejected("reject.lockdown_junkyard_keep_two")
    if items.over_load(p):
        raise Rejected("reject.lockdown_over_load", load=items.capacity(p))
    flow.finish_turn(ctx, forced=False)


def _turn(name: str, fn: object, args: type[Args]) -> Move:
    return Move(name, fn, args, PLAYER, secret=True, phases=ACTION, on_turn=True)  # type: ignore[arg-type]


TURN_MOVES = (
    _turn("lockdown.move", move, PathArgs),
    _turn("lockdown.draw", draw, DrawArgs),
    _turn("lockdown.drop", drop, CardsArgs),
    _turn("lockdown.gold", gold, MaybeCard),
    _turn("lockdown.take", take, CardsArgs),
    _turn("lockdown.recycle", recycle, MaybeCard),
    _turn("lockdown.rocket", rocket, RoomArgs),
    _turn("lockdown.declare", declare, DeclareArgs),
    _turn("lockdown.tap", tap, TapArgs),
    _turn("lockdown.use_tapped", use_tapped, UseArgs),
    _turn("lockdown.gene_bank", gene_bank, NoArgs),
    _turn("lockdown.gene_console", gene_console, GenesArgs),
    _turn("lockdown.control_room", control_room, ControlArgs),
    _turn("lockdown.vote", vote, VoteArgs),
    _turn("lockdown.end_turn", end_turn, NoArgs),
)
