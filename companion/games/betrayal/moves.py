"""The inputs Betrayal accepts: choosing explorers, an explorer's turn, the table's reports (the room
laid, the card drawn), rolls and trait changes, the haunt roll, attacks and damage, the monsters' turn,
the end, and the optional turn timer (moves_timer.py)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, StringConstraints

from companion.core.contract import Args, Ctx, Move, NoArgs
from companion.core.rejection import Rejected
from companion.games.betrayal import (
    cards,
    combat,
    data,
    explorers,
    flow,
    haunt,
    house,
    monsters,
    movement,
    outcome,
    seating,
)
from companion.games.betrayal.dice import HAUNT_DICE, MAX_DICE, count, read
from companion.games.betrayal.moves_timer import TIMER_MOVES

Key = Annotated[str, StringConstraints(min_length=1, max_length=32)]
Dice = list[Annotated[int, Field(ge=0, le=2)]]
PLAYER = frozenset({"player"})
PLAYER_OR_HOST = frozenset({"player", "host"})
TABLE = frozenset({"host", "table", "player"})
HOST = frozenset({"host"})
CHOOSING = frozenset({"choosing"})
TURN = frozenset({"turn"})
PLAYING = frozenset({"turn", "room", "card", "haunt_roll", "damage", "steal", "monsters"})


class Choose(Args):
    character: Key


class To(Args):
    to: Key


class RoomArgs(Args):
    room: Key
    joins: list[Key] | None = Field(default=None, max_length=4)  # issue 31: the other rooms its doorways join


class JoinArgs(Args):
    joins: list[Key] = Field(min_length=1, max_length=4)


class ExplorerPlaceArgs(Args):
    player: Key
    room: Key | None = None
    floor: data.Floor | None = None


class MonsterRollArgs(Args):
    kind: Key
    dice: Dice | None = Field(default=None, max_length=MAX_DICE)
    total: int | None = Field(default=None, ge=0, le=2 * MAX_DICE)


class CardArgs(Args):
    card: Key


class GiveArgs(Args):
    card: Key
    to: Key


class RollArgs(Args):
    trait: data.Trait
    voluntary: bool = False
    reason: Key | None = None
    player: Key | None = None
    dice: Dice | None = Field(default=None, max_length=MAX_DICE)
    total: int | None = Field(default=None, ge=0, le=2 * MAX_DICE)


class AdjustArgs(Args):
    player: Key
    trait: data.Trait
    steps: int = Field(ge=-12, le=12)


class HauntRollArgs(Args):
    dice: Dice | None = Field(default=None, max_length=HAUNT_DICE)
    total: int | None = Field(default=None, ge=0, le=2 * HAUNT_DICE)


class AttackArgs(Args):
    target: Key
    trait: data.Trait = "might"
    ranged: bool = False
    dice: Dice | None = Field(default=None, max_length=MAX_DICE)
    target_dice: Dice | None = Field(default=None, max_length=MAX_DICE)
    # B1.3, B4.1: or only the totals the table read off its real dice, each side's bounded by its dice
    total: int | None = Field(default=None, ge=0, le=2 * MAX_DICE)
    target_total: int | None = Field(default=None, ge=0, le=2 * MAX_DICE)


class MonsterAttackArgs(AttackArgs):
    monster: Key


class SplitArgs(Args):
    first: int = Field(ge=0, le=64)


class StealArgs(Args):
    card: Key | None = None


class PlaceArgs(Args):
    kind: Key
    room: Key


class MonsterTo(Args):
    monster: Key
    to: Key


class EndArgs(Args):
    winner: Literal["heroes", "traitor", "none"]


def _me(ctx: Ctx) -> str:
    assert ctx.player is not None
    return ctx.player


def _actor(ctx: Ctx) -> str:
    """The explorer whose turn it is (a host input acts for them)."""
    actor: str = ctx.state["turn"]["actor"]
    return actor


# -- choosing explorers (B1.1, B1.2) ------------------------------------------------------------------------


def choose(ctx: Ctx, a: Choose) -> None:
    s = ctx.state
    d = data.of(s)
    pid = _me(ctx)
    if a.character not in {c.id for c in d.characters.characters}:
        raise Rejected("reject.betrayal_unknown_character", character=a.character[:24])
    card = d.character(a.character).card
    for other, e in s["explorers"].items():
        if other != pid and e["character"] is not None and d.character(e["character"]).card == card:
            raise Rejected("reject.betrayal_character_taken", character=f"kind.betrayal.character.{a.character}")
    s["explorers"][pid] = explorers.new(d.character(a.character), s["explorers"][pid]["room"])
    ctx.announce("betrayal.chosen", player=pid, character=f"kind.betrayal.character.{a.character}")
    if all(e["character"] is not None for e in s["explorers"].values()):
        first = seating.birthday_first(s)
        ctx.announce("betrayal.first_player", player=first)
        flow.begin(ctx, first)


# -- an explorer's turn (B2) ---------------------------------------------------------------------------------


def move(ctx: Ctx, a: To) -> None:
    movement.move(ctx, _actor(ctx), a.to)
    flow.settle(ctx)


def explore(ctx: Ctx, a: NoArgs) -> None:
    movement.explore(ctx, _actor(ctx))


def room_reveal(ctx: Ctx, a: RoomArgs) -> None:
    if ctx.role == "player" and ctx.player != ctx.state["pending"]["player"]:
        raise Rejected("reject.not_your_turn", player=ctx.state["pending"]["player"])
    movement.room_laid(ctx, a.room, a.joins)
    flow.settle(ctx)


def room_join(ctx: Ctx, a: JoinArgs) -> None:
    """Issue 31: the explorer's room's doorways that face other laid rooms' open doorways."""
    s = ctx.state
    here = explorers.get(s, _actor(ctx))["room"]
    house.join_more(s, here, a.joins)
    for other in a.joins:
        ctx.announce("betrayal.rooms_joined", room=f"kind.betrayal.room.{here}", other=f"kind.betrayal.room.{other}")


def explorer_place(ctx: Ctx, a: ExplorerPlaceArgs) -> None:
    """Issue 31: an event or a collapsing room moves an explorer (a player themselves, on their turn), or
    the host corrects where one stands."""
    if ctx.role == "player" and a.player != ctx.player:
        raise Rejected("reject.not_yours")
    movement.place(ctx, a.player, a.room, a.floor)


def card_reveal(ctx: Ctx, a: CardArgs) -> None:
    if ctx.role == "player" and ctx.player != ctx.state["pending"]["player"]:
        raise Rejected("reject.not_your_turn", player=ctx.state["pending"]["player"])
    movement.card_drawn(ctx, a.card)
    flow.settle(ctx)


def card_give(ctx: Ctx, a: GiveArgs) -> None:
    cards.give(ctx, _actor(ctx), a.card, a.to)


def card_drop(ctx: Ctx, a: CardArgs) -> None:
    cards.drop(ctx, _actor(ctx), a.card)


def card_take(ctx: Ctx, a: CardArgs) -> None:
    cards.take(ctx, _actor(ctx), a.card)


def card_use(ctx: Ctx, a: CardArgs) -> None:
    cards.use(ctx, _actor(ctx), a.card)


def trait_roll(ctx: Ctx, a: RollArgs) -> None:
    """B1.3, B2.1: a trait roll; a voluntary roll (a room's, an item's) once a turn each, on your turn."""
    s = ctx.state
    pid = a.player if ctx.role == "host" and a.player is not None else (ctx.player or s["turn"]["actor"])
    if ctx.role == "player" and a.player not in (None, ctx.player):
        raise Rejected("reject.not_yours")
    if pid not in s["explorers"] or not s["explorers"][pid]["alive"]:
        raise Rejected("reject.not_a_player", player=str(pid)[:32])
    if a.voluntary:
        if flow.phase(s) != "turn" or s["turn"]["actor"] != pid:
            raise Rejected("reject.betrayal_voluntary_on_turn")
        reason = a.reason or explorers.get(s, pid)["room"]
        if reason in s["turn"]["voluntary"]:
            raise Rejected("reject.betrayal_voluntary_once", reason=reason)
        s["turn"]["voluntary"].append(reason)
    faces, total = read(ctx.rng(), count(explorers.value(s, pid, a.trait)), a.dice, a.total)
    s["last_roll"] = {"player": pid, "trait": a.trait, "dice": faces, "total": total, "voluntary": a.voluntary}
    if faces is None:
        ctx.announce("betrayal.rolled_real", player=pid, trait=f"kind.betrayal.trait.{a.trait}", total=total)
    else:
        ctx.announce("betrayal.rolled", player=pid, trait=f"kind.betrayal.trait.{a.trait}", dice=faces, total=total)


def trait_adjust(ctx: Ctx, a: AdjustArgs) -> None:
    """What a roll, a room, an event or an item did to a trait (B1.1: no death before the haunt)."""
    s = ctx.state
    if ctx.role == "player" and a.player != ctx.player:
        raise Rejected("reject.not_yours")
    if a.player not in s["explorers"] or not s["explorers"][a.player]["alive"]:
        raise Rejected("reject.not_a_player", player=a.player)
    dead = explorers.shift(s, a.player, a.trait, a.steps)
    ctx.announce("betrayal.trait_changed", player=a.player, trait=f"kind.betrayal.trait.{a.trait}",
                 value=explorers.value(s, a.player, a.trait))
    if dead:
        combat.die(ctx, a.player)
    flow.settle(ctx)


def turn_end(ctx: Ctx, a: NoArgs) -> None:
    ctx.announce("betrayal.turn_ended", player=_actor(ctx))
    flow.end_turn(ctx)


def haunt_roll(ctx: Ctx, a: HauntRollArgs) -> None:
    haunt.roll(ctx, a.dice, a.total)


# -- the haunt: attacks, damage, monsters, the end (B3-B5) ------------------------------------------------


def _haunted(ctx: Ctx) -> None:
    if ctx.state["haunt"] is None:
        raise Rejected("reject.betrayal_before_haunt")


def attack(ctx: Ctx, a: AttackArgs) -> None:
    """B4.1: one attack a turn, after the haunt."""
    s = ctx.state
    _haunted(ctx)
    if s["turn"]["attacked"]:
        raise Rejected("reject.betrayal_attacked_already")
    s["turn"]["attacked"] = True
    combat.attack(ctx, _actor(ctx), a.target, a.trait, a.ranged, combat.Rolls(a.dice, a.target_dice, a.total,
                                                                             a.target_total))
    flow.settle(ctx)


def damage_split(ctx: Ctx, a: SplitArgs) -> None:
    combat.split(ctx, a.first)
    flow.settle(ctx)


def steal_take(ctx: Ctx, a: StealArgs) -> None:
    combat.steal(ctx, a.card)
    flow.settle(ctx)


def _controls_monsters(ctx: Ctx) -> None:
    if ctx.role == "player" and ctx.player != flow.controller(ctx.state):
        raise Rejected("reject.betrayal_not_traitor")


def monster_place(ctx: Ctx, a: PlaceArgs) -> None:
    _haunted(ctx)
    _controls_monsters(ctx)
    monsters.place(ctx, a.kind, a.room)


def monster_roll(ctx: Ctx, a: MonsterRollArgs) -> None:
    """B5.1: the traitor rolls each kind's dice, real (faces or total) or the referee's when asked."""
    _controls_monsters(ctx)
    monsters.roll(ctx, a.kind, a.dice, a.total)


def monster_move(ctx: Ctx, a: MonsterTo) -> None:
    monsters.move(ctx, a.monster, a.to)


def monster_attack(ctx: Ctx, a: MonsterAttackArgs) -> None:
    """B5.1 with B4.1: each monster that is not stunned attacks once a turn; monsters never steal."""
    s = ctx.state
    m = monsters.get(s, a.monster)
    if m["stunned"]:
        raise Rejected("reject.betrayal_monster_stunned", monster=a.monster)
    if m["attacked"]:
        raise Rejected("reject.betrayal_attacked_already")
    if a.target not in s["explorers"]:
        raise Rejected("reject.betrayal_bad_target", target=a.target)
    m["attacked"] = True
    combat.attack(ctx, a.monster, a.target, a.trait, a.ranged, combat.Rolls(a.dice, a.target_dice, a.total,
                                                                         a.target_total))
    flow.settle(ctx)


def monsters_done(ctx: Ctx, a: NoArgs) -> None:
    flow.end_turn(ctx)


def haunt_end(ctx: Ctx, a: EndArgs) -> None:
    """B3.3: the side that met its goals wins; if neither can, both lose (the table judges the goals)."""
    _haunted(ctx)
    if a.winner == "traitor" and ctx.state["haunt"]["traitor"] is None:
        raise Rejected("reject.betrayal_no_traitor")
    outcome.finish(ctx, a.winner)


MOVES: dict[str, Move] = {
    m.name: m
    for m in (
        Move("explorer.choose", choose, Choose, PLAYER, phases=CHOOSING),
        Move("move", move, To, PLAYER_OR_HOST, phases=TURN, on_turn=True),
        Move("explore", explore, NoArgs, PLAYER_OR_HOST, phases=TURN, on_turn=True),
        Move("room.reveal", room_reveal, RoomArgs, TABLE, phases=frozenset({"room"})),
        Move("card.reveal", card_reveal, CardArgs, TABLE, phases=frozenset({"card"})),
        Move("room.join", room_join, JoinArgs, TABLE, phases=TURN, on_turn=True),
        Move("explorer.place", explorer_place, ExplorerPlaceArgs, PLAYER_OR_HOST, phases=TURN, on_turn=True),
        Move("card.give", card_give, GiveArgs, PLAYER_OR_HOST, phases=TURN, on_turn=True),
        Move("card.drop", card_drop, CardArgs, PLAYER_OR_HOST, phases=TURN, on_turn=True),
        Move("card.take", card_take, CardArgs, PLAYER_OR_HOST, phases=TURN, on_turn=True),
        Move("card.use", card_use, CardArgs, PLAYER_OR_HOST, phases=TURN, on_turn=True),
        Move("trait.roll", trait_roll, RollArgs, PLAYER_OR_HOST, phases=PLAYING),
        Move("trait.adjust", trait_adjust, AdjustArgs, PLAYER_OR_HOST, phases=PLAYING),
        Move("turn.end", turn_end, NoArgs, PLAYER_OR_HOST, phases=TURN, on_turn=True),
        Move("haunt.roll", haunt_roll, HauntRollArgs, PLAYER_OR_HOST, phases=frozenset({"haunt_roll"}), on_turn=True),
        Move("attack", attack, AttackArgs, PLAYER_OR_HOST, phases=TURN, on_turn=True),
        Move("damage.split", damage_split, SplitArgs, PLAYER_OR_HOST, phases=frozenset({"damage"}), on_turn=True),
        Move("steal.take", steal_take, StealArgs, PLAYER_OR_HOST, phases=frozenset({"steal"}), on_turn=True),
        Move("monster.place", monster_place, PlaceArgs, PLAYER_OR_HOST, phases=frozenset({"turn", "monsters"})),
        Move("monster.roll", monster_roll, MonsterRollArgs, PLAYER_OR_HOST, phases=frozenset({"monsters"}),
             on_turn=True),
        Move("monster.move", monster_move, MonsterTo, PLAYER_OR_HOST, phases=frozenset({"monsters"}), on_turn=True),
        Move("monster.attack", monster_attack, MonsterAttackArgs, PLAYER_OR_HOST, phases=frozenset({"monsters"}),
             on_turn=True),
        Move("monsters.done", monsters_done, NoArgs, PLAYER_OR_HOST, phases=frozenset({"monsters"}), on_turn=True),
        Move("haunt.end", haunt_end, EndArgs, HOST, phases=PLAYING),
        *TIMER_MOVES,
    )
}
