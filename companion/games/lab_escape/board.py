"""The lab as the referee tracks it (E1.1): cards in play, each player's room and stamina, and the
rooms in play. Stamina is a die: every change is capped to 1..6 (E5), and paying is only from above 1
(E3.1)."""

from __future__ import annotations

from typing import Any

from companion.core.contract import Ctx, State
from companion.core.rejection import Rejected
from companion.games.lab_escape import data

LOW, HIGH = 1, 6


def person(s: State, pid: str) -> dict[str, Any]:
    p: dict[str, Any] = s["people"][pid]
    return p


def rooms_in_play(s: State) -> list[str]:
    """Every room of every card on the table, in the order the cards were placed."""
    rooms = data.rooms_of_card()
    return [r for card in s["lab"] for r in rooms[card]]


def in_room(s: State, room: str) -> list[str]:
    """The players in `room`, in turn order."""
    return [pid for pid in s["order"] if person(s, pid)["room"] == room]


def cards_without_players(s: State) -> list[str]:
    """Cards in play on which no player stands (the Mechanism room may move them, E5)."""
    taken = {data.card_of_room()[person(s, pid)["room"]] for pid in s["order"]}
    return [c for c in s["lab"] if c not in taken]


def set_stamina(ctx: Ctx, pid: str, value: int) -> None:
    """E5: stamina changes are capped to 1..6."""
    p = person(ctx.state, pid)
    new = max(LOW, min(HIGH, value))
    p["stamina"] = new
    ctx.announce("lab_escape.stamina", player=pid, stamina=new)


def gain_stamina(ctx: Ctx, pid: str, amount: int) -> None:
    set_stamina(ctx, pid, person(ctx.state, pid)["stamina"] + amount)


def can_pay(s: State, pid: str, amount: int) -> bool:
    """E3.1: stamina is paid only from above 1; a payment never takes the die below 1."""
    return amount == 0 or person(s, pid)["stamina"] - amount >= LOW


def pay(ctx: Ctx, pid: str, amount: int) -> None:
    """Pay `amount` stamina or refuse (E3.1; the FAQ's third question)."""
    if not can_pay(ctx.state, pid, amount):
        raise Rejected("reject.lab_escape_cannot_pay", amount=amount, stamina=person(ctx.state, pid)["stamina"])
    if amount:
        person(ctx.state, pid)["stamina"] -= amount


def flip(ctx: Ctx, pid: str) -> None:
    """Turn the die over: 1 becomes 6, 2 becomes 5... (Pharmacy, adrenaline)."""
    set_stamina(ctx, pid, 7 - person(ctx.state, pid)["stamina"])
