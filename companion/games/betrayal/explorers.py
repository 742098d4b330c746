"""Explorers and their four trait tracks (B1.1): a trait is an index into its track; the skull is below
index 0. Before the haunt a trait never drops below its lowest value; after it, reaching the skull kills."""

from __future__ import annotations

from typing import Any

from companion.core.contract import State
from companion.games.betrayal import data

Explorer = dict[str, Any]


def new(character: data.Character, room: str) -> Explorer:
    return {
        "character": character.id,
        "traits": {t: character.track(t).start for t in data.TRAITS},
        "room": room,
        "cards": [],
        "alive": True,
    }


def get(s: State, pid: str) -> Explorer:
    e: Explorer = s["explorers"][pid]
    return e


def track(s: State, pid: str, trait: str) -> list[int]:
    return data.of(s).character(get(s, pid)["character"]).track(trait).values


def value(s: State, pid: str, trait: str) -> int:
    """The current value of a trait (0 on the skull)."""
    i = get(s, pid)["traits"][trait]
    return 0 if i < 0 else track(s, pid, trait)[i]


def living(s: State) -> list[str]:
    """Explorers alive, in seating order."""
    return [p for p in s["seats"] if s["explorers"][p]["alive"]]


def haunted(s: State) -> bool:
    return s["haunt"] is not None


def shift(s: State, pid: str, trait: str, steps: int) -> bool:
    """Move a trait `steps` along its track (negative: down). Returns True when it reached the skull.

    B1.1: the top of the track is a ceiling; before the haunt the lowest value is a floor, after the
    haunt the skull (index -1) is where the explorer dies."""
    e = get(s, pid)
    top = len(track(s, pid, trait)) - 1
    low = -1 if haunted(s) else 0
    e["traits"][trait] = max(low, min(top, e["traits"][trait] + steps))
    return bool(e["traits"][trait] < 0)


def public(s: State, pid: str) -> dict[str, Any]:
    e = get(s, pid)
    return {
        "character": e["character"],
        "room": e["room"],
        "alive": e["alive"],
        "cards": list(e["cards"]),
        "traits": {
            t: {"index": e["traits"][t], "value": value(s, pid, t), "skull": e["traits"][t] < 0,
                "track": track(s, pid, t)}
            for t in data.TRAITS
        } if e["character"] else {},
    }
