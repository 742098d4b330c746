"""Every room of the text (E5): entering (triggers, the Hall, what lies on the floor) and activating.

`activate` runs a room's 『启动』 effect for a player standing there, or elsewhere through the Control
room or a wrench (the room's effect happens as if there: its items come from that room, E3.4).
"""

from __future__ import annotations

from typing import Annotated

from pydantic import Field, StringConstraints

from companion.core.contract import Args, Ctx, State
from companion.core.rejection import Rejected
from companion.games.lab_escape import board, checks, data, geometry, items
from companion.parts import timers

Name = Annotated[str, StringConstraints(min_length=1, max_length=32)]
Die = Annotated[int, Field(ge=1, le=6)]


class Effect(Args):
    """What a room's effect needs; each room reads only its own fields."""

    choice: Name | None = None  # Kitchen, Storage: which item
    number: int | None = Field(default=None, ge=1, le=6)  # Game room: the number named
    target: Name | None = None  # Secret passage: whose room to go to
    take: Name | None = None  # Secret passage: attack there at once, taking this item
    card: Name | None = None  # Mechanism room: the card the table moves
    room: Name | None = None  # Control room, wrench: the room whose effect to run
    roll: Die | None = None  # table dice: the die shown (the attacker's, in an attack)
    defense_roll: Die | None = None  # table dice: the defender's die


def kind(room: str) -> str:
    return data.room_index()[room].kind


def activatable(s: State) -> list[str]:
    """Rooms in play with a 『启动』 effect."""
    return [r for r in board.rooms_in_play(s) if data.kind_of(r).effect == "activate"]


def finish(ctx: Ctx, pid: str) -> None:
    """E6.2: the winner; everyone else shares second place."""
    s = ctx.state
    s["finished"] = {"ranking": [[pid], [p for p in s["order"] if p != pid]], "winners": [pid],
                     "reason": "lab_escape.win"}
    ctx.announce("lab_escape.won", player=pid)
    t = s["timer"]
    if t is not None and t["running"]:  # the game is over: no turn left to time
        timers.pause(t, ctx.at)


def enter(ctx: Ctx, pid: str, room: str, moving: bool) -> None:
    """A player enters `room`: the Hall with the USB key wins at once (E6.2: the key must be held on
    entering), then the floor is picked up (E3.4), then triggers (E2.2: they do not end the move).
    The Corridor's free move counts only during a move (`moving`)."""
    s = ctx.state
    p = board.person(s, pid)
    p["room"] = room
    k = kind(room)
    if k == data.HALL and data.USB_KEY in p["items"]:
        finish(ctx, pid)
        return
    items.pick_up(ctx, pid, room)
    if k == "dining":
        board.gain_stamina(ctx, pid, 1)
    elif k == "corridor" and moving:
        s["turn"]["free"] += 1
        ctx.announce("lab_escape.free_move", player=pid)


def _supplied(s: State, item: str) -> None:
    if not items.available(s, item):
        raise Rejected("reject.lab_escape_supply_empty", item=data.item_word(item))


def _checked_item(ctx: Ctx, pid: str, room: str, item: str, target: int, a: Effect) -> None:
    _supplied(ctx.state, item)
    if checks.check(ctx, pid, room, target, a.roll):
        items.take(ctx, pid, item)


def _choice(a: Effect, allowed: list[str]) -> str:
    if a.choice not in allowed:
        raise Rejected("reject.lab_escape_bad_choice", choices=", ".join(allowed))
    return a.choice


def activate(ctx: Ctx, pid: str, room: str, a: Effect, remote: bool = False) -> None:
    s = ctx.state
    if room not in board.rooms_in_play(s):
        raise Rejected("reject.lab_escape_room_not_in_play", room=data.room_word(room))
    spec = data.kind_of(room)
    if spec.effect != "activate":
        raise Rejected("reject.lab_escape_nothing_to_activate", room=data.room_word(room))
    k = kind(room)
    ctx.announce("lab_escape.activated", player=pid, room=data.room_word(room))
    if k in ("garden", "darkroom", "dark_chamber"):
        assert spec.target is not None
        _checked_item(ctx, pid, room, spec.gives[0], spec.target, a)
    elif k == "operating":  # E3.5: 13 minus 2 per item held
        assert spec.target is not None
        target = spec.target - spec.per_item * len(board.person(s, pid)["items"])
        _checked_item(ctx, pid, room, spec.gives[0], target, a)
    elif k == "storage":  # E3.5: 7, or 9 when only one of the chosen item remains
        item = _choice(a, spec.gives)
        assert spec.target is not None and spec.last_target is not None
        _checked_item(ctx, pid, room, item, spec.last_target if s["supply"].get(item) == 1 else spec.target, a)
    elif k == "kitchen":
        item = _choice(a, spec.gives)
        _supplied(s, item)
        items.spend(ctx, pid, "cat")
        items.take(ctx, pid, item)
    elif k == "archive":
        _supplied(s, data.USB_KEY)
        items.spend(ctx, pid, "key")
        items.take(ctx, pid, data.USB_KEY)
    elif k == "pharmacy":
        board.pay(ctx, pid, 1)
        board.flip(ctx, pid)
    elif k == "game_room":
        _game_room(ctx, pid, a)
    elif k == "telegraph":
        board.gain_stamina(ctx, pid, 2)
        for other in s["order"]:
            if other != pid:
                board.gain_stamina(ctx, other, 1)
    elif k == "mechanism":
        if a.card is None:  # no card named: say so, not "card None" (companion/naming.py: words, never ids)
            raise Rejected("reject.lab_escape_pick_card")
        if a.card not in board.cards_without_players(s):
            raise Rejected("reject.lab_escape_card_occupied", card=data.card_word(str(a.card)))
        geometry.forget(s, str(a.card))  # its new place is the table's to judge (E1.1)
        ctx.announce("lab_escape.card_moved", player=pid, card=data.card_word(str(a.card)))
    elif k == "secret_passage":
        _passage(ctx, pid, a)
    elif k == "control":
        if remote:
            raise Rejected("reject.lab_escape_control_twice")
        if a.room is None or a.room == room or kind(a.room) == "control":
            raise Rejected("reject.lab_escape_pick_room")
        board.pay(ctx, pid, 1)
        activate(ctx, pid, a.room, a, remote=True)


def _game_room(ctx: Ctx, pid: str, a: Effect) -> None:
    """E5: name n, roll (+1 coffee): >= n sets stamina to n+1 (capped at 6), else 1."""
    if a.number is None:
        raise Rejected("reject.lab_escape_name_number")
    roll = checks.die(ctx, a.roll, pid) + checks.bonus(ctx.state, pid)
    won = roll >= a.number
    ctx.announce("lab_escape.gamble", player=pid, number=a.number, roll=roll,
                 outcome=f"kind.lab_escape.check.{'rewarded' if won else 'failed'}")
    board.set_stamina(ctx, pid, a.number + 1 if won else 1)


def _passage(ctx: Ctx, pid: str, a: Effect) -> None:
    """E5: go to another player's room (an entry: Hall, floor, Dining apply; no Corridor free move as
    the move is over), then, with a weapon, attack a player there at once."""
    s = ctx.state
    others = [o for o in s["order"] if o != pid and board.person(s, o)["room"] != board.person(s, pid)["room"]]
    target = a.target
    if target is None or target not in others:
        raise Rejected("reject.lab_escape_pick_player")
    room = board.person(s, target)["room"]
    ctx.announce("lab_escape.passage", player=pid, room=data.room_word(room))
    enter(ctx, pid, room, moving=False)
    s["turn"]["visited"].append(room)
    if a.take is not None and s["finished"] is None:
        checks.attack(ctx, pid, target, a.take, a.roll, a.defense_roll)
