"""Lockdown as lines: a player's HP, room, genes, order, vote and items; the table's round and shown HP."""

from __future__ import annotations

from collections import Counter
from typing import Any

from companion.core.lines import Lines
from companion.games.lockdown import data


def private_lines(private: dict[str, Any]) -> Lines:
    """A player's own HP, room, genes, order card, vote and items (one line per card), and what a gold bar
    showed this turn."""
    out: Lines = []
    if private.get("shadow"):
        out.append(("gameboards.lockdown.you_are_shadow", {}))
    if private.get("hp") is not None:
        out.append(("gameboards.lockdown.your_hp", {"hp": private["hp"]}))
    if private.get("room") is not None:
        out.append(("gameboards.lockdown.your_room", {"room": private["room"]}))
    elif private.get("spawn") is not None:
        out.append(("gameboards.lockdown.your_spawn", {"room": private["spawn"]}))
    if "force" in private:
        out.append(("gameboards.lockdown.your_genes", {k: private[k] for k in ("force", "speed", "load")}))
    if private.get("order") is not None:
        out.append(("gameboards.lockdown.your_order", {"order": private["order"]}))
    if private.get("vote") is not None:
        out.append(("gameboards.lockdown.your_vote", {"floor": private["vote"]}))
    if private.get("rocket_target") is not None:
        out.append(("gameboards.lockdown.your_rocket", {"room": private["rocket_target"]}))
    if not private.get("shadow"):
        cards = list(private.get("items") or [])
        out.append(("gameboards.lockdown.your_items", {"count": len(cards), "load": private.get("load", "?")})
                   if cards else ("gameboards.lockdown.no_items", {}))
        out += [(f"lockdown.item.{card.rsplit('-', 1)[0]}", {}) for card in cards]
    out += peek_lines(private)
    return out


def peek_lines(private: dict[str, Any]) -> Lines:
    """What a gold bar showed this turn (item 6: the room's cards, looked at before picking one more),
    kind by kind with how many, in the item list's order."""
    seen = ((private.get("turn") or {}).get("peek")) or []
    if not seen:
        return []
    counts = Counter(card.rsplit("-", 1)[0] for card in seen)
    order = list(data.items().kinds)
    return [("gameboards.lockdown.peek", {"room": private.get("room"), "count": len(seen)}),
            *(("gameboards.lockdown.peek_kind", {"item": f"kind.lockdown_item_{kind}", "count": counts[kind]})
              for kind in sorted(counts, key=lambda k: order.index(k) if k in order else len(order)))]


def public_lines(public: dict[str, Any]) -> Lines:
    """The round, the poisoned floors, and each player's HP as last announced."""
    table = public.get("table") or {}
    if "round" not in table:
        return []
    out: Lines = [("summary.lockdown.round", {"round": table["round"]})]  # the page's status line has the phase
    if table.get("poison"):
        out.append(("gameboards.lockdown.poison", {"floors": ", ".join(table["poison"])}))
    for p in table.get("players") or []:
        out.append(("summary.lockdown.shadow_shown", {"player": p["id"]}) if p.get("shadow")
                   else ("summary.lockdown.hp_shown", {"player": p["id"], "hp": p["hp"]}))
    return out
