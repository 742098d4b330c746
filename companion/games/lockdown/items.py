"""Item cards: what a player's cards count as, force, guns, load, and moving cards between places.

A card is a string ``<kind>-<n>`` ("water-3", "airdrop1-1"). Every card is in exactly one place:
a room stock, a player's hand, the consumed pile, the morgue's incoming pile, the helipad's airdrops,
or out of the game (airdrops not yet dropped, gold exchanged at the end).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from companion.core.rejection import Rejected
from companion.games.lockdown import data

State = dict[str, Any]
NO_LIMIT = 99


def kind_of(card: str) -> str:
    return card.rsplit("-", 1)[0]


def counts(cards: list[str]) -> Counter[str]:
    """What `cards` count as, all together (ruling L3.1: items stack, airdrops count as their contents)."""
    total: Counter[str] = Counter()
    kinds = data.items().kinds
    for card in cards:
        total.update(kinds[kind_of(card)].counts)
    return total


def has_gun(p: dict[str, Any]) -> bool:
    """Ruling L3.2: a gunner holds a pistol or a shotgun (airdrop 4 counts as a pistol)."""
    c = counts(p["items"])
    return c["pistol"] + c["shotgun"] > 0


def force(p: dict[str, Any]) -> int:
    """Ruling L3.2: base force + 2 per knife + 2 per pistol + 4 per shotgun. Shadows have none (L8.1)."""
    if p["shadow"]:
        return 0
    c = counts(p["items"])
    return int(p["genes"]["force"]) + 2 * c["knife"] + 2 * c["pistol"] + 4 * c["shotgun"]


def capacity(p: dict[str, Any]) -> int:
    """How many cards the player may hold: their load; no limit with the dimension pocket (item 13)."""
    if p["shadow"]:
        return 0
    if counts(p["items"])["pocket"]:
        return NO_LIMIT
    return int(p["genes"]["load"])


def over_load(p: dict[str, Any]) -> int:
    return max(0, len(p["items"]) - capacity(p))


def holds(p: dict[str, Any], what: str) -> bool:
    return counts(p["items"])[what] > 0


def take_from(pile: list[str], cards: list[str]) -> None:
    """Remove `cards` from `pile`, all or none."""
    left = list(pile)
    for card in cards:
        if card not in left:
            raise Rejected("reject.lockdown_no_such_card", card=card)
        left.remove(card)
    pile[:] = left


def give(p: dict[str, Any], cards: list[str]) -> None:
    p["items"].extend(cards)


def pick_held(hand: list[str], named: list[str], prefer: list[str] | None = None) -> list[str]:
    """The held cards `named` means, each a card id or a kind (issue 31: a physical card says only its
    kind; ruling L3 + docs "physical cards": cards of one kind are interchangeable, so the referee picks
    one the player holds). A kind picks the latest of `prefer` first (the cards drawn this turn: the one
    just drawn is the one put back), else the first held; each card is picked once. Any name not held is
    refused, naming what was said."""
    left = list(hand)
    late = list(reversed(prefer or []))
    out: list[str] = []
    for name in named:
        if name in left:
            card: str | None = name
        elif name in data.items().kinds:
            mine = [c for c in left if kind_of(c) == name]
            card = next((c for c in late if c in mine), mine[0] if mine else None)
        else:
            card = None
        if card is None and name in data.items().kinds:
            raise Rejected("reject.lockdown_kind_not_held", card=f"kind.lockdown_item_{name}")
        if card is None:
            raise Rejected("reject.lockdown_no_such_card", card=name[:24])
        left.remove(card)
        out.append(card)
    return out


def undeclared(p: dict[str, Any]) -> list[str]:
    """The held cards not declared for the settlement (L7.4), as `pick_held`'s `prefer` (the first held
    picked first): what a kind named in a drop or a discard takes before a declared card, so the
    declaration stands."""
    return [c for c in reversed(p["items"]) if c not in p["declared"]]


def find_kind(pile: list[str], token: str) -> str | None:
    """A card of the pile matching a tapped card: that very card, or one of the same kind (physical mode:
    cards of one kind are interchangeable, ruling L3 + docs "physical cards")."""
    if token in pile:
        return token
    kind = token if token in data.items().kinds else kind_of(token)
    return next((c for c in pile if kind_of(c) == kind), None)


def new_deck() -> tuple[dict[str, list[str]], list[str]]:
    """Every card of the game: the stocks by function, and the airdrops (out of the game until dropped)."""
    spec = data.items()
    serial: Counter[str] = Counter()

    def make(kind: str) -> str:
        serial[kind] += 1
        return f"{kind}-{serial[kind]}"

    stocks: dict[str, list[str]] = {
        fn: [make(k) for k, n in s.cards.items() for _ in range(n)] for fn, s in spec.stocks.items()
    }
    airdrops = [make(k) for k in spec.airdrops]
    return stocks, airdrops


def all_places(state: State) -> list[str]:
    """Every card wherever it is (the property tests check each card is in exactly one place)."""
    out: list[str] = []
    for pile in state["stocks"].values():
        out += pile
    for p in state["people"].values():
        out += p["items"]
    return out + state["consumed"] + state["morgue_incoming"] + state["airdrops"] + state["out"]


def consume(state: State, p: dict[str, Any], cards: list[str]) -> None:
    """Used cards go to the consumed pile (ruling L3.4; the recycler draws from it)."""
    take_from(p["items"], cards)
    state["consumed"].extend(cards)
