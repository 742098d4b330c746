"""Attacks and damage (B4), after the haunt only.

A fighter is an explorer (a player id) or a monster (its id). Both roll the trait the attack uses
(might unless a card names another); the higher total deals the difference, ties do nothing (B4.1).
A monster that loses is stunned (B5.1); an explorer that loses splits the damage over the two traits
of its kind (B4.2), unless the winning explorer beat them by 2 or more in melee and steals a tradable
card instead. A ranged attack that fails hurts nobody (B4.1).
"""

from __future__ import annotations

from typing import NamedTuple

from companion.core.contract import Ctx, State
from companion.core.rejection import Rejected
from companion.games.betrayal import cards, data, dice, explorers, monsters


def pair(trait: str) -> tuple[str, str]:
    """B4.2: physical damage lowers speed or might; mental lowers sanity or knowledge."""
    return data.PHYSICAL if trait in data.PHYSICAL else data.MENTAL


def strength(s: State, fighter: str, trait: str) -> int:
    if fighter in s["explorers"]:
        return explorers.value(s, fighter, trait)
    spec = monsters.kinds(s)[monsters.get(s, fighter)["kind"]]
    v = spec.trait(trait)
    if v is None:  # B5: a trait the monster lacks cannot be used against it
        raise Rejected("reject.betrayal_monster_lacks", trait=f"kind.betrayal.trait.{trait}")
    return v


def room_of(s: State, fighter: str) -> str:
    if fighter in s["explorers"]:
        r: str = explorers.get(s, fighter)["room"]
        return r
    r2: str = monsters.get(s, fighter)["room"]
    return r2


def check_target(s: State, attacker: str, target: str, ranged: bool) -> None:
    if target == attacker:
        raise Rejected("reject.betrayal_bad_target", target=target[:32])
    if target in s["explorers"]:
        if not explorers.get(s, target)["alive"]:
            raise Rejected("reject.betrayal_bad_target", target=target[:32])
    elif target not in s["monsters"]:
        raise Rejected("reject.betrayal_bad_target", target=target[:32])
    if ranged:
        if attacker in s["monsters"]:  # issue 31: some monsters attack at range (the data's `ranged`)
            if not monsters.kinds(s)[monsters.get(s, attacker)["kind"]].ranged:
                raise Rejected("reject.betrayal_no_ranged")
            return
        held = explorers.get(s, attacker)["cards"]
        if not any(data.of(s).card(c).ranged for c in held):
            raise Rejected("reject.betrayal_no_ranged")
    elif room_of(s, attacker) != room_of(s, target):
        raise Rejected("reject.betrayal_not_here", player=target[:32])


class Rolls(NamedTuple):
    """What the table says of an attack's dice: each side's faces, or only the total of its real dice
    (B1.3: a phone or the booth asks for one number a side), or nothing (the seeded dice roll)."""

    dice: list[int] | None = None
    target_dice: list[int] | None = None
    total: int | None = None
    target_total: int | None = None


SEEDED = Rolls()  # both sides roll the seeded dice


def attack(ctx: Ctx, attacker: str, target: str, trait: str, ranged: bool, rolls: Rolls = SEEDED) -> None:
    s = ctx.state
    check_target(s, attacker, target, ranged)
    a_n, d_n = dice.count(strength(s, attacker, trait)), dice.count(strength(s, target, trait))
    if rolls.target_total is not None and not 0 <= rolls.target_total <= 2 * d_n:
        raise Rejected("reject.betrayal_target_dice_total", target=target[:32], most=2 * d_n)
    a_faces, a = dice.read(ctx.rng(), a_n, rolls.dice, rolls.total)
    d_faces, d = dice.read(ctx.rng(), d_n, rolls.target_dice, rolls.target_total)
    s["last_attack"] = {"attacker": attacker, "target": target, "trait": trait, "ranged": ranged,
                        "dice": a_faces, "target_dice": d_faces, "total": a, "target_total": d}
    ctx.announce("betrayal.attack", attacker=attacker, target=target, trait=f"kind.betrayal.trait.{trait}",
                 total=a, target_total=d)
    if a == d:  # B4.1: ties do nothing
        ctx.announce("betrayal.attack_tie")
        return
    winner, loser = (attacker, target) if a > d else (target, attacker)
    amount = abs(a - d)
    if loser == attacker and ranged:  # B4.1: a failed ranged attack does not hurt the attacker
        ctx.announce("betrayal.ranged_missed", player=attacker)
        return
    hurt(ctx, winner, loser, amount, trait, ranged)


def hurt(ctx: Ctx, winner: str, loser: str, amount: int, trait: str, ranged: bool) -> None:
    s = ctx.state
    if loser in s["monsters"]:
        monsters.stun(ctx, loser)
        return
    steals = (winner in s["explorers"] and amount >= 2 and not ranged
              and any(cards.tradable(s, c) for c in explorers.get(s, loser)["cards"]))
    kind = "steal" if steals else "damage"
    who = winner if steals else loser
    s["pending"] = {"kind": kind, "player": who, "loser": loser, "winner": winner, "amount": amount,
                    "pair": list(pair(trait))}
    ctx.announce("betrayal.damage_due", player=loser, amount=amount,
                 kind="kind.betrayal.damage.physical" if trait in data.PHYSICAL else "kind.betrayal.damage.mental")


def split(ctx: Ctx, first: int) -> None:
    """B4.2: the loser lowers the pair's first trait `first` steps and the second the rest."""
    s = ctx.state
    p = s["pending"]
    if not 0 <= first <= p["amount"]:
        raise Rejected("reject.betrayal_bad_split", amount=p["amount"])
    s["pending"] = None
    one, two = p["pair"]
    dead = explorers.shift(s, p["loser"], one, -first)
    dead = explorers.shift(s, p["loser"], two, -(p["amount"] - first)) or dead
    ctx.announce("betrayal.damage_taken", player=p["loser"], first=f"kind.betrayal.trait.{one}", first_steps=first,
                 second=f"kind.betrayal.trait.{two}", second_steps=p["amount"] - first)
    if dead:
        die(ctx, p["loser"])


def steal(ctx: Ctx, card: str | None) -> None:
    """B4.2: the winner takes one tradable card instead of dealing damage, or lets the damage stand."""
    s = ctx.state
    p = s["pending"]
    if card is None:
        s["pending"] = {**p, "kind": "damage", "player": p["loser"]}
        return
    cards.held(s, p["loser"], card)
    if not cards.tradable(s, card):
        raise Rejected("reject.betrayal_card_follows", card=f"kind.betrayal.card.{card}")
    explorers.get(s, p["loser"])["cards"].remove(card)
    explorers.get(s, p["winner"])["cards"].append(card)
    s["pending"] = None
    ctx.announce("betrayal.card_stolen", player=p["winner"], card=f"kind.betrayal.card.{card}", loser=p["loser"])


def die(ctx: Ctx, pid: str) -> None:
    """B1.1, B4.3: a trait at the skull after the haunt kills; the cards drop in the room."""
    s = ctx.state
    e = explorers.get(s, pid)
    e["alive"] = False
    cards.drop_all(ctx, pid)
    ctx.announce("betrayal.died", player=pid, room=f"kind.betrayal.room.{e['room']}")
