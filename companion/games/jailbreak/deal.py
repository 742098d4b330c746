"""Setup by player count (J1): who is a sheriff, each sheriff's equipment, the prisoners' characters,
everyone in scene 1 with four cards, and the deck that is left."""

from __future__ import annotations

import random
from typing import Any

from companion.core.rejection import Rejected
from companion.games.jailbreak import data


def seats(n: int) -> data.Seats:
    """J1.1: the text's table for 3-8 players."""
    spec = data.table().players.get(n)
    if spec is None:
        raise Rejected("reject.jailbreak_player_count", got=n)
    return spec


def sheriffs(players: list[str], chosen: list[str] | None, rnd: random.Random) -> list[str]:
    """The sheriffs, first sheriff first: as the table chose them, or drawn at random (J1.1)."""
    want = seats(len(players)).sheriffs
    if chosen is None:
        return rnd.sample(players, want)
    if len(chosen) != want:
        raise Rejected("reject.jailbreak_sheriff_count", count=want)
    for pid in chosen:
        if pid not in players:
            raise Rejected("reject.not_a_player", player=pid)
    if len(set(chosen)) != len(chosen):
        raise Rejected("reject.jailbreak_sheriff_twice")
    return list(chosen)


def default_equipment(pieces: list[int]) -> list[list[str]]:
    """The badge to the first sheriff, then pistol, handcuffs, baton in that order (docs/games/jailbreak.md)."""
    out: list[list[str]] = []
    left = list(data.EQUIPMENT)
    for n in pieces:
        out.append(left[:n])
        left = left[n:]
    return out


def equipment(n_players: int, chosen: list[list[str]] | None) -> list[list[str]]:
    """Each sheriff's pieces (J1.1): the table's counts, no piece twice, the badge with a sheriff."""
    pieces = seats(n_players).equipment
    if chosen is None:
        return default_equipment(pieces)
    if [len(c) for c in chosen] != pieces:
        raise Rejected("reject.jailbreak_equipment_count", counts=pieces)
    flat = [e for c in chosen for e in c]
    if len(set(flat)) != len(flat):
        raise Rejected("reject.jailbreak_equipment_twice")
    if "badge" not in flat:
        raise Rejected("reject.jailbreak_badge_missing")
    return [list(c) for c in chosen]


def people(players: list[str]) -> dict[str, dict[str, Any]]:
    """J1.3: everyone starts in scene 1 with four cards, face up, uncuffed."""
    return {
        pid: {"scene": 1, "reached": 1, "hand": data.START_HAND, "flipped": False, "cuffed_by": None, "bible": False}
        for pid in players
    }


def characters(prisoners: list[str], rnd: random.Random) -> dict[str, str]:
    """J1.2: each prisoner draws a random character card; the cards are shown at once (public)."""
    cards = [c.id for c in data.characters().characters]
    if len(cards) < len(prisoners):
        raise Rejected("reject.jailbreak_few_characters", count=len(cards))
    return dict(zip(prisoners, rnd.sample(cards, len(prisoners)), strict=True))
