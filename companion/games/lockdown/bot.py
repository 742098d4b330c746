"""Lockdown's choice function for the random legal table (companion/core/bot.py): the next legal input,
chosen at random. Its games are the scripted demo games in docs/games/lockdown/ and drive the property
tests. It reads the whole state (it plays every seat), so it is never used for a real player.
"""

from __future__ import annotations

import random
from typing import Any

from companion.core.bot import Bot
from companion.core.contract import Game
from companion.core.inputs import Input
from companion.games.lockdown import actions, flow, items, mapgraph, movement, poison
from companion.games.lockdown.game import GAME

State = dict[str, Any]
SUPPLY = ("water_tower", "granary", "warehouse", "canteen", "helipad")
Step = dict[str, Any]


def _by(pid: str, move: str, **args: Any) -> Step:
    return {"by": f"player:{pid}", "move": f"lockdown.{move}", "args": args}


def genes(rng: random.Random, total: int = 10) -> dict[str, int]:
    speed = rng.randint(2, min(6, total))
    force = rng.randint(0, total - speed)
    return {"force": force, "speed": speed, "load": total - speed - force}


def reachable(state: State, pid: str) -> dict[str, list[str]]:
    """Every room the player can end in, with one shortest legal path to it (breadth first)."""
    p = state["people"][pid]
    start = p["room"]
    paths: dict[str, list[str]] = {start: []}
    frontier = [start]
    for depth in range(movement.speed(state, p)):
        nxt = []
        for here in frontier:
            for there in mapgraph.rooms(state):
                if there in paths:
                    continue
                if movement.hop_kind(state, p, here, there, first=depth == 0 and here == start) is not None:
                    paths[there] = [*paths[here], there]
                    nxt.append(there)
        frontier = nxt
    del paths[start]
    return paths


def next_step(state: State, rng: random.Random) -> Step:
    phase = state["phase"]
    if phase == "setup":
        pid = next(pid for pid, p in state["people"].items() if p["genes"] is None)
        spawn = rng.choice(sorted(mapgraph.rooms(state)))
        return _by(pid, "prepare", spawn=spawn, **genes(rng))
    if phase == "free":
        return free_step(state, rng)
    pid = flow.current_player(state)
    assert pid is not None
    return turn_step(state, pid, rng)


def free_step(state: State, rng: random.Random) -> Step:
    for tid, t in sorted(state["trades"].items()):
        return _by(t["to"], "accept" if rng.random() < 0.6 else "withdraw", trade=tid)
    living = [pid for pid, p in state["people"].items() if not p["shadow"] and p["items"]]
    if living and rng.random() < 0.15 and not state.get("bot_traded"):
        a = rng.choice(living)
        b = rng.choice([pid for pid in state["people"] if pid != a and not state["people"][pid]["shadow"]] or [a])
        if b != a:
            give = [items.kind_of(rng.choice(state["people"][a]["items"]))]
            return _by(a, "offer", to=b, give=give, swap_order=rng.random() < 0.5)
    return {"by": "host", "move": "lockdown.begin_actions", "args": {}}


def turn_step(state: State, pid: str, rng: random.Random) -> Step:
    p = state["people"][pid]
    ts = state["turn_state"]
    if not ts["moved"]:
        paths = reachable(state, pid)
        target = rng.choice(sorted(paths))
        c = items.counts(p["items"])
        if not p["shadow"] and (c["water"] == 0 or c["food"] == 0) and rng.random() < 0.8:
            supply = [r for r in sorted(paths) if mapgraph.function_of(state, r) in SUPPLY]
            target = rng.choice(supply) if supply else target
        return _by(pid, "move", path=paths[target])
    if not p["shadow"]:
        step = living_step(state, pid, rng)
        if step is not None:
            return step
    extra = flow.junk_extras(state, pid)
    if extra:
        return _by(pid, "drop", cards=extra)
    if items.over_load(p):
        return _by(pid, "drop", cards=p["items"][: items.over_load(p)])
    return _by(pid, "end_turn")


def living_step(state: State, pid: str, rng: random.Random) -> Step | None:
    p = state["people"][pid]
    ts = state["turn_state"]
    fn = mapgraph.function_of(state, p["room"])
    rule = actions.stock_rule(state, p["room"])
    pile = state["stocks"].get(p["room"], [])
    digital = state["options"]["items"] == "digital"
    if rule is not None and not ts["drawn"] and pile:
        count = rng.randint(1, min(rule.limit, len(pile)))
        if digital:
            return _by(pid, "draw", count=count)
        return _by(pid, "draw", cards=[items.kind_of(c) for c in rng.sample(pile, count)])
    others = [c for c in pile if items.kind_of(c) != "gold"]
    if ts.get("gold_pick") and others:  # item 6, its second step: one of the cards the bar showed
        return _by(pid, "gold", card=items.kind_of(rng.choice(others)))
    if (rule is not None and rule.gold and items.holds(p, "gold") and ts["peek"] is None and others
            and len(p["items"]) < items.capacity(p)):
        return _by(pid, "gold")
    if fn == "helipad" and not ts["airdrop_taken"] and state["airdrops"]:
        return _by(pid, "take", cards=[rng.choice(state["airdrops"])])
    if not ts["used_room"]:
        step = room_step(state, pid, fn, rng)
        if step is not None:
            return step
    if items.holds(p, "rocket") and p["rocket_target"] is None and rng.random() < 0.7:
        return _by(pid, "rocket", room=rng.choice(sorted(mapgraph.rooms(state))))
    if items.holds(p, "recycler") and not ts["recycled"] and state["consumed"] and len(p["items"]) < items.capacity(p):
        return _by(pid, "recycle") if digital else _by(pid, "recycle", card=items.kind_of(state["consumed"][0]))
    usable = [c for c in p["items"] if sum(items.counts([c])[k] for k in ("pill", "alcohol", "adrenaline"))]
    if usable and not p["declared"] and rng.random() < 0.5:
        return _by(pid, "declare", cards=usable[:2])
    if poison.must_vote(state, pid) and not poison.voted(state, pid):
        floors = [f for f in state["map"]["floors"] if f not in state["poison"]]
        away = [f for f in floors if f != mapgraph.floor_of(state, p["room"])] or floors
        return _by(pid, "vote", floor=rng.choice(away))
    return None


def room_step(state: State, pid: str, fn: str | None, rng: random.Random) -> Step | None:
    p = state["people"][pid]
    if fn == "gene_bank":
        return _by(pid, "gene_bank")
    if fn == "gene_console":
        g = genes(rng, sum(p["genes"].values()))
        if g["load"] >= len(p["items"]) or items.holds(p, "pocket"):
            return _by(pid, "gene_console", **g)
    if fn == "control_room":
        poisoned = [r for r in sorted(mapgraph.rooms(state)) if mapgraph.floor_of(state, r) in state["poison"]]
        if poisoned and rng.random() < 0.5:
            return _by(pid, "control_room", mode="detox", room=rng.choice(poisoned))
        return _by(pid, "control_room", mode="ten_votes")
    return None


def next_input(game: Game, state: State, rnd: random.Random, at: int) -> Input:
    s = next_step(state, rnd)
    return Input(s["move"], s["by"], s["args"], at)


BOT = Bot(GAME, next_input, limit=5000, step_ms=4000)
