"""Omen and item cards an explorer keeps face up (B2.2): handed over (one per turn, to someone in the
same room), dropped into the room's item pile, taken from it, used once a turn; the companions that
follow (`follows` in the data: the dog, the girl, the madman) are never handed over or dropped, and
after their keeper dies they follow the first character to reach the room (B4.3)."""

from __future__ import annotations

from companion.core.contract import Ctx, State
from companion.core.rejection import Rejected
from companion.games.betrayal import data, explorers


def tradable(s: State, card: str) -> bool:
    return not data.of(s).card(card).follows


def held(s: State, pid: str, card: str) -> None:
    if card not in explorers.get(s, pid)["cards"]:
        raise Rejected("reject.betrayal_not_holding", card=f"kind.betrayal.card.{card}")


def _movable(s: State, pid: str, card: str) -> None:
    held(s, pid, card)
    if not tradable(s, card):
        raise Rejected("reject.betrayal_card_follows", card=f"kind.betrayal.card.{card}")
    if card in s["turn"]["used"]:
        raise Rejected("reject.betrayal_card_used", card=f"kind.betrayal.card.{card}")


def give(ctx: Ctx, pid: str, card: str, to: str) -> None:
    """B2.2: one card a turn, to a living explorer in the same room."""
    s = ctx.state
    _movable(s, pid, card)
    if s["turn"]["gave"]:
        raise Rejected("reject.betrayal_gave_already")
    other = s["explorers"].get(to)
    if other is None or to == pid or not other["alive"] or other["room"] != explorers.get(s, pid)["room"]:
        raise Rejected("reject.betrayal_not_here", player=to[:32])
    explorers.get(s, pid)["cards"].remove(card)
    other["cards"].append(card)
    s["turn"]["gave"] = True
    ctx.announce("betrayal.card_given", player=pid, card=f"kind.betrayal.card.{card}", to=to)


def drop(ctx: Ctx, pid: str, card: str) -> None:
    s = ctx.state
    _movable(s, pid, card)
    e = explorers.get(s, pid)
    e["cards"].remove(card)
    s["rooms"][e["room"]]["pile"].append(card)
    ctx.announce("betrayal.card_dropped", player=pid, card=f"kind.betrayal.card.{card}",
                 room=f"kind.betrayal.room.{e['room']}")


def take(ctx: Ctx, pid: str, card: str) -> None:
    s = ctx.state
    e = explorers.get(s, pid)
    pile = s["rooms"][e["room"]]["pile"]
    if card not in pile:
        raise Rejected("reject.betrayal_not_in_pile", card=f"kind.betrayal.card.{card}")
    pile.remove(card)
    e["cards"].append(card)
    ctx.announce("betrayal.card_taken", player=pid, card=f"kind.betrayal.card.{card}")


def use(ctx: Ctx, pid: str, card: str) -> None:
    """An item's power once a turn; once used it cannot be handed over or dropped this turn (B2.2)."""
    s = ctx.state
    held(s, pid, card)
    if card in s["turn"]["used"]:
        raise Rejected("reject.betrayal_card_used", card=f"kind.betrayal.card.{card}")
    s["turn"]["used"].append(card)
    ctx.announce("betrayal.card_used", player=pid, card=f"kind.betrayal.card.{card}")


def drop_all(ctx: Ctx, pid: str) -> None:
    """B4.3: a dead explorer's cards, the followers too, drop into the room's pile."""
    s = ctx.state
    e = explorers.get(s, pid)
    s["rooms"][e["room"]]["pile"].extend(e["cards"])
    e["cards"] = []


def followers_join(ctx: Ctx, pid: str) -> None:
    """B4.3: followers left in a pile follow the first character to arrive."""
    s = ctx.state
    e = explorers.get(s, pid)
    pile = s["rooms"][e["room"]]["pile"]
    for card in [c for c in pile if not tradable(s, c)]:
        pile.remove(card)
        e["cards"].append(card)
        ctx.announce("betrayal.follower_joined", player=pid, card=f"kind.betrayal.card.{card}")


def in_play(s: State) -> set[str]:
    """Omens and items someone holds or that lie in a pile (not in their deck)."""
    out = {c for e in s["explorers"].values() for c in e["cards"]}
    return out | {c for r in s["rooms"].values() for c in r["pile"]}
