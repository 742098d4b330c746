"""Lockdown (禁闭逃杀): setup, the host's view, tokens and the board; the rest comes from the modules
it names (`modules`: views, flow, forms, timers; companion/core/modules.py).

Its options are in `options` (`LockdownOptions`).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from companion.core.contract import BoardPicture, GameBase, Move, Setup, State
from companion.core.gamedata import GameDataError
from companion.core.host_controls import EndMove, HostControls
from companion.core.inputs import actor_player
from companion.core.modules import Modules
from companion.core.rejection import Rejected
from companion.games.lockdown import (
    MAX_PLAYERS,
    MENU_RANK,
    MIN_PLAYERS,
    actions,
    data,
    flow,
    forms,
    items,
    lines,
    mapgraph,
    views,
)
from companion.games.lockdown.moves import MOVES
from companion.games.lockdown.options import LockdownOptions
from companion.parts import host_end, timers

TIMER_WARNINGS = [30, 10]


def new_player() -> dict[str, Any]:
    return {
        "hp": 10, "genes": None, "spawn": None, "room": None, "items": [], "shadow": False, "known_shadow": False,
        "absorbed": 0, "force_at_death": None, "died_round": None, "order": None, "revived_round": None,
        "adrenaline_until": None, "seen_genes": None, "declared": [], "rocket_target": None, "detoxed": [],
        "ten_votes_round": None,
    }


class Lockdown(GameBase):
    id = "lockdown"
    min_players = MIN_PLAYERS  # ruling L1.1
    max_players = MAX_PLAYERS
    Options = LockdownOptions
    #: the host may stop the game at any time (nobody wins): the kiosk's host menu, the host's phone
    moves: Mapping[str, Move] = {**MOVES, "game.end": host_end.move({"reason": "stopped", "points": {}, "hp": {}})}
    host_controls = HostControls(timers=flow.TIMERS.host_moves(flow.TIMER_PHASES), ends=(EndMove(),))
    modules = Modules(views=views, flow=flow, forms=forms, timer=flow.TIMERS, lines=lines)
    menu_rank = MENU_RANK
    #: the map (ruling L1.4) never changes during a game: every step shares it (and its Graph, mapgraph.py)
    fixed_state = frozenset({"map"})
    #: Demo moments worth a picture: round 3, two poisoned floors, HP announced twice.
    moments: Mapping[str, tuple[str, int]] = {"lockdown": ("lockdown-5p.jsonl", 60)}

    def setup(self, setup: Setup, options: Any) -> State:
        assert isinstance(options, LockdownOptions)
        try:
            loaded = data.load_map(Path(options.map_file) if options.map_file else None)
        except GameDataError as err:
            raise Rejected("reject.lockdown_map_file", problem=str(err)[:300]) from None
        pids = [p.id for p in setup.players]
        state: State = {
            "options": {"items": options.items},
            "map": data.compact(loaded),
            "round": 0,
            "phase": "setup",
            "people": {pid: new_player() for pid in pids},
            "consumed": [], "morgue_incoming": [], "airdrops": [], "poison": [], "detox": [],
            "ballot": None, "single_floor": None, "single_votes": [],
            "action_order": [], "turn": 0, "turn_state": None,
            "trades": {}, "trade_seq": 0,
            "shown_hp": {pid: 10 for pid in pids}, "prev_hp": {pid: 10 for pid in pids},
            "new_shadows": [], "announced_shadows": [], "finished": None,
            "timers": {},
        }
        by_function, airdrops = items.new_deck()
        state["stocks"] = {mapgraph.room_of(state, fn): cards for fn, cards in by_function.items()}
        state["stocks"][mapgraph.room_of(state, "helipad")] = []  # dropped items at the helipad (L3.9)
        state["out"] = airdrops  # each lands at the helipad in its round
        for name, seconds in (("free", options.free_seconds), ("turn", options.turn_seconds)):
            if seconds:
                state["timers"][name] = timers.new(seconds, TIMER_WARNINGS)
        return state

    def view_host(self, state: State) -> dict[str, Any]:
        return views.host(state)

    def player_view_keys(self, state: State) -> dict[str, object]:
        return views.player_keys(state)

    def tokens(self, state: State) -> dict[str, list[str]]:
        """What a tag can be enrolled as (companion/taps/kinds.py): an item card by kind, a room of the map."""
        return {"item": list(data.items().kinds), "room": list(mapgraph.rooms(state))}

    def on_token(self, state: State, kind: str, token_id: str, actor: str) -> tuple[str, dict[str, Any]] | None:
        """Physical items: a tapped item card is a draw (or a pick at the helipad) by the player whose turn
        it is; a tapped room token names the rocket's target. Anything else means nothing now.

        A tapped card of a kind the player already holds (issue 31) means what the rules allow with it now
        (actions.tap_uses): a new draw or pick, dropping the held one, using it; one of them is sent as it
        is, several are asked (`lockdown.tap`, answered by the `lockdown.use_tapped` form), none: nothing. In the
        free phase, a held card tapped by a player over their load is thrown away."""
        pid = actor_player(actor)
        if pid is not None and state["phase"] == "free" and pid in state["people"]:
            # the free phase's only use of a held card alone: over the load, a tapped held card is thrown
            # away (`lockdown.discard`; the hand must fit by the end of the phase, ruling L3.3)
            p = state["people"][pid]
            held = any(items.kind_of(c) == token_id for c in p["items"])
            if kind == "item" and state["options"]["items"] == "physical" and held and items.over_load(p):
                return "lockdown.discard", {"cards": [token_id]}
            return None
        if pid is None or flow.current_player(state) != pid or not state["turn_state"]["moved"]:
            return None
        p = state["people"][pid]
        if kind == "item" and state["options"]["items"] == "physical":
            if any(items.kind_of(c) == token_id for c in p["items"]):
                uses = actions.tap_uses(state, pid, token_id)
                if len(uses) > 1:
                    return "lockdown.tap", {"card": token_id}
                if uses == ["declare"]:
                    return "lockdown.declare", {"cards": [*actions.still_declared(state, pid), token_id]}
                if uses == ["drop"]:
                    return "lockdown.drop", {"cards": [token_id]}
                if not uses:
                    return None
            if mapgraph.function_of(state, p["room"]) == "helipad":
                return "lockdown.take", {"cards": [token_id]}
            return "lockdown.draw", {"cards": [token_id]}
        if kind == "room" and items.holds(p, "rocket") and p["rocket_target"] is None:
            return "lockdown.rocket", {"room": token_id}
        return None

    def board(self) -> BoardPicture | None:
        from companion.games.lockdown import picture  # pygame is imported only where a screen draws

        return picture.draw_board


GAME = Lockdown()
