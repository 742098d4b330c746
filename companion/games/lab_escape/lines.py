"""Lab Escape as lines. Nearly everything is public: a player's lines are their own room, stamina and
items read back to them (from their own view), and the table's summary is where everyone stands."""

from __future__ import annotations

from typing import Any

from companion.core.lines import Lines


def private_lines(private: dict[str, Any]) -> Lines:
    out: Lines = []
    if private.get("room") is not None:
        out.append(("summary.lab_escape.your_room", {"room": f"kind.lab_escape.room.{private['room']}"}))
    if private.get("stamina") is not None:
        out.append(("summary.lab_escape.your_stamina", {"stamina": private["stamina"]}))
    items = private.get("items") or []
    out.append(("summary.lab_escape.your_items", {"count": len(items)}) if items
               else ("summary.lab_escape.no_items", {}))
    out += [("summary.lab_escape.item", {"item": f"kind.lab_escape.item.{item}"}) for item in items]
    if private.get("your_turn"):
        out.append(("summary.lab_escape.your_turn", {}))
    return out


def public_lines(public: dict[str, Any]) -> Lines:
    """Each player's room and stamina, in seat order."""
    people = (public.get("table") or {}).get("people") or {}
    return [("summary.lab_escape.person", {"player": pid, "room": f"kind.lab_escape.room.{p['room']}",
                                           "stamina": p["stamina"]})
            for pid, p in people.items() if p.get("room") is not None]
