"""What each audience sees. Everything the referee keeps is public at a real table: roles and
characters are shown (J1.1, J1.2), scenes, hand sizes, the deck count, flips, cuffs and bibles lie on
the table. The hands themselves are never known to the referee. A player's view adds only what they may
do this turn (their limits); the rng seed is the one secret and is never in a view."""

from __future__ import annotations

from typing import Any

from companion.core.contract import State
from companion.games.jailbreak import data, flow
from companion.parts import timers


def public(s: State) -> dict[str, Any]:
    t = s["turn"]
    return {
        "order": list(s["order"]),
        "direction": "counter-clockwise",
        "roles": dict(s["roles"]),
        "equipment": {pid: list(e) for pid, e in s["equipment"].items()},
        "characters": dict(s["characters"]),
        "people": {pid: dict(p) for pid, p in s["people"].items()},
        "scenes": data.SCENES,
        "deck": s["deck"],
        "deck_size": s["deck_size"],
        "drawn": s["drawn"],
        "badge_used": s["badge_used"],
        "turn": {
            "player": t["player"],
            "number": t["number"],
            "phase": flow.phase(s),
            "keys": t["keys"],
            "key_limit": t["key_limit"],
            "attacks": t["attacks"],
            "attack_limit": t["attack_limit"],
            "bullet_target": t["bullet_target"],
            "pending": None if t["pending"] is None else dict(t["pending"]),
        },
        "timers": {} if s["timer"] is None else {flow.TIMER: timers.public(s["timer"])},
        "timer_seconds": s["timer_seconds"],
    }


def player(s: State, pid: str) -> dict[str, Any]:
    t = s["turn"]
    mine = t["player"] == pid
    return {
        "role": s["roles"][pid],
        "character": s["characters"].get(pid),
        "equipment": list(s["equipment"].get(pid, [])),
        "my_turn": mine,
        "keys_left": max(0, t["key_limit"] - t["keys"]) if mine else 0,
        "attacks_left": max(0, t["attack_limit"] - t["attacks"]) if mine else 0,
    }
