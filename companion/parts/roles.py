"""Secret role deals: a seeded shuffle gives each player one role; each sees only their own."""

from __future__ import annotations

import random
from typing import Any

from companion.core.rejection import Rejected

Deal = dict[str, Any]


def deal(players: list[str], roles: list[str], rng: random.Random) -> Deal:
    """Deal `roles` (one per player, repeats allowed, extras left face down) at random."""
    if len(roles) < len(players):
        raise Rejected("reject.roles_too_few", roles=len(roles), players=len(players))
    pile = list(roles)
    rng.shuffle(pile)
    return {
        "assigned": dict(zip(players, pile, strict=False)),
        "unused": pile[len(players):],
        "pool": sorted(roles),
        "revealed": [],
    }


def reveal(d: Deal, player: str | None = None) -> None:
    """Reveal one player's role, or all of them."""
    targets = list(d["assigned"]) if player is None else [player]
    for p in targets:
        if p not in d["assigned"]:
            raise Rejected("reject.roles_no_player", player=p[:32])
        if p not in d["revealed"]:
            d["revealed"].append(p)


def public(d: Deal) -> dict[str, Any]:
    """The pool (what roles are in the game) is public, as with a real deal; the assignment is not."""
    return {"pool": d["pool"], "revealed": {p: d["assigned"][p] for p in d["revealed"]}}


def moderator(d: Deal) -> dict[str, Any]:
    """The whole deal, as a moderator who does not play sees it: who has which role, what is left."""
    return {"assigned": dict(d["assigned"]), "unused": list(d["unused"]), "revealed": list(d["revealed"])}


def private(d: Deal, player: str) -> str | None:
    return d["assigned"].get(player)
