"""What each audience sees. Everything in this game is public (stamina dice and items lie on the
table): each player's room, stamina and items, the lab, the display and the deck count, the supply,
what lies in rooms, whose turn and how far it went, and the last check and attack. Only the seeded
source stays inside."""

from __future__ import annotations

from typing import Any

from companion.core.contract import State
from companion.games.lab_escape import board, data, flow, geometry
from companion.parts import timers


def _card(card: str) -> dict[str, Any]:
    c = data.bundled().card(card)
    return {"card": card, "rooms": [{"room": r.id, "kind": r.kind, "vent": r.vent} for r in c.rooms]}


def public(s: State) -> dict[str, Any]:
    t = s["turn"]
    return {
        "order": list(s["order"]),
        "dice": "table" if s["table_dice"] else "referee",
        "deck": "physical" if s["physical"] else "digital",
        "turn": {"player": t["player"], "number": t["number"], "stage": flow.phase(s), "steps": t["steps"],
                 "visited": list(t["visited"]), "free_moves": t["free"], "food_used": t["food_used"],
                 "hurry": t["hurry"]},
        "people": {pid: {"room": p["room"], "stamina": p["stamina"], "items": list(p["items"])}
                   for pid, p in s["people"].items()},
        "lab": [_card(c) | geometry.public(s, c) for c in s["lab"]],
        "rooms": board.rooms_in_play(s),
        "display": [_card(c) for c in s["display"]],
        "deck_count": len(s["deck"]),
        "deck_left": list(s["deck"]),
        "supply": dict(s["supply"]),
        "spent": dict(s["spent"]),
        "floor": {room: list(things) for room, things in s["floor"].items()},
        "last_check": s["last_check"],
        "last_attack": s["last_attack"],
        "winner": None if s["finished"] is None else next(iter(s["finished"]["winners"]), None),
        "timers": {} if s["timer"] is None else {flow.TIMER: timers.public(s["timer"])},
        "timer_seconds": s["timer_seconds"],
    }


def player(s: State, pid: str) -> dict[str, Any]:
    """Nothing is secret: a player's view is their own line of the table, for the phone's header."""
    p = board.person(s, pid)
    return {"room": p["room"], "stamina": p["stamina"], "items": list(p["items"]),
            "your_turn": flow.current_player(s) == pid}
