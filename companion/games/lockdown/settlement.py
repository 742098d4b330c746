"""The settlement phase, in the fixed order of ruling L5:
1 surgery, 2 fights / brawls / shadow encounters, 3 poison, 4 hunger (from round 2), 5 rocket,
6 consumables (pill, alcohol, adrenaline), 7 revival; then every player's HP is shown.

A player whose HP reaches 0 in any step becomes a shadow at once, is announced, and takes no part in
later steps (L5). Shadows made this round (by the laser or in this settlement) do not drain or revive
this round; they start the next round in the morgue (L8.1).
"""

from __future__ import annotations

from typing import Any

from companion.core.contract import Ctx
from companion.games.lockdown import fights, health, items, mapgraph, poison
from companion.parts import dice

State = dict[str, Any]
SURGERY_HP = 4
ROCKET_HP = 4
PILL_HP = 2


def _occupants(state: State, room: str, shadows: bool = False) -> list[str]:
    return [
        pid for pid, p in state["people"].items()
        if p["room"] == room and bool(p["shadow"]) == shadows
        and (not shadows or pid not in state["new_shadows"])
    ]


def _announce_deaths(ctx: Ctx) -> None:
    for pid in ctx.state["new_shadows"]:
        if pid not in ctx.state["announced_shadows"]:
            ctx.state["announced_shadows"].append(pid)
            ctx.state["people"][pid]["known_shadow"] = True
            ctx.announce("lockdown.became_shadow", player=pid)


def surgery(ctx: Ctx) -> None:
    """Step 1, ruling L3.8: exactly 2 living players in B202: each +4 HP (and no fight)."""
    state = ctx.state
    room = mapgraph.room_of(state, "operating_room")
    there = _occupants(state, room)
    if len(there) == 2:
        for pid in there:
            health.heal(state, pid, SURGERY_HP)
        ctx.announce("lockdown.surgery_done", room=room)
    else:
        ctx.announce("lockdown.no_surgery", room=room)


def fight_rooms(state: State) -> list[tuple[str, list[str]]]:
    """Ruling L6.1: every room with 2+ living players fights, except B202 with exactly 2."""
    surgery_room = mapgraph.room_of(state, "operating_room")
    out = []
    for room in mapgraph.rooms(state):
        there = _occupants(state, room)
        if len(there) >= 2 and not (room == surgery_room and len(there) == 2):
            out.append((room, there))
    return out


def combat(ctx: Ctx) -> None:
    """Step 2: fights and brawls (L6.2, all damage of a room at once), then shadow encounters (L6.3)."""
    state = ctx.state
    for room, there in fight_rooms(state):
        ctx.announce("lockdown.fight" if len(there) == 2 else "lockdown.brawl", room=room)
        people = state["people"]
        lost = fights.damage({pid: (items.force(people[pid]), items.has_gun(people[pid])) for pid in there})
        for pid in there:
            health.hurt(state, pid, lost[pid])
    for room in mapgraph.rooms(state):
        shades, alive = _occupants(state, room, shadows=True), _occupants(state, room)
        if not shades or not alive:
            continue
        ctx.announce("lockdown.shadow_encounter", room=room)
        for pid in alive:
            for shade in shades:
                state["people"][shade]["absorbed"] += health.hurt(state, pid, 1)
    _announce_deaths(ctx)


def poisoning(ctx: Ctx) -> None:
    """Step 3: the vote's floor(s) become poisonous (L4.2); poison hurts by round (L7.1)."""
    state = ctx.state
    new = poison.tally(state)
    state["poison"].extend(new)
    if new:
        ctx.announce("lockdown.poison_floors", floors=new)
    else:
        ctx.announce("lockdown.no_new_poison")
    amount = poison.DAMAGE[int(state["round"]) - 1]
    for pid in health.living(state):
        if poison.hits(state, pid):
            health.hurt(state, pid, amount)
    _announce_deaths(ctx)


def first_round_after_revival(state: State, p: dict[str, Any]) -> bool:
    return p.get("revived_round") is not None and int(p["revived_round"]) == int(state["round"]) - 1


def hunger(ctx: Ctx) -> None:
    """Step 4, ruling L7.2: from round 2, one water and one food each, handed in automatically."""
    state = ctx.state
    if int(state["round"]) < 2:
        return
    canteen = mapgraph.room_of(state, "canteen")
    ctx.announce("lockdown.hunger")
    for pid in health.living(state):
        p = state["people"][pid]
        if p["room"] == canteen or first_round_after_revival(state, p):
            continue
        missing = feed(state, p)
        health.hurt(state, pid, missing)
    _announce_deaths(ctx)


def feed(state: State, p: dict[str, Any]) -> int:
    """Hand in a water and a food; a plain pair first, else airdrop 3 (both on one card), else what there
    is. Returns how many of the two are missing."""
    hand = p["items"]
    water = next((c for c in hand if items.kind_of(c) == "water"), None)
    food = next((c for c in hand if items.kind_of(c) == "food"), None)
    both = next((c for c in hand if items.counts([c])["water"] and items.counts([c])["food"]), None)
    if water and food:
        items.consume(state, p, [water, food])
        return 0
    if both:
        items.consume(state, p, [both])
        return 0
    given = [c for c in (water, food) if c]
    items.consume(state, p, given)
    return 2 - len(given)


def rocket(ctx: Ctx) -> None:
    """Step 5, ruling L7.3: every living player in the named room loses 4 HP."""
    state = ctx.state
    for pid in state["action_order"]:
        p = state["people"][pid]
        target = p.get("rocket_target")
        if target is None or p["shadow"] or not items.holds(p, "rocket"):
            continue  # a holder who died or gave the launcher up before step 5 fires nothing (L5)
        ctx.announce("lockdown.rocket_hit", room=target)
        for victim in _occupants(state, target):
            health.hurt(state, victim, ROCKET_HP)
    _announce_deaths(ctx)


def consumables(ctx: Ctx) -> None:
    """Step 6, ruling L7.4: declared pills, alcohol and adrenaline, in the order declared (turn order)."""
    state = ctx.state
    used = False
    for pid in state["action_order"]:
        p = state["people"][pid]
        for card in list(p["declared"]):
            if p["shadow"] or card not in p["items"]:
                continue
            c = items.counts([card])
            items.consume(state, p, [card])
            used = True
            for _ in range(c["pill"]):
                health.heal(state, pid, PILL_HP)
                ctx.announce("lockdown.used_pill", player=pid)
            for _ in range(c["adrenaline"]):
                p["adrenaline_until"] = int(state["round"]) + 1
                ctx.announce("lockdown.used_adrenaline", player=pid)
            for _ in range(c["alcohol"]):
                alcohol(ctx, pid)
        p["declared"] = []
    if not used:
        ctx.announce("lockdown.no_consumables")


ALCOHOL = {1: "drop_all", 2: "nothing", 3: "force", 4: "speed", 5: "load", 6: "hp"}


def alcohol(ctx: Ctx, pid: str) -> None:
    """Ruling L7.4: 1 drop all items (consumed pile), 2 nothing, 3 force +1, 4 speed +1, 5 load +1, 6 HP +2."""
    state = ctx.state
    p = state["people"][pid]
    roll = dice.roll(ctx.rng(), 1, 6)[0]
    effect = ALCOHOL[roll]
    if effect == "drop_all":
        items.consume(state, p, list(p["items"]))
    elif effect in ("force", "speed", "load"):
        p["genes"][effect] += 1
    elif effect == "hp":
        health.heal(state, pid, PILL_HP)
    ctx.announce("lockdown.used_alcohol", player=pid, roll=roll, effect=f"kind.lockdown_alcohol_{effect}")


def revival(ctx: Ctx) -> None:
    """Step 7, ruling L8.2: a shadow that absorbed 2+ HP revives with that much (max 10), genes as before."""
    state = ctx.state
    for pid, p in state["people"].items():
        if p["shadow"] and pid not in state["new_shadows"] and int(p["absorbed"]) >= 2:
            p.update(shadow=False, hp=min(health.MAX_HP, int(p["absorbed"])), absorbed=0,
                     revived_round=state["round"], force_at_death=None, known_shadow=False)
            ctx.announce("lockdown.revived", player=pid)


STEPS = (surgery, combat, poisoning, hunger, rocket, consumables, revival)


def settle(ctx: Ctx) -> None:
    """The whole settlement of the round, then every HP shown (L5)."""
    state = ctx.state
    ctx.announce("lockdown.settlement", round=state["round"])
    _announce_deaths(ctx)  # deaths by the laser during the action phase
    for step in STEPS:
        step(ctx)
    state["prev_hp"] = dict(state["shown_hp"])
    state["shown_hp"] = {pid: int(p["hp"]) for pid, p in state["people"].items()}
    names = {p["id"]: p["name"] for p in state["players"]}  # public: the screen names players, never ids
    ctx.announce("lockdown.hp_shown", hp=[f"{names.get(pid, pid)} {hp}" for pid, hp in state["shown_hp"].items()])
    for pid in state["new_shadows"]:
        health.to_morgue_room(state, pid)
    for p in state["people"].values():
        if p.get("adrenaline_until") == state["round"]:
            p["adrenaline_until"] = None  # L7.4: speed returns after this settlement
        p["rocket_target"] = None
