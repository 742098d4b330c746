"""Escape the Lab (密室脱困): setup, views, deadlines, tokens and the end. The rules live beside this."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.core import rng
from companion.core.contract import BoardPicture, Ctx, GameBase, Move, Setup, State
from companion.core.host_controls import EndMove, HostControls
from companion.core.modules import Modules
from companion.games.lab_escape import MAX_PLAYERS, MENU_RANK, MIN_PLAYERS, data, flow, forms, geometry, lines, views
from companion.games.lab_escape.moves import MOVES, TIMER
from companion.games.lab_escape.options import LabEscapeOptions
from companion.parts import host_end, timers


class LabEscape(GameBase):
    id = data.GAME_ID
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    Options = LabEscapeOptions
    #: the host may stop the game at any time (nobody wins): the kiosk's host menu, the host's phone
    moves: Mapping[str, Move] = {**MOVES, "game.end": host_end.move({"reason": "game.stopped"})}
    host_controls = HostControls(ends=(EndMove(),))
    modules = Modules(views=views, flow=flow, forms=forms, timer=TIMER, lines=lines)
    menu_rank = MENU_RANK
    #: Demo moments worth a picture: three players spread over the lab in turn 6, two display rooms
    #: left, a cat and adrenaline held; and two players in the Archive after Ben's failed attack for
    #: the USB key, with weapons lying in the Operating and Tool rooms and the halved supply running out.
    moments: Mapping[str, tuple[str, int]] = {"lab_escape": ("lab-escape-3p.jsonl", 35),
                                              "lab_escape-usb": ("lab-escape-2p.jsonl", 54)}

    def setup(self, setup: Setup, options: Any) -> State:
        assert isinstance(options, LabEscapeOptions)
        lab = data.bundled()
        order = [p.id for p in setup.players]  # E1.3: the table lists the starting player first
        source = rng.new(setup.seed)
        state: State = {
            "rng": source,
            "order": order,
            # E1.3: everyone starts in the Hall; the last player in order at stamina 2, the others at 1
            "people": {pid: {"room": data.HALL, "stamina": 2 if pid == order[-1] else 1, "items": []}
                       for pid in order},
            "supply": lab.counts(len(order)),  # E1.2
            "total": lab.counts(len(order)),
            "spent": {},
            "floor": {},
            "armed": [],
            "lab": [lab.start.id],
            "geometry": geometry.fresh(),  # E1.1, issue 31: where the cards lie, when the table says
            "display": [],
            "deck": sorted(c.id for c in lab.cards if not c.start),
            "physical": options.deck == "physical",
            "table_dice": options.dice == "table",
            "turn": flow.fresh_turn(order[0], 1, data.HALL),
            "last_check": None,
            "last_attack": None,
            "timer": timers.new(options.turn_seconds, [10]) if options.turn_seconds else None,
            "timer_seconds": options.turn_seconds,
            "finished": None,
            "announcements": [],
            "announced": 0,
        }
        ctx = Ctx(state=state, by="host", role="host", player=None, at=0)
        flow.refill(ctx)  # E1.1 / setup ②: two display cards (a physical deck: the table reports them)
        flow.begin(ctx)
        return state

    def tokens(self, state: State) -> dict[str, list[str]]:
        """What a tag can be enrolled as (companion/taps/kinds.py): each display card (the Hall's start card
        lies on the table from the start: E1.1), each room, and the adrenaline token, the one item a tap uses."""
        cards = sorted(c.id for c in data.bundled().cards if not c.start)  # the box's, drawn or not
        return {"card": cards, "room": list(data.room_index()), "item": ["adrenaline"]}

    def on_token(self, state: State, kind: str, token_id: str, actor: str) -> tuple[str, dict[str, Any]] | None:
        """Cards tapped as they are turned up or placed; a room tapped as the player steps into it;
        the adrenaline token tapped to use it (docs/games/lab_escape.md, "Tokens")."""
        phase = flow.phase(state)
        if kind == "card" and phase == "refill":
            return ("card.drawn", {"card": token_id})
        if kind == "card" and phase == "place":
            return ("card.place", {"card": token_id})
        if kind == "room" and phase == "move":
            return ("step", {"room": token_id})
        if kind == "item" and token_id == "adrenaline" and phase in ("move", "act"):
            return ("item.use", {"item": "adrenaline"})
        return None

    def board(self) -> BoardPicture | None:
        from companion.games.lab_escape import picture  # pygame is imported only where a screen draws

        return picture.draw_board


GAME = LabEscape()
