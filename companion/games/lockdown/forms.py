"""The private inputs each actor may make now, as data (companion.core.prompts), for the phone page and
the booth: genes and spawn, trades, the path, draws and drops, room functions, items, the vote, the end of
the turn; and the host's phase and timer controls. A prompt goes only into its actor's own view.
"""

from __future__ import annotations

from typing import Any

from companion import i18n
from companion.core.inputs import HOST, actor_player
from companion.core.prompts import Choice, Field, Prompt
from companion.games.lockdown import actions, data, flow, items, mapgraph, movement, poison, trades
from companion.parts.turn_timer import TimerExtend

State = dict[str, Any]
OK = (Field("ok", "confirm", "lockdown.done"),)
#: The most seconds one extension adds: the referee's own bound (turn_timer.TimerExtend), so the form offers
#: every extension the host may make and none it refuses.
EXTEND_MAX = next(m.le for m in TimerExtend.model_fields["seconds"].metadata if getattr(m, "le", None) is not None)


def room_choice(state: State, rid: str) -> Choice:
    """A room as a choice, grouped by its building and floor (long lists are drawn by floor)."""
    building, floor = mapgraph.rooms(state)[rid][:2]
    fn = mapgraph.function_of(state, rid)
    word = "lockdown.room.ordinary" if fn is None else f"lockdown.room.{fn}"
    return Choice(rid, word, {"room": rid}, group="lockdown.group.floor",
                  group_params={"building": building, "floor": floor})


def room_choices(state: State, only: set[str] | None = None) -> tuple[Choice, ...]:
    """Rooms (all, or those in `only`) floor by floor in the map's order of floors (ruling L1.5); made
    once per map and set of rooms (mapgraph.Graph.memo)."""
    key = ("room_choices", None if only is None else frozenset(only))
    return mapgraph.graph(state).memo(key, lambda: _room_choices(state, only))


def _room_choices(state: State, only: set[str] | None) -> tuple[Choice, ...]:
    floors = state["map"]["floors"]
    found = [r for r in mapgraph.rooms(state) if only is None or r in only]
    found.sort(key=lambda r: floors.index(mapgraph.floor_of(state, r)))
    return tuple(room_choice(state, r) for r in found)


def path_field(state: State, pid: str) -> Field:
    """The path, step by step: each step offers only the rooms one hop on (ruling L2), so every path the
    picker builds is one the referee accepts once it ends elsewhere than where it starts. Made once per
    map and what the step graph depends on (movement.step_graph)."""
    p = state["people"][pid]
    key = ("path_field", p["room"], movement.speed(state, p), bool(p["shadow"]), items.holds(p, "rope"))
    return mapgraph.graph(state).memo(key, lambda: _path_field(state, p))


def _path_field(state: State, p: dict[str, Any]) -> Field:
    first, after = movement.step_graph(state, p)
    reach = set(first) | {r for rooms in after.values() for r in rooms}
    return Field("path", "path", "lockdown.field.path", room_choices(state, reach), min=1,
                 max=movement.speed(state, p), start=p["room"], first=first, after=dict(after))


def card_choice(card: str) -> Choice:
    return Choice(card, f"lockdown.item.{items.kind_of(card)}", {"card": card})


def kind_choices(kinds: list[str]) -> tuple[Choice, ...]:
    return tuple(Choice(k, f"lockdown.item.{k}") for k in kinds)


def held_kinds(cards: list[str]) -> tuple[Choice, ...]:
    """Held cards by kind (issue 31): a choice per card, worth its kind, in the item list's order, for a
    ``distinct`` field; the phone and the booth show one button per kind with how many are left to pick
    ("Pill ×2"), and the referee picks which card of the kind (items.pick_held: cards of one kind are
    interchangeable, ruling L3), so no card id is ever shown or sent."""
    order = list(data.items().kinds)
    return kind_choices(sorted((items.kind_of(c) for c in cards), key=order.index))


def for_actor(state: State, actor: str) -> list[Prompt]:
    if state["phase"] == "over":
        return []
    if actor == HOST:
        return host(state)
    pid = actor_player(actor)
    if pid is None or pid not in state["people"]:
        return []
    if state["phase"] == "setup":
        return [prepare(state)]
    if state["phase"] == "free":
        return free(state, pid)
    if state["phase"] == "action" and flow.current_player(state) == pid:
        return turn(state, pid)
    return []


def prepare(state: State) -> Prompt:
    return Prompt("lockdown.prepare", "lockdown.prompt.prepare", (
        Field("force", "number", "lockdown.field.force", min=0, max=10),
        Field("speed", "number", "lockdown.field.speed", min=1, max=10),
        Field("load", "number", "lockdown.field.load", min=0, max=10),
        Field("spawn", "choice", "lockdown.field.spawn", room_choices(state)),  # ruling L1.3: any room
    ), summed=("force", "speed", "load"), total=10)  # ruling L1.2: the genes add up to 10


def free(state: State, pid: str) -> list[Prompt]:
    p = state["people"][pid]
    out = offer(state, pid)
    for tid, t in state["trades"].items():
        fits = trades.fits(state, t)
        said = {"player": t["from"], "give": trade_side(t["give"], t["swap_order"]),
                "get": trade_side(t["get"], t["swap_order"])}
        if t["to"] == pid and fits:
            out.append(Prompt("lockdown.accept", "lockdown.prompt.accept", params=said, fixed={"trade": tid}))
        if t["to"] == pid and not fits:  # issue 33: no Accept the referee would refuse; say why, offer to call it off
            out.append(Prompt("lockdown.withdraw", "lockdown.prompt.trade_stale", OK, params=said,
                              fixed={"trade": tid}))
        elif pid in (t["from"], t["to"]):
            out.append(Prompt("lockdown.withdraw", "lockdown.prompt.withdraw", fixed={"trade": tid}))
    if items.over_load(p):
        out.append(Prompt("lockdown.discard", "lockdown.prompt.discard", (
            Field("cards", "choices", "lockdown.field.cards", held_kinds(p["items"]), min=items.over_load(p),
                  distinct=True),
        ), params={"extra": items.over_load(p)}))
    return out


def trade_side(kinds: list[str], swap_order: bool) -> dict[str, str]:
    """One side of a trade as every language reads it (a param each screen shows in its own language, as
    the toolkit's deals): its cards' names, the order card when the two swap them, "nothing" for none."""
    out = {}
    for lang in i18n.LANGUAGES:
        said = [i18n.translate(lang, f"lockdown.item.{k}") for k in kinds]
        said += [i18n.translate(lang, "lockdown.trade.order_card")] if swap_order else []
        out[lang] = ", ".join(said) or i18n.translate(lang, "lockdown.trade.nothing")
    return out


def offer(state: State, pid: str) -> list[Prompt]:
    """The trade form, only when the referee could accept what it sends (trades.offer): the player holds
    a card to give, neither side is a shadow (L8.1), and the table has room for another open trade."""
    p = state["people"][pid]
    others = tuple(Choice(o["id"], o["name"], plain=True) for o in state["players"]
                   if o["id"] != pid and o["id"] in state["people"] and not state["people"][o["id"]]["shadow"])
    if not p["items"] or p["shadow"] or not others or len(state["trades"]) >= trades.MAX_OPEN:
        return []
    return [Prompt("lockdown.offer", "lockdown.prompt.offer", (
        Field("to", "choice", "lockdown.field.to", others),
        # a kind per card held (offers are by kind, trades.offer): a kind is given twice only by holding two
        Field("give", "choices", "lockdown.field.give", kind_choices(sorted(items.kind_of(c) for c in p["items"])),
              max=trades.MAX_CARDS, distinct=True),
        # nothing asked in return is a gift, which the referee accepts (trades.offer): zero picks are enough
        Field("get", "choices", "lockdown.field.get", kind_choices(list(data.items().kinds)), min=0,
              max=trades.MAX_CARDS),
        Field("swap_order", "choice", "lockdown.field.swap_order",
              (Choice(True, "lockdown.yes"), Choice(False, "lockdown.no")), default=False),
    ))]


def turn(state: State, pid: str) -> list[Prompt]:
    p = state["people"][pid]
    ts = state["turn_state"]
    if not ts["moved"]:
        return [Prompt("lockdown.move", "lockdown.prompt.move", (path_field(state, pid),),
                       params={"from": p["room"], "speed": movement.speed(state, p)})]
    out: list[Prompt] = []
    if not p["shadow"]:
        out += room_prompts(state, pid) + item_prompts(state, pid)
        if poison.must_vote(state, pid):
            floors = [f for f in state["map"]["floors"] if f not in state["poison"]]
            out.append(Prompt("lockdown.vote", "lockdown.prompt.vote", (
                Field("floor", "choice", "lockdown.field.floor",
                      tuple(Choice(f, "lockdown.floor", {"floor": f}) for f in floors)),
            )))
    if actions.drop_room(state, p["room"]) and p["items"]:
        out.append(Prompt("lockdown.drop", "lockdown.prompt.drop", (
            Field("cards", "choices", "lockdown.field.cards", held_kinds(p["items"]), min=1, distinct=True),
        )))
    if poison.must_vote(state, pid) and not poison.voted(state, pid):
        return out  # ruling L4.1: every living player votes; the turn ends only after the vote
    if flow.junk_extras(state, pid) or items.over_load(p):
        return out  # ruling L3.3: over the load (or the junkyard's two) the player drops first (the drop form)
    out.append(Prompt("lockdown.end_turn", "lockdown.prompt.end_turn", (Field("done", "confirm", "lockdown.done"),)))
    return out


def room_prompts(state: State, pid: str) -> list[Prompt]:
    p = state["people"][pid]
    ts = state["turn_state"]
    fn = mapgraph.function_of(state, p["room"])
    rule = actions.stock_rule(state, p["room"])
    out: list[Prompt] = []
    pile = state["stocks"].get(p["room"], [])
    # issue 33: no more than the stock holds (the morgue starts empty), so every count offered is drawn
    left = min(rule.limit - len(ts["drawn"]), len(pile)) if rule is not None else 0
    if left > 0:
        if state["options"]["items"] == "digital":
            out.append(Prompt("lockdown.draw", "lockdown.prompt.draw", (
                Field("count", "number", "lockdown.field.count", min=1, max=left),), params={"left": left}))
        else:
            out.append(Prompt("lockdown.draw", "lockdown.prompt.tap_cards", (
                # every kind: the room's stock is face down (the referee keeps it secret), so the form must not
                # show what it holds; the player taps what they really drew, which the stock holds
                Field("cards", "choices", "lockdown.field.cards", kind_choices(list(data.items().kinds)), max=left),
            ), params={"left": left}))
    out += gold_prompts(state, p)
    if fn == "helipad":
        out += take_prompts(state, p)
    if ts["used_room"]:
        return out
    if fn == "gene_bank":
        out.append(Prompt("lockdown.gene_bank", "lockdown.prompt.gene_bank", OK))
    elif fn == "gene_console":
        out += gene_console(p)
    elif fn == "control_room":  # ruling L3.7, one form each: detox only once some room is poisonous
        out.append(Prompt("lockdown.control_room", "lockdown.control.ten_votes", OK, fixed={"mode": "ten_votes"}))
        poisoned = [r for r in mapgraph.rooms(state) if mapgraph.floor_of(state, r) in state["poison"]]
        if poisoned:
            out.append(Prompt("lockdown.control_room", "lockdown.control.detox", (
                Field("room", "choice", "lockdown.field.room", room_choices(state, set(poisoned))),),
                fixed={"mode": "detox"}))
    return out


def gene_console(p: dict[str, Any]) -> list[Prompt]:
    """Ruling L3.6 as the referee checks it (rooms.gene_console): the current total, redistributed, with
    its running sum (as the setup form's, so Send waits until it adds up) and a load that still holds the
    hand (any load with the dimension pocket); not offered when no redistribution fits the hand."""
    total = sum(int(v) for v in p["genes"].values())
    least = 0 if items.holds(p, "pocket") else len(p["items"])
    if total - 1 < least:
        return []  # speed 1 and a load that holds the hand need more than the total
    return [Prompt("lockdown.gene_console", "lockdown.prompt.gene_console", (
        Field("force", "number", "lockdown.field.force", min=0, max=total - 1 - least),
        Field("speed", "number", "lockdown.field.speed", min=1, max=total - least),
        Field("load", "number", "lockdown.field.load", min=least, max=total - 1),
    ), params={"total": total, "load": least}, summed=("force", "speed", "load"), total=total)]


def gold_prompts(state: State, p: dict[str, Any]) -> list[Prompt]:
    """Item 6 in two steps, so the pick is never blind (issue 33): spend a gold bar to see the room's cards
    (kept when none but gold bars is there to take), then take one of the kinds seen that is not a gold bar.
    Offered where a bar may be spent (not the junkyard) and the stock holds cards."""
    ts, rule = state["turn_state"], actions.stock_rule(state, p["room"])
    if rule is None or not rule.gold:
        return []
    pile = state["stocks"].get(p["room"], [])
    if ts.get("gold_pick"):
        kinds = sorted({items.kind_of(c) for c in pile} - {"gold"})
        return [Prompt("lockdown.gold", "lockdown.prompt.gold_pick", (
            Field("card", "choice", "lockdown.field.card", kind_choices(kinds)),))] if kinds else []
    if not items.holds(p, "gold") or not pile:
        return []
    if ts["peek"] == sorted(pile) and all(items.kind_of(c) == "gold" for c in pile):
        return []  # seen already: only gold bars, nothing a bar may buy
    return [Prompt("lockdown.gold", "lockdown.prompt.gold", OK, params={"count": len(pile)})]


def take_prompts(state: State, p: dict[str, Any]) -> list[Prompt]:
    """Ruling L3.9 at the helipad, as two forms the referee accepts as they are (actions.take): one airdrop
    (if none was taken this turn), and dropped cards up to the player's load."""
    out: list[Prompt] = []
    if state["airdrops"] and not state["turn_state"]["airdrop_taken"]:
        out.append(Prompt("lockdown.take", "lockdown.prompt.take", (
            Field("cards", "choices", "lockdown.field.cards", tuple(card_choice(c) for c in state["airdrops"]),
                  min=1, max=1),)))
    dropped, room = state["stocks"].get(p["room"], []), items.capacity(p) - len(p["items"])
    if dropped and room > 0:
        out.append(Prompt("lockdown.take", "lockdown.prompt.take", (
            Field("cards", "choices", "lockdown.field.cards", tuple(card_choice(c) for c in dropped), min=1,
                  max=room, distinct=True),)))
    return out


def item_prompts(state: State, pid: str) -> list[Prompt]:
    p = state["people"][pid]
    ts = state["turn_state"]
    out: list[Prompt] = []
    if items.holds(p, "rocket"):
        out.append(Prompt("lockdown.rocket", "lockdown.prompt.rocket", (
            Field("room", "choice", "lockdown.field.room", room_choices(state)),
        )))
    if items.holds(p, "recycler") and not ts["recycled"] and state["consumed"] and len(p["items"]) < items.capacity(p):
        if state["options"]["items"] == "digital":
            out.append(Prompt("lockdown.recycle", "lockdown.prompt.recycle", OK))
        else:
            kinds = sorted({items.kind_of(c) for c in state["consumed"]})
            out.append(Prompt("lockdown.recycle", "lockdown.prompt.recycle", (
                Field("card", "choice", "lockdown.field.card", kind_choices(kinds)),)))
    tapped = ts.get("tapped")
    uses = actions.tap_uses(state, pid, tapped) if tapped is not None else []
    if uses:  # a tapped card the player holds (issue 31, Lockdown.on_token): what the rules allow with it now
        out.append(Prompt("lockdown.use_tapped", "lockdown.prompt.use_tapped", (
            Field("use", "choice", "lockdown.field.use", tuple(Choice(u, f"kind.lockdown_use_{u}") for u in uses)),
        ), params={"card": f"kind.lockdown_item_{tapped}"}))
    usable = [c for c in p["items"] if sum(items.counts([c])[k] for k in ("pill", "alcohol", "adrenaline"))]
    if usable or p.get("declared"):  # also to take back a declaration (L7.4) whose cards are gone
        out.append(Prompt("lockdown.declare", "lockdown.prompt.declare", (
            Field("cards", "choices", "lockdown.field.cards", held_kinds(usable), min=0, distinct=True),)))
    return out


def host(state: State) -> list[Prompt]:
    out: list[Prompt] = []
    if state["phase"] == "free":
        out.append(Prompt("lockdown.begin_actions", "lockdown.prompt.begin_actions", OK))
    if state["phase"] == "action":
        now = flow.current_player(state)  # the words name the player and so does what pressing sends
        out.append(Prompt("lockdown.force_end_turn", "lockdown.prompt.force_end_turn",
                          OK, params={"player": now}, fixed={"player": now}))
    for name, t in state["timers"].items():
        if t["running"]:
            out.append(Prompt("lockdown.timer_pause", "lockdown.prompt.timer_pause", fixed={"name": name},
                              params={"name": f"kind.lockdown_timer_{name}"}))
        elif t["started"] and not t["expired"] and t["remaining"] < t["duration"]:
            out.append(Prompt("lockdown.timer_resume", "lockdown.prompt.timer_resume", fixed={"name": name},
                              params={"name": f"kind.lockdown_timer_{name}"}))
        if t["running"]:  # a paused timer offers its resume alone (the referee would extend it too)
            out.append(Prompt("lockdown.timer_extend", "lockdown.prompt.timer_extend", (
                Field("seconds", "number", "lockdown.field.seconds", min=1, max=EXTEND_MAX, default=30),),
                fixed={"name": name}, params={"name": f"kind.lockdown_timer_{name}"}))
    return out
