"""Dice, ability checks (E3.2) and attacks (E4.1).

Dice are rolled by the referee from the seeded source, or, with the option ``dice = "table"``, read
from real dice: the input then carries the face shown (``roll``, and ``defense_roll`` for the
defender of an attack). Coffee adds 1 to every roll of its holder (E3.2, E4.1).
"""

from __future__ import annotations

from typing import Any

from companion.core.contract import Ctx, State
from companion.core.rejection import Rejected
from companion.games.lab_escape import board, data, items
from companion.parts import dice


def die(ctx: Ctx, given: int | None, who: str) -> int:
    """One d6: the referee's (seeded) or the table's (given in the input), never both."""
    if ctx.state["table_dice"]:
        if given is None:
            raise Rejected("reject.lab_escape_roll_needed", player=who)
        return given
    if given is not None:
        raise Rejected("reject.lab_escape_roll_not_expected")
    return dice.roll(ctx.rng(), 1, 6)[0]


def bonus(s: State, pid: str) -> int:
    return 1 if items.held(s, pid, "coffee") else 0


def check(ctx: Ctx, pid: str, room: str, target: int, given: int | None) -> bool:
    """E3.2: d6 (+1 coffee) + stamina >= target. Success pays 1 stamina for the reward; a player at 1
    cannot pay and gets nothing (E3.1, the FAQ's third question). Returns whether the reward is earned."""
    s = ctx.state
    roll = die(ctx, given, pid)
    stamina = board.person(s, pid)["stamina"]
    total = roll + bonus(s, pid) + stamina
    success = total >= target
    paid = success and board.can_pay(s, pid, 1)
    if paid:
        board.pay(ctx, pid, 1)
    s["last_check"] = {"player": pid, "room": room, "target": target, "roll": roll, "bonus": bonus(s, pid),
                       "stamina": stamina, "total": total, "success": success, "rewarded": paid}
    ctx.announce("lab_escape.check", player=pid, room=data.room_word(room), target=target, roll=roll, total=total,
                 outcome=f"kind.lab_escape.check.{'rewarded' if paid else 'unpaid' if success else 'failed'}")
    return paid


def attack(ctx: Ctx, attacker: str, defender: str, take: str, roll: int | None, defense_roll: int | None) -> bool:
    """E4.1: both roll (+1 coffee each); the higher stamina adds 1; the USB key holder adds 1 defending.
    Attacker's total >= defender's: the attacker takes `take` and the defender takes the weapon."""
    s = ctx.state
    if defender not in s["people"]:  # a name from another table (a hostile or stale phone): refused, not a crash
        raise Rejected("reject.not_a_player", player=defender[:32])
    a, d = board.person(s, attacker), board.person(s, defender)
    if not items.held(s, attacker, data.WEAPON):
        raise Rejected("reject.lab_escape_no_weapon")
    if defender == attacker or d["room"] != a["room"]:
        raise Rejected("reject.lab_escape_not_here", player=defender)
    if take not in d["items"]:
        raise Rejected("reject.lab_escape_not_theirs", player=defender, item=data.item_word(take))
    a_roll = die(ctx, roll, attacker)
    d_roll = die(ctx, defense_roll, defender)
    a_total = a_roll + bonus(s, attacker) + (1 if a["stamina"] > d["stamina"] else 0)
    d_total = (d_roll + bonus(s, defender) + (1 if d["stamina"] > a["stamina"] else 0)
               + (1 if data.USB_KEY in d["items"] else 0))
    won = a_total >= d_total
    record: dict[str, Any] = {"attacker": attacker, "defender": defender, "item": take, "rolls": [a_roll, d_roll],
                              "totals": [a_total, d_total], "won": won}
    s["last_attack"] = record
    ctx.announce("lab_escape.attack", attacker=attacker, defender=defender, attack=a_total, defense=d_total,
                 outcome=f"kind.lab_escape.attack.{'won' if won else 'lost'}")
    if won:
        items.lose(s, attacker, data.WEAPON)
        items.lose(s, defender, take)
        items.gain(ctx, defender, data.WEAPON)
        items.gain(ctx, attacker, take)
    return won
