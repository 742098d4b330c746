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


def room_laid(ctx: Ctx, room: str) -> None:
    s = ctx.state
    p = s["pending"]
    house.lay(s, p["from"], room)
    s["pending"] = None
    arrive(ctx, p["player"], room, p["cost"])
    ctx.announce("betrayal.room_found", player=p["player"], room=f"kind.betrayal.room.{room}",
                 floor=f"kind.betrayal.floor.{p['floor']}")
    shows = data.of(s).room(room).card
    if shows is not None and drawable(s, shows):  # an empty omen or item deck shows nothing
        s["pending"] = {"kind": "card", "player": p["player"], "card": shows, "room": room}
        ctx.announce("betrayal.draw_card", player=p["player"], kind=f"kind.betrayal.cardkind.{shows}")


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
