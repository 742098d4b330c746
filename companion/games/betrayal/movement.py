"""Moving and exploring (B2.1). Entering a room costs 1 speed; after the haunt, leaving a room costs one
more per enemy in it (stunned monsters hinder nobody); a character can always move at least one room in
a turn. Exploring lays the next room of the right floor through an open doorway; a room that shows a
card ends the explorer's movement once the card is drawn."""

from __future__ import annotations

from companion.core.contract import Ctx, State
from companion.core.rejection import Rejected
from companion.games.betrayal import cards, data, explorers, house


def enemies_in(s: State, pid: str, room: str) -> int:
    """B2.1: after the haunt, the enemies of `pid` in `room`: for a hero the traitor and the monsters
    that are not stunned; for the traitor the living heroes."""
    h = s["haunt"]
    if h is None:
        return 0
    traitor = h["traitor"]
    if pid == traitor:
        return sum(1 for p in explorers.living(s) if p != pid and explorers.get(s, p)["room"] == room)
    traitor_here = traitor is not None and traitor in explorers.living(s) and explorers.get(s, traitor)["room"] == room
    foes = 1 if traitor_here else 0
    return foes + sum(1 for m in s["monsters"].values() if m["room"] == room and not m["stunned"])


def cost(s: State, pid: str) -> int:
    return 1 + enemies_in(s, pid, explorers.get(s, pid)["room"])


def speed_left(s: State, pid: str) -> int:
    return max(0, explorers.value(s, pid, "speed") - s["turn"]["spent"])


def may_leave(s: State, pid: str) -> bool:
    """Whether `pid` may enter one more room now (B2.1: at least one room a turn, whatever it costs)."""
    t = s["turn"]
    if t["stopped"]:
        return False
    return t["entered"] == 0 or t["spent"] + cost(s, pid) <= explorers.value(s, pid, "speed")


def _step(s: State, pid: str) -> None:
    if s["turn"]["stopped"]:
        raise Rejected("reject.betrayal_stopped")
    if not may_leave(s, pid):
        raise Rejected("reject.betrayal_too_far", left=speed_left(s, pid))


def arrive(ctx: Ctx, pid: str, room: str, paid: int) -> None:
    s = ctx.state
    t = s["turn"]
    t["spent"] += paid
    t["entered"] += 1
    explorers.get(s, pid)["room"] = room
    cards.followers_join(ctx, pid)  # B4.3


def move(ctx: Ctx, pid: str, to: str) -> None:
    s = ctx.state
    here = explorers.get(s, pid)["room"]
    if to not in s["rooms"] or not house.joined(s, here, to):
        raise Rejected("reject.betrayal_not_joined", room=f"kind.betrayal.room.{to}" if to in s["rooms"] else to[:24])
    _step(s, pid)
    arrive(ctx, pid, to, cost(s, pid))
    ctx.announce("betrayal.moved", player=pid, room=f"kind.betrayal.room.{to}")


def explore(ctx: Ctx, pid: str) -> None:
    """Step through an open doorway into the unknown: the table lays the room (phase ``room``)."""
    s = ctx.state
    here = explorers.get(s, pid)["room"]
    _step(s, pid)
    house.check_explore(s, here)
    s["pending"] = {"kind": "room", "player": pid, "from": here, "floor": s["rooms"][here]["floor"],
                    "cost": cost(s, pid)}


def room_laid(ctx: Ctx, room: str, joins: list[str] | None = None) -> None:
    """The tile the table laid, and the other rooms whose doorways its doorways face (issue 31). An
    explorer placed in a new room (`from` None) arrives without paying or counting a room entered."""
    s = ctx.state
    p = s["pending"]
    house.lay(s, p["from"], room, joins, p["floor"])
    s["pending"] = None
    if p["from"] is None:
        explorers.get(s, p["player"])["room"] = room
        cards.followers_join(ctx, p["player"])  # B4.3
    else:
        arrive(ctx, p["player"], room, p["cost"])
    ctx.announce("betrayal.room_found", player=p["player"], room=f"kind.betrayal.room.{room}",
                 floor=f"kind.betrayal.floor.{p['floor']}")
    _draw(ctx, p["player"], room)


def place(ctx: Ctx, pid: str, room: str | None, floor: str | None) -> None:
    """Issue 31: an event, a collapsing room or the host's correction puts an explorer in a laid room
    (no card: the rule text draws one only for a newly laid room) or in a new room of `floor`, which the
    table lays (phase ``room``), and whose card is drawn (the rule text: "若新摆放的房间印有任何卡片标记
    玩家亦需翻开另一张卡片"). No speed is paid and the turn's movement is not changed."""
    s = ctx.state
    if pid not in s["explorers"] or not s["explorers"][pid]["alive"]:
        raise Rejected("reject.not_a_player", player=pid[:32])
    if (room is None) == (floor is None):
        raise Rejected("reject.betrayal_room_or_floor")
    if room is not None:
        if room not in s["rooms"]:
            raise Rejected("reject.betrayal_unknown_room", room=f"kind.betrayal.room.{room}"
                           if room in data.of(s).room_ids() else room[:24])
        explorers.get(s, pid)["room"] = room
        cards.followers_join(ctx, pid)  # B4.3
        ctx.announce("betrayal.placed", player=pid, room=f"kind.betrayal.room.{room}")
        return
    assert floor is not None
    if pid != s["turn"]["actor"]:  # the new room's card is drawn on the turn it happens in
        raise Rejected("reject.betrayal_new_room_on_turn", player=pid)
    if not house.unplaced(s, floor):
        raise Rejected("reject.betrayal_floor_full")
    s["pending"] = {"kind": "room", "player": pid, "from": None, "floor": floor, "cost": 0}
    ctx.announce("betrayal.placed_new", player=pid, floor=f"kind.betrayal.floor.{floor}")


def _draw(ctx: Ctx, pid: str, room: str) -> None:
    s = ctx.state
    shows = data.of(s).room(room).card
    if shows is not None and drawable(s, shows):  # an empty omen or item deck shows nothing
        s["pending"] = {"kind": "card", "player": pid, "card": shows, "room": room}
        ctx.announce("betrayal.draw_card", player=pid, kind=f"kind.betrayal.cardkind.{shows}")


def drawable(s: State, kind: str) -> list[str]:
    """The cards of `kind` that can be drawn now: omens and items not already in play; any event."""
    taken = cards.in_play(s)
    return [c.id for c in data.of(s).cards(kind) if kind == "event" or c.id not in taken]


def card_drawn(ctx: Ctx, card: str) -> None:
    """The card the new room showed (B2.1): omens and items are kept face up (B2.2); an event is
    resolved by the table. Either way the explorer stops moving; an omen before the haunt counts
    towards the haunt roll (B3.1)."""
    s = ctx.state
    p = s["pending"]
    d = data.of(s)
    if d.card_kind(card) is None:
        raise Rejected("reject.betrayal_unknown_card", card=card[:24])
    if d.card_kind(card) != p["card"]:
        raise Rejected("reject.betrayal_wrong_card", kind=f"kind.betrayal.cardkind.{p['card']}")
    if card not in drawable(s, p["card"]):
        raise Rejected("reject.betrayal_card_in_play", card=f"kind.betrayal.card.{card}")
    s["pending"] = None
    s["turn"]["stopped"] = True
    pid = p["player"]
    if p["card"] == "event":
        s["last_event"] = {"card": card, "player": pid, "roll": d.card(card).roll}
    else:
        explorers.get(s, pid)["cards"].append(card)
    if p["card"] == "omen":
        s["omens"] += 1
        s["last_omen"] = {"card": card, "room": p["room"]}
        if s["haunt"] is None:
            s["turn"]["omen"] = True
    ctx.announce("betrayal.card_drawn", player=pid, card=f"kind.betrayal.card.{card}",
                 kind=f"kind.betrayal.cardkind.{p['card']}", omens=s["omens"])
