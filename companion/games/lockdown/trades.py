"""Free-phase trades (the text: order cards and item cards, only in the free phase), confirmed by both sides.

A player offers another player some of their cards (by kind) for some of the other's (by kind), and/or
a swap of order cards; it happens only when the other accepts, and only if both still hold what was
offered. Offers are secret between the two. Shadows hold no items (L8.1), so they trade order cards only.
Over-load is allowed during the free phase and trimmed at its end (L3.3, flow.trim_to_load).
"""

from __future__ import annotations

from typing import Any

from companion.core.rejection import Rejected
from companion.games.lockdown import data, items

State = dict[str, Any]
MAX_OPEN = 20
MAX_CARDS = 10  # cards one side of an offer names at most (moves.OfferArgs and the trade form)


def _pick(p: dict[str, Any], kinds: list[str]) -> list[str] | None:
    """Cards of `p` matching `kinds` (one each), or None when they are not all held."""
    left = list(p["items"])
    out = []
    for kind in kinds:
        card = items.find_kind(left, kind)
        if card is None:
            return None
        left.remove(card)
        out.append(card)
    return out


def offer(state: State, pid: str, to: str, give: list[str], get: list[str], swap_order: bool) -> str:
    if to not in state["people"] or to == pid:
        raise Rejected("reject.not_a_player", player=to[:32])
    if not give and not get and not swap_order:
        raise Rejected("reject.lockdown_empty_trade")
    if (give or get) and (state["people"][pid]["shadow"] or state["people"][to]["shadow"]):
        raise Rejected("reject.lockdown_shadow_no_items")
    known = data.items().kinds
    if any(kind not in known and items.kind_of(kind) not in known for kind in [*give, *get]):
        raise Rejected("reject.lockdown_trade_not_held")
    if _pick(state["people"][pid], give) is None:
        raise Rejected("reject.lockdown_trade_not_held")
    if len(state["trades"]) >= MAX_OPEN:
        raise Rejected("reject.lockdown_too_many_trades")
    state["trade_seq"] += 1
    tid = f"t{state['trade_seq']}"
    state["trades"][tid] = {"from": pid, "to": to, "give": list(give), "get": list(get), "swap_order": swap_order}
    return tid


def fits(state: State, t: dict[str, Any]) -> bool:
    """Whether both sides still hold what the trade names (the giver what they give, the receiver what is
    asked): only then can it be accepted (the forms offer Accept only then, issue 33)."""
    a, b = state["people"][t["from"]], state["people"][t["to"]]
    return _pick(a, t["give"]) is not None and _pick(b, t["get"]) is not None


def accept(state: State, pid: str, tid: str) -> None:
    t = state["trades"].get(tid)
    if t is None or t["to"] != pid:
        raise Rejected("reject.lockdown_no_such_trade", trade=tid[:12])
    a, b = state["people"][t["from"]], state["people"][pid]
    mine, theirs = _pick(a, t["give"]), _pick(b, t["get"])
    if mine is None or theirs is None:
        raise Rejected("reject.lockdown_trade_stale", trade=tid)
    items.take_from(a["items"], mine)
    items.take_from(b["items"], theirs)
    items.give(a, theirs)
    items.give(b, mine)
    if t["swap_order"]:
        a["order"], b["order"] = b["order"], a["order"]
    del state["trades"][tid]


def withdraw(state: State, pid: str, tid: str) -> None:
    """Either side may call an offer off (the receiver declines, the sender withdraws)."""
    t = state["trades"].get(tid)
    if t is None or pid not in (t["from"], t["to"]):
        raise Rejected("reject.lockdown_no_such_trade", trade=tid[:12])
    del state["trades"][tid]


def discard(state: State, pid: str, cards: list[str]) -> None:
    """Free-phase load adjustment, only over the load (L3.3): cards thrown away go to the room's stock if
    it keeps one, else out."""
    p = state["people"][pid]
    if not items.over_load(p):  # the form is offered only over the load (forms.free): nothing else to discard
        raise Rejected("reject.lockdown_not_over_load", load=items.capacity(p))
    # card ids or kinds (issue 31: a physical card says its kind); a kind keeps a declared card (L7.4) if it can
    cards = items.pick_held(p["items"], cards, items.undeclared(p))
    items.take_from(p["items"], cards)
    pile = state["stocks"].get(p["room"])
    (pile if pile is not None else state["out"]).extend(cards)
