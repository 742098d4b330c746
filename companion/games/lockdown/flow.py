"""The round's flow: setup -> (free phase -> action phase -> settlement) x 6 -> end.

Free phase: an order card is dealt to each player in secret (a seeded shuffle), trades happen, and at its
end (host, or the free-phase timer running out) every hand is brought within load. Action phase: players
act one at a time in order-card order, each with a turn timer. After the last turn the settlement runs
(settlement.py), then the game ends (ranking.py) or the next round begins.
"""

from __future__ import annotations

from typing import Any

from companion.core.contract import Ctx
from companion.games.lockdown import data, health, items, mapgraph, poison, ranking, settlement
from companion.parts.turn_timer import PhaseTimers, TurnTimer

State = dict[str, Any]
ROUNDS = 6
#: The free phase's timer and each action turn's, at ``state["timers"]`` (absent when set to 0 seconds).
FREE = TurnTimer("lockdown", "free", named=True)
TURN = TurnTimer("lockdown", "turn", named=True)
TIMERS = PhaseTimers((FREE, TURN))
#: the phases each timer times (the flow starts it there); outside them it waits, and the host's menu and
#: forms offer nothing for it
TIMER_PHASES = {"free": frozenset({"free"}), "turn": frozenset({"action"})}


def begin_round(ctx: Ctx) -> None:
    state = ctx.state
    state["round"] += 1
    r = int(state["round"])
    landing = next(c for c in state["out"] if items.kind_of(c) == items_airdrop(r))
    state["out"].remove(landing)
    state["airdrops"].append(landing)  # ruling L3.9: one airdrop per round, they accumulate
    morgue = mapgraph.room_of(state, "morgue")
    state["stocks"][morgue].extend(state["morgue_incoming"])  # L8.1: drawable from the next round
    state["morgue_incoming"] = []
    state["new_shadows"], state["announced_shadows"] = [], []
    numbers = list(range(1, len(state["people"]) + 1))
    ctx.rng().shuffle(numbers)
    for pid, n in zip(state["people"], numbers, strict=True):
        state["people"][pid]["order"] = n
    state["trades"] = {}
    state["phase"] = "free"
    ctx.announce("lockdown.round_started", round=r)
    FREE.restart(ctx)


def items_airdrop(r: int) -> str:
    return data.items().airdrops[r - 1]


def trim_to_load(state: State, pid: str) -> None:
    """Bring a hand within load by dropping the cards received last: into the room's stock where the room
    keeps one (a draw room or the helipad), else out of the game (docs: free-phase and turn timeouts)."""
    p = state["people"][pid]
    extra = items.over_load(p)
    if extra:
        dropped = p["items"][-extra:]
        del p["items"][-extra:]
        pile = state["stocks"].get(p["room"])
        (pile if pile is not None else state["out"]).extend(dropped)


def begin_actions(ctx: Ctx) -> None:
    """End of the free phase (L3.3: nobody holds more than load outside it), then the first turn."""
    state = ctx.state
    FREE.reset(state)
    for pid in state["people"]:
        trim_to_load(state, pid)
    state["trades"] = {}
    state["action_order"] = sorted(state["people"], key=lambda pid: state["people"][pid]["order"])
    state["turn"] = 0
    poison.open_vote(state)
    state["single_votes"] = []
    state["phase"] = "action"
    ctx.announce("lockdown.actions_begin")
    begin_turn(ctx)


def phase(state: State) -> str:
    """``setup``, ``free``, ``action``, ``settlement`` or ``over``."""
    return str(state["phase"])


def current_player(state: State) -> str | None:
    if state["phase"] != "action":
        return None
    order: list[str] = state["action_order"]
    return order[state["turn"]] if state["turn"] < len(order) else None


def begin_turn(ctx: Ctx) -> None:
    state = ctx.state
    pid = current_player(state)
    state["turn_state"] = {
        "moved": False, "path": [], "used_room": False, "drawn": [], "recycled": False,
        "airdrop_taken": False, "peek": None, "gold_pick": False,
        "tapped": None,  # tapped: a held card asked about (issue 31)
    }
    if pid is not None:
        ctx.announce("lockdown.turn", player=pid)
        TURN.restart(ctx)


def finish_turn(ctx: Ctx, forced: bool) -> None:
    """End the current player's turn. A forced end (timer or host) keeps the player where they are if
    they had not moved, casts no vote, and trims the hand (junkyard extras back to its stock first)."""
    state = ctx.state
    pid = current_player(state)
    assert pid is not None
    if forced:
        return_junk_extras(state, pid)
        trim_to_load(state, pid)
        ctx.announce("lockdown.turn_timed_out", player=pid)
    TURN.reset(state)
    state["turn"] += 1
    if current_player(state) is not None:
        begin_turn(ctx)
        return
    state["phase"] = "settlement"
    settlement.settle(ctx)
    end_or_next(ctx)


def junk_extras(state: State, pid: str) -> list[str]:
    """Junkyard rule: of the non-junk cards drawn there this turn, at most 2 may be kept (still held)."""
    ts = state["turn_state"]
    p = state["people"][pid]
    if mapgraph.function_of(state, p["room"]) != "junkyard":
        return []
    kept = [c for c in ts["drawn"] if c in p["items"] and items.kind_of(c) != "junk"]
    limit = data.items().stocks["junkyard"].keep_at_most
    return kept[limit:] if limit is not None else []


def return_junk_extras(state: State, pid: str) -> None:
    extra = junk_extras(state, pid)
    if extra:
        items.take_from(state["people"][pid]["items"], extra)
        state["stocks"][state["people"][pid]["room"]].extend(extra)


def end_or_next(ctx: Ctx) -> None:
    state = ctx.state
    alive = health.living(state)
    if len(alive) == 1:
        finish(ctx, "survivor")
    elif not alive:
        finish(ctx, "all_shadows")
    elif int(state["round"]) >= ROUNDS:
        ranking.exchange_gold(state)
        finish(ctx, "rounds")
    else:
        begin_round(ctx)


def finish(ctx: Ctx, reason: str) -> None:
    state = ctx.state
    state["phase"] = "over"
    state["finished"] = ranking.outcome(state, reason)
    for timer in TIMERS.timers:
        timer.reset(state)
    # the ranking's groups of player ids: the screens say them by name, tied ones as "Ana = Ben" (naming.py)
    ctx.announce("lockdown.game_over", reason=f"kind.lockdown_end_{reason}", ranking=state["finished"]["ranking"])
