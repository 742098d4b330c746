"""What each audience sees. Public: the house, every explorer's traits and cards (kept face up), the
omen count, the haunt roll as a moment, the haunt's number, revealer and traitor, the monsters, whose
turn it is and the turn order, and the timer. Never a side's goals: after the haunt a hero's phone
shows the heroes' goals and the traitor's phone the traitor's (B3.3). The host plays too and is told
no goals."""

from __future__ import annotations

from typing import Any

from companion.core.contract import State
from companion.games.betrayal import data, explorers, flow, house, monsters, movement
from companion.parts import timers


def _haunt(s: State) -> dict[str, Any] | None:
    h = s["haunt"]
    if h is None:
        return None
    return {k: h[k] for k in ("number", "revealer", "traitor", "omen", "room", "rule")} | {
        "title": f"kind.betrayal.haunt.{h['number']}"}


def order(s: State) -> list[str]:
    """The turn order from the player whose turn it is (B1.2 before the haunt, B3.3 after)."""
    if s["turn"] is None:
        return []
    alive = set(explorers.living(s))
    if s["haunt"] is None:
        seats: list[str] = s["seats"]
        i = seats.index(s["turn"]["actor"])
        return [p for p in seats[i:] + seats[:i] if p in alive]
    ring = flow.cycle(s)
    i = ring.index(s["turn"]["actor"])
    return [a for a in ring[i:] + ring[:i] if a == flow.MONSTERS or a in alive]


def _turn(s: State) -> dict[str, Any] | None:
    t = s["turn"]
    if t is None:
        return None
    out = {k: t[k] for k in ("actor", "number", "spent", "entered", "stopped", "attacked", "gave", "used", "voluntary")}
    if t["actor"] != flow.MONSTERS and explorers.get(s, t["actor"])["alive"]:
        out["speed_left"] = movement.speed_left(s, t["actor"])
    return out


def _pending(s: State) -> dict[str, Any] | None:
    p = s["pending"]
    if p is None:
        return None
    keep = ("kind", "player", "card", "room", "floor", "from", "amount", "loser", "winner", "pair")
    return {k: p[k] for k in keep if k in p}


def public(s: State) -> dict[str, Any]:
    return {
        "today": s["today"],
        "seats": list(s["seats"]),
        "explorers": {pid: explorers.public(s, pid) for pid in s["seats"]},
        "rooms": {rid: {"floor": r["floor"], "joins": list(r["joins"]), "pile": list(r["pile"]),
                        "open_doors": house.open_doors(s, rid)} for rid, r in s["rooms"].items()},
        "omens": s["omens"],
        "last_omen": s["last_omen"],
        "moment": s["moment"],
        "haunt": _haunt(s),
        "turn": _turn(s),
        "order": order(s),
        "pending": _pending(s),
        "monsters": monsters.public(s),
        "monsters_to_place": monsters.left_to_place(s),
        "monster_rolls": monsters.rolls(s),
        "last_roll": s["last_roll"],
        "last_attack": s["last_attack"],
        "last_event": s["last_event"],
        "timers": {} if s["timer"] is None else {flow.TIMER: timers.public(s["timer"])},
        "timer_seconds": s["timer_seconds"],
    }


def side(s: State, pid: str) -> str | None:
    h = s["haunt"]
    if h is None:
        return None
    return "traitor" if pid == h["traitor"] else "heroes"


def player(s: State, pid: str) -> dict[str, Any]:
    """B3.3: each side's goals only to that side."""
    mine = side(s, pid)
    goals = None
    if mine is not None:
        g = data.of(s).haunt(s["haunt"]["number"]).goals
        goals = (g.traitor if mine == "traitor" else g.heroes).model_dump()
    return {"side": mine, "goals": goals, "character": s["explorers"][pid]["character"]}
