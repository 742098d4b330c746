"""Room 25: setup, views, deadlines, tokens and the end. The rules live in the modules beside this."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.core import rng
from companion.core.contract import BoardPicture, GameBase, Move, Setup, State
from companion.core.host_controls import EndMove, HostControls
from companion.core.modules import Modules
from companion.games.room25 import MAX_PLAYERS, MENU_RANK, MIN_PLAYERS, data, deal, flow, forms, grid, lines, views
from companion.games.room25.moves import MOVES, TIMER
from companion.games.room25.options import Room25Options
from companion.parts import host_end, programming, timers


class Room25(GameBase):
    id = "room25"
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    Options = Room25Options
    #: the host may stop the game at any time (nobody wins): the kiosk's host menu, the host's phone
    moves: Mapping[str, Move] = {**MOVES, "game.end": host_end.move({"reason": "game.stopped"})}
    host_controls = HostControls(ends=(EndMove(),))
    modules = Modules(views=views, flow=flow, forms=forms, timer=TIMER, lines=lines)
    menu_rank = MENU_RANK
    #: Demo moments worth a picture: turn 3 (rooms turned up, a row locked, players spread) and the end
    #: (the exit has left the complex).
    moments: Mapping[str, tuple[str, int]] = {"room25": ("suspicion-5.jsonl", 38),
                                              "room25-exit": ("cooperation-3.jsonl", 1000)}

    def setup(self, setup: Setup, options: Any) -> State:
        assert isinstance(options, Room25Options)
        tileset = data.bundled()
        players = [p.id for p in setup.players]
        deal.check_players(tileset, options.mode, len(players))  # R1.4
        source = rng.new(setup.seed)
        physical = options.tiles == "physical"
        turns = tileset.modes[options.mode].turns  # R1.2
        state: State = {
            "rng": source,
            "mode": options.mode,
            "physical": physical,
            "turns": turns,
            "turn": 1,
            "last_turn": turns,
            "exit_found": False,
            "grid": grid.fresh(),
            "tiles": deal.tiles(tileset, options.mode, None if physical else rng.stream(source)),
            # R1.2: everyone starts in the start room
            "people": {
                pid: {"tile": grid.START, "status": "alive", "one_action_turn": None, "trap": None, "flood": None,
                      "peeks": []}
                for pid in players
            },
            "order": list(players),
            "program": programming.new(players, 2),
            "current": None,
            "pending": [],
            "locks": {},
            "deal": deal.deal_roles(tileset, players, rng.stream(source)) if options.mode == "suspicion" else None,
            "teams": deal.teams(players, options.teams) if options.mode == "team" else None,
            "deaths": [],
            "escaped": [],
            "exit_left": False,
            "timer": timers.new(options.program_seconds, [10]) if options.program_seconds else None,
            "timer_seconds": options.program_seconds,
            "locating": False,
            "finished": None,
        }
        return state

    def tokens(self, state: State) -> dict[str, list[str]]:
        """What a tag can be enrolled as (companion/taps/kinds.py): a room tile's token, by room kind."""
        return {"room": list(data.all_kinds())}

    def on_token(self, state: State, kind: str, token_id: str, actor: str) -> tuple[str, dict[str, Any]] | None:
        """A room tile's token tapped while the table must say which room was turned up."""
        if kind == "room" and flow.phase(state) == "reveal":
            return ("room.reveal", {"kind": token_id})
        return None

    def board(self) -> BoardPicture | None:
        from companion.games.room25 import picture  # pygame is imported only where a screen draws

        return picture.draw_board


GAME = Room25()
