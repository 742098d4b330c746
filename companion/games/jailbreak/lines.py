"""Jailbreak as lines. Roles, characters and equipment lie face up on the table (J1.1, J1.2), so a
player's lines are their own seat read back to them, plus what they may still do this turn."""

from __future__ import annotations

from typing import Any

from companion.core.lines import Lines


def private_lines(private: dict[str, Any]) -> Lines:
    out: Lines = []
    if private.get("role") is not None:
        out.append(("summary.jailbreak.your_role", {"role": f"kind.jailbreak.role.{private['role']}"}))
    if private.get("character") is not None:
        out.append(("summary.jailbreak.your_character",
                    {"character": f"kind.jailbreak.character.{private['character']}"}))
    for item in private.get("equipment") or []:
        out.append(("summary.jailbreak.your_equipment", {"equipment": f"kind.jailbreak.equipment.{item}"}))
    if private.get("my_turn"):
        out.append(("summary.jailbreak.your_turn", {"keys": private.get("keys_left", 0),
                                                    "attacks": private.get("attacks_left", 0)}))
    return out


def public_lines(public: dict[str, Any]) -> Lines:
    """The turn's number and the cards left in the deck."""
    table = public.get("table") or {}
    turn = table.get("turn")
    if not turn:
        return []
    return [("summary.jailbreak.turn", {"number": turn["number"], "deck": table.get("deck", 0)})]
