"""What a player does in their action turn after moving (ruling L3): draws, drops, gold, the helipad, the
recycler, the rocket, declaring consumables. Room functions are in rooms.py.

Items are digital (the referee draws at random from the seeded source) or physical (players draw real
cards and tap them; the referee checks each against the room's stock): the game option `items`.
"""

from __future__ import annotations

import random
from typing import Any

from companion.core.rejection import Rejected
from companion.games.lockdown import data, items, mapgraph

State = dict[str, Any]


def _me(state: State, pid: str) -> dict[str, Any]:
    p: dict[str, Any] = state["people"][pid]
    if not state["turn_state"]["moved"]:
        raise Rejected("reject.lockdown_move_first")
    return p


def _living(state: State, pid: str, what: str) -> dict[str, Any]:
    p = _me(state, pid)
    if p["shadow"]:
        raise Rejected(what)
    return p


def stock_rule(state: State, room: str) -> data.Stock | None:
    fn = mapgraph.function_of(state, room)
    return data.items().stocks.get(fn) if fn is not None else None  # type: ignore[call-overload]


def drop_room(state: State, room: str) -> bool:
    """Cards may be dropped only where cards are drawn (the text), and at the helipad (L3.9)."""
    return stock_rule(state, room) is not None or mapgraph.function_of(state, room) == "helipad"


def draw(state: State, pid: str, rng: random.Random | None, count: int | None, cards: list[str]) -> list[str]:
    """L3.3: up to the room's limit per visit; `rng` for digital draws, `cards` (taps) for physical ones."""
    p = _living(state, pid, "reject.lockdown_shadow_no_draw")
    rule = stock_rule(state, p["room"])
    if rule is None:
        raise Rejected("reject.lockdown_not_a_draw_room", room=p["room"])
    ts = state["turn_state"]
    pile = state["stocks"][p["room"]]
    left = rule.limit - len(ts["drawn"])
    wanted = count if count is not None else len(cards)
    if wanted < 1 or wanted > left:
        raise Rejected("reject.lockdown_draw_limit", limit=rule.limit, left=left)
    if rng is not None:
        if wanted > len(pile):
            raise Rejected("reject.lockdown_stock_short", left=len(pile))
        got = [pile.pop(rng.randrange(len(pile))) for _ in range(wanted)]
    else:
        got = []
        for token in cards:
            card = items.find_kind(pile, token)
            if card is None:
                raise Rejected("reject.lockdown_not_in_stock", card=token[:24], room=p["room"])
            pile.remove(card)
            got.append(card)
    items.give(p, got)
    ts["drawn"].extend(got)
    return got


def drop(state: State, pid: str, cards: list[str]) -> None:
    p = _me(state, pid)
    if not drop_room(state, p["room"]):
        raise Rejected("reject.lockdown_cannot_drop_here", room=p["room"])
    # ids or kinds (issue 31): a kind drops a card drawn this turn first, then one not declared (L7.4: the
    # declaration stands when another card of the kind can go)
    cards = items.pick_held(p["items"], cards, [*items.undeclared(p), *state["turn_state"]["drawn"]])
    items.take_from(p["items"], cards)
    state["stocks"].setdefault(p["room"], []).extend(cards)


def gold(state: State, pid: str, card: str | None) -> str | None:
    """Item 6: spend a gold bar while drawing: see the room's cards and take one more (not a gold bar). Not
    in the junkyard (its stock rule says so). In two inputs, so the pick is never blind (issue 33): without
    `card` the bar is spent and the room's cards shown (`peek`; the bar is kept when nothing but gold bars
    is there to take); then `card`, a kind among them that is not gold, is taken."""
    p = _living(state, pid, "reject.lockdown_shadow_no_draw")
    rule = stock_rule(state, p["room"])
    if rule is None or not rule.gold:
        raise Rejected("reject.lockdown_no_gold_here", room=p["room"])
    ts, pile = state["turn_state"], state["stocks"][p["room"]]
    if card is None:
        bar = next((c for c in p["items"] if items.kind_of(c) == "gold"), None)
        if bar is None:
            raise Rejected("reject.lockdown_no_gold_held")
        if ts.get("gold_pick"):
            raise Rejected("reject.lockdown_gold_pick_first")
        if not pile:
            raise Rejected("reject.lockdown_stock_short", left=0)
        if ts["peek"] == sorted(pile) and all(items.kind_of(c) == "gold" for c in pile):
            raise Rejected("reject.lockdown_gold_nothing_to_take", room=p["room"])  # seen already
        ts["peek"] = sorted(pile)
        if any(items.kind_of(c) != "gold" for c in pile):
            items.consume(state, p, [bar])
            ts["gold_pick"] = True
        return None
    if not ts.get("gold_pick"):
        raise Rejected("reject.lockdown_gold_look_first")
    chosen = items.find_kind(pile, card)
    if chosen is None or items.kind_of(chosen) == "gold":
        raise Rejected("reject.lockdown_not_in_stock", card=card[:24], room=p["room"])
    pile.remove(chosen)
    items.give(p, [chosen])
    ts["gold_pick"] = False
    return chosen


def take(state: State, pid: str, cards: list[str]) -> None:
    """Ruling L3.9 at the helipad: one airdrop of the player's choice, and dropped items within load."""
    p = _living(state, pid, "reject.lockdown_shadow_no_draw")
    if mapgraph.function_of(state, p["room"]) != "helipad":
        raise Rejected("reject.lockdown_not_helipad")
    ts = state["turn_state"]
    dropped = state["stocks"].setdefault(p["room"], [])
    from_airdrops: list[str] = []
    from_dropped: list[str] = []
    for token in cards:
        left_dropped = [c for c in dropped if c not in from_dropped]
        left_airdrops = [c for c in state["airdrops"] if c not in from_airdrops]
        if token in left_dropped:
            from_dropped.append(token)
        elif (card := items.find_kind(left_airdrops, token)) is not None:
            from_airdrops.append(card)
        elif (card := items.find_kind(left_dropped, token)) is not None:
            from_dropped.append(card)
        else:
            raise Rejected("reject.lockdown_not_in_stock", card=token[:24], room=p["room"])
    if len(from_airdrops) > 1 or (from_airdrops and ts["airdrop_taken"]):
        raise Rejected("reject.lockdown_one_airdrop")
    if from_dropped and len(p["items"]) + len(from_dropped) + len(from_airdrops) > items.capacity(p):
        raise Rejected("reject.lockdown_over_load", load=items.capacity(p))
    items.take_from(state["airdrops"], from_airdrops)
    items.take_from(dropped, from_dropped)
    items.give(p, from_airdrops + from_dropped)
    ts["airdrop_taken"] = ts["airdrop_taken"] or bool(from_airdrops)


def recycle(state: State, pid: str, rng: random.Random | None, card: str | None) -> str:
    """Item 14: once per action turn, one card from the consumed pile, within load."""
    p = _living(state, pid, "reject.lockdown_shadow_no_items")
    ts = state["turn_state"]
    if not items.holds(p, "recycler"):
        raise Rejected("reject.lockdown_no_recycler")
    if ts["recycled"]:
        raise Rejected("reject.lockdown_recycled_already")
    if len(p["items"]) + 1 > items.capacity(p):
        raise Rejected("reject.lockdown_over_load", load=items.capacity(p))
    pile = state["consumed"]
    if not pile:
        raise Rejected("reject.lockdown_stock_short", left=0)
    if rng is not None:
        got = pile.pop(rng.randrange(len(pile)))
    else:
        found = items.find_kind(pile, card or "")
        if found is None:
            raise Rejected("reject.lockdown_not_in_stock", card=(card or "-")[:24], room="-")
        pile.remove(found)
        got = found
    items.give(p, [got])
    ts["recycled"] = True
    return got


def aim_rocket(state: State, pid: str, room: str) -> None:
    """Ruling L7.3: the rocket's holder names a room during their action."""
    p = _living(state, pid, "reject.lockdown_shadow_no_items")
    if not items.holds(p, "rocket"):
        raise Rejected("reject.lockdown_no_rocket")
    if room not in mapgraph.rooms(state):
        raise Rejected("reject.lockdown_no_such_room", room=room[:8])
    p["rocket_target"] = room


def declare(state: State, pid: str, cards: list[str]) -> None:
    """Ruling L7.4: the pills, alcohol and adrenaline to use at settlement step 6, in this order."""
    p = _living(state, pid, "reject.lockdown_shadow_no_items")
    # ids or kinds (issue 31: a physical card says its kind); each held card once. Already declared cards
    # of a kind are picked first, so declaring a kind again keeps the same cards.
    cards = items.pick_held(p["items"], cards, list(reversed(p["declared"])))
    for card in cards:
        c = items.counts([card])
        if not c["pill"] + c["alcohol"] + c["adrenaline"]:
            raise Rejected("reject.lockdown_not_consumable", card=card[:24])
    p["declared"] = list(cards)


# -- a tapped card the player already holds (issue 31) ---------------------------------------------------

#: What a tap of a held card may mean, in the order the offer lists them.
TAP_USES = ("draw", "take", "drop", "declare")


def tap_uses(state: State, pid: str, kind: str) -> list[str]:
    """What a tapped card of `kind` the player holds may mean now, by the rules: a new draw (a draw room
    with draws left, L3.3; it offers every kind, the stock being face down), a pick at the helipad (L3.9,
    one of the cards there is of that kind), dropping the held one (a drop room, L3.3) or using it (a
    consumable not all of whose held cards are declared yet, L7.4). Empty: the player holds none."""
    p = state["people"][pid]
    held = [c for c in p["items"] if items.kind_of(c) == kind]
    if not held or p["shadow"] or not state["turn_state"]["moved"]:
        return []
    ts = state["turn_state"]
    out: list[str] = []
    rule = stock_rule(state, p["room"])
    if rule is not None and len(ts["drawn"]) < rule.limit:
        out.append("draw")
    if mapgraph.function_of(state, p["room"]) == "helipad":
        here = state["stocks"].get(p["room"], []) + ([] if ts["airdrop_taken"] else state["airdrops"])
        if items.find_kind(here, kind) is not None:
            out.append("take")
    if drop_room(state, p["room"]):
        out.append("drop")
    c = items.counts([held[0]])
    if c["pill"] + c["alcohol"] + c["adrenaline"] and any(card not in p["declared"] for card in held):
        out.append("declare")
    return out


def use_tapped(state: State, pid: str, use: str, kind: str) -> list[str]:
    """Does `use` with a card of `kind` (one the rules allow now, `tap_uses`) and says which cards moved."""
    if use not in tap_uses(state, pid, kind):
        raise Rejected("reject.lockdown_tap_use_not_now", use=f"kind.lockdown_use_{use}"[:32],
                       card=f"kind.lockdown_item_{kind}"[:40])
    if use == "draw":
        return draw(state, pid, None, None, [kind])
    if use == "take":
        take(state, pid, [kind])
        return []
    if use == "drop":
        drop(state, pid, [kind])
        return []
    declare(state, pid, [*still_declared(state, pid), kind])  # after those already declared (L7.4: in order)
    return []


def still_declared(state: State, pid: str) -> list[str]:
    """The declared cards the player still holds (a declared card dropped since is no longer declared)."""
    p = state["people"][pid]
    return [c for c in p["declared"] if c in p["items"]]
