"""What each audience sees. Public: round, phase, poison floors, who is a known shadow, the HP shown at the
last settlement, timers, the result; never a vote, a position, a spawn, a hand, genes, HP before it is
announced, a detoxed room or a rocket target. A player adds their own secrets. The host runs the night
and sees no secret: only who is ready and how the phases go.
"""

from __future__ import annotations

from typing import Any

from companion.games.lockdown import actions, flow, items, mapgraph, movement, poison
from companion.parts import timers

State = dict[str, Any]


def public(state: State) -> dict[str, Any]:
    return {
        "round": state["round"],
        "phase": state["phase"],
        "map": state["map"]["name"],
        "floors": state["map"]["floors"],
        "poison": list(state["poison"]),
        "players": [
            {"id": pid, "shadow": bool(p.get("known_shadow")), "hp": state["shown_hp"][pid]}
            for pid, p in state["people"].items()
        ],
        "ready": [pid for pid, p in state["people"].items() if p["genes"] is not None and state["phase"] == "setup"],
        "turn": flow.current_player(state),
        "timers": {name: timers.public(t) for name, t in state["timers"].items()},
        "result": state["finished"],
    }


def player(state: State, pid: str) -> dict[str, Any]:
    p = state["people"][pid]
    mine: dict[str, Any] = {
        "hp": p["hp"],
        "genes": p["genes"],
        "room": p["room"],
        "spawn": p["spawn"],
        "items": list(p["items"]),
        "shadow": p["shadow"],
        "absorbed": p["absorbed"],
        "order": p["order"],
        "seen_genes": p["seen_genes"],
        "declared": list(p["declared"]),
        "rocket_target": p["rocket_target"],
        "detoxed": list(p.get("detoxed", [])),
        "trades": {tid: t for tid, t in state["trades"].items() if pid in (t["from"], t["to"])},
    }
    if p["genes"] is not None:
        mine.update(force=items.force(p), speed=movement.speed(state, p), load=items.capacity(p))
    if state["phase"] == "action":
        mine["voted"] = poison.voted(state, pid)
        b = state["ballot"]
        mine["vote"] = b["votes"].get(pid) if b is not None else None
    if flow.current_player(state) == pid and state["turn_state"] is not None:
        ts = state["turn_state"]
        mine["turn"] = {k: ts[k] for k in ("moved", "path", "used_room", "drawn", "recycled", "peek")}
        if ts["moved"] and mapgraph.function_of(state, p["room"]) == "helipad":
            mine["helipad"] = {"airdrops": list(state["airdrops"]), "dropped": list(state["stocks"].get(p["room"], []))}
        rule = actions.stock_rule(state, p["room"])
        if ts["moved"] and rule is not None:
            mine["draw_left"] = rule.limit - len(ts["drawn"])
    return mine


def host(state: State) -> dict[str, Any]:
    return {
        "round": state["round"],
        "phase": state["phase"],
        "ready": [pid for pid, p in state["people"].items() if p["genes"] is not None],
        "turns_left": max(0, len(state["action_order"]) - state["turn"]) if state["phase"] == "action" else None,
    }



def player_keys(state: State) -> dict[str, object]:
    """For each player, everything `player(state, pid)` and their forms (forms.for_actor) read of
    `state`, as a value compared with the last state's (`Game.player_view_keys`): equal keys, equal
    private view and prompts. The map and the options never change during a game, so they are not in
    it; the turn's details, the helipad's cards, the room's stock and the consumed pile only on the
    player's own turn (nobody else's view shows them).
    tests/games/lockdown/test_lockdown_view_key.py plays random games and checks that a key never
    stays while the view or the prompts change."""
    people, trades, b = state["people"], state["trades"], state["ballot"]
    votes = {} if b is None else b["votes"]
    single = state.get("single_votes", [])
    now = flow.current_player(state)
    shared = (
        state["phase"], state["round"], state["players"],
        len(trades),  # the trade form only while the table has room for another (trades.MAX_OPEN)
        tuple(p["shadow"] for p in people.values()),  # whom a trade may go to
        state["poison"],  # the vote's and the control room's floors
        b is None, state.get("single_floor"),
    )
    out: dict[str, object] = {}
    for pid, p in people.items():
        turn = None
        if pid == now:
            turn = (state["turn_state"], state["airdrops"], state["stocks"].get(p["room"]), state["consumed"])
        out[pid] = (
            shared, p,
            [(tid, t) for tid, t in trades.items() if pid in (t["from"], t["to"])],
            votes.get(pid), pid in votes, pid in single,
            turn,
        )
    return out
