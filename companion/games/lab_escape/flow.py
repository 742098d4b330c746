"""The turn (E2): place a display card, refill the display, move, then activate, attack or nothing.

Phases: ``refill`` (physical deck: the table says which card it turned up), ``place`` (the player
puts a display card into the lab), ``move`` (steps one by one, then the end of the move), ``act``
(activate the room, attack, use an item, or end the turn). A turn timer (optional) runs from each
turn's start; when it expires the player finishes what the rules make mandatory (the card, at least
one step) and the turn then ends without an action.
"""

from __future__ import annotations

from typing import Any

from companion.core.contract import Ctx, State
from companion.core.rejection import Rejected
from companion.games.lab_escape import board, data, geometry, items, rooms
from companion.parts import dice, timers, turn_order

TIMER = "turn"


def phase(s: State) -> str | None:
    if s["finished"] is not None:
        return None
    if len(s["display"]) < 2 and s["deck"] and s["physical"]:
        return "refill"
    stage: str = s["turn"]["stage"]
    return stage


def current_player(s: State) -> str | None:
    if s["finished"] is not None:
        return None
    pid: str = s["turn"]["player"]
    return pid


def fresh_turn(pid: str, number: int, room: str) -> dict[str, Any]:
    return {"player": pid, "number": number, "stage": "place", "visited": [room], "steps": 0, "free": 0,
            "food_used": False, "hurry": False}


def refill(ctx: Ctx) -> None:
    """E2.1: draw until the display holds 2 (digital deck: the referee draws at random)."""
    s = ctx.state
    if s["physical"]:
        return
    while len(s["display"]) < 2 and s["deck"]:
        card = dice.draw(ctx.rng(), s["deck"])[0]
        s["display"].append(card)
        ctx.announce("lab_escape.card_drawn", card=data.card_word(card))


def drawn(ctx: Ctx, card: str) -> None:
    """Physical deck: the table reports the card it turned up."""
    s = ctx.state
    if card not in s["deck"]:
        raise Rejected("reject.lab_escape_not_in_deck", card=data.card_word(card))
    s["deck"].remove(card)
    s["display"].append(card)
    ctx.announce("lab_escape.card_drawn", card=data.card_word(card))


def begin(ctx: Ctx) -> None:
    """A turn's first stage: with no display card left there is nothing to place (E2.1)."""
    s = ctx.state
    if s["turn"]["stage"] == "place" and not s["display"] and not s["deck"]:
        s["turn"]["stage"] = "move"


def place(ctx: Ctx, pid: str, card: str, at: geometry.Spot | None = None,
          blocked: list[geometry.Door] | None = None) -> None:
    """E2.1: a display card into the lab, with its place and blocked doors when the table gives them
    (E1.1, issue 31)."""
    s = ctx.state
    if card not in s["display"]:
        raise Rejected("reject.lab_escape_not_displayed", card=data.card_word(card))
    geometry.place(s, card, at, blocked)
    s["display"].remove(card)
    s["lab"].append(card)
    ctx.announce("lab_escape.card_placed", player=pid, card=data.card_word(card))
    items.arm_empty_rooms(ctx)
    refill(ctx)
    s["turn"]["stage"] = "move"


def step_cost(s: State, pid: str, room: str, vent: bool) -> tuple[int, str]:
    """E2.2: what one more step into `room` costs, and what pays it (first, free, food, stamina).

    The first step is the move itself; each later step costs 1 unless a free move is banked (the
    Corridor) or the food's one free step this turn is left. A vent step adds 2, or 0 with the pipe map.
    """
    t = s["turn"]
    p = board.person(s, pid)
    if room not in board.rooms_in_play(s):
        raise Rejected("reject.lab_escape_room_not_in_play", room=data.room_word(room))
    if room in t["visited"]:
        raise Rejected("reject.lab_escape_visited", room=data.room_word(room))
    if vent and not (data.room_index()[p["room"]].vent and data.room_index()[room].vent):
        raise Rejected("reject.lab_escape_no_vent", room=data.room_word(room))
    if not vent:  # E1.1, E2.2: doors judged where the table gave the cards' places
        geometry.check_step(s, p["room"], room, items.held(s, pid, "access_card"))
    extra = 0 if not vent or items.held(s, pid, "pipe_map") else 2
    if t["steps"] == 0:
        return extra, "first"
    if t["free"] > 0:
        return extra, "free"
    if items.held(s, pid, "food") and not t["food_used"]:
        return extra, "food"
    return extra + 1, "stamina"


def legal_steps(s: State, pid: str, vent: bool) -> list[str]:
    """Rooms one step could reach now and the player could afford (door adjacency judged where the
    cards' places are known, else the table's)."""
    out = []
    for room in board.rooms_in_play(s):
        try:
            cost, _ = step_cost(s, pid, room, vent)
        except Rejected:
            continue
        if board.can_pay(s, pid, cost):
            out.append(room)
    return out


def step(ctx: Ctx, pid: str, room: str, vent: bool) -> None:
    s = ctx.state
    t = s["turn"]
    cost, source = step_cost(s, pid, room, vent)
    board.pay(ctx, pid, cost)  # E3.1
    if source == "free":
        t["free"] -= 1
    elif source == "food":
        t["food_used"] = True
    t["steps"] += 1
    t["visited"].append(room)
    ctx.announce("lab_escape.stepped", player=pid, room=data.room_word(room), cost=cost,
                 way=f"kind.lab_escape.way.{'vent' if vent else 'door'}")
    rooms.enter(ctx, pid, room, moving=True)


def end_move(ctx: Ctx, pid: str) -> None:
    """E2.3: every other player in the room where the move ends gains 1 stamina."""
    s = ctx.state
    if s["turn"]["steps"] == 0:
        raise Rejected("reject.lab_escape_must_move")
    here = board.person(s, pid)["room"]
    for other in board.in_room(s, here):
        if other != pid:
            board.gain_stamina(ctx, other, 1)
    s["turn"]["stage"] = "act"
    if s["turn"]["hurry"]:
        end_turn(ctx)


def stuck(ctx: Ctx, pid: str) -> None:
    """E6.1 (the FAQ's first question): skip the turn, drop every item here, go to the Hall at 1."""
    s = ctx.state
    if s["turn"]["steps"] > 0:
        raise Rejected("reject.lab_escape_already_moved")
    items.drop_all(ctx, pid)
    p = board.person(s, pid)
    p["room"] = data.HALL
    p["stamina"] = board.LOW
    ctx.announce("lab_escape.stuck", player=pid)
    end_turn(ctx)


def end_turn(ctx: Ctx) -> None:
    s = ctx.state
    if s["finished"] is not None:
        return
    nxt = turn_order.next_player(s["order"], s["turn"]["player"]) or s["turn"]["player"]
    s["turn"] = fresh_turn(nxt, s["turn"]["number"] + 1, board.person(s, nxt)["room"])
    ctx.announce("lab_escape.turn_started", player=nxt, turn=s["turn"]["number"])
    t = s["timer"]
    if t is not None and t["started"]:
        t["duration"] = s["timer_seconds"] * 1000
        timers.start(t, ctx.at)
    begin(ctx)


def time_up(ctx: Ctx) -> None:
    """The turn timer expired: in ``act`` the turn ends now; before that, once the move is done."""
    s = ctx.state
    ctx.announce("lab_escape.time_up", player=s["turn"]["player"])
    if s["turn"]["stage"] == "act":
        end_turn(ctx)
    else:
        s["turn"]["hurry"] = True
