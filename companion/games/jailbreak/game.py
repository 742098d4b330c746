"""Jailbreak (越狱): setup, views, deadlines, tokens and the end. The rules live in the modules beside
this: `deal` (J1), `flow` (J2.1, J3), `attacks` (J2.2, J2.4-J2.6), `items` (J2.2, J2.3, J2.6, J2.7)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.core import rng
from companion.core.contract import BoardPicture, Ctx, GameBase, Move, Setup, State
from companion.core.host_controls import EndMove, HostControls
from companion.core.inputs import actor_player
from companion.core.modules import Modules
from companion.games.jailbreak import MAX_PLAYERS, MENU_RANK, MIN_PLAYERS, data, deal, flow, forms, lines, views
from companion.games.jailbreak.moves import MOVES, TIMER
from companion.games.jailbreak.options import JailbreakOptions
from companion.parts import host_end, timers


class Jailbreak(GameBase):
    id = "jailbreak"
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    Options = JailbreakOptions
    #: the host may stop the game at any time (nobody wins): the kiosk's host menu, the host's phone
    moves: Mapping[str, Move] = {**MOVES, "game.end": host_end.move({"winner": "none", "reason": "stopped",
                                                                      "escaped": None})}
    host_controls = HostControls(ends=(EndMove(),))
    modules = Modules(views=views, flow=flow, forms=forms, timer=TIMER, lines=lines)
    menu_rank = MENU_RANK
    #: Demo moments worth a picture: eight players spread over scenes 1-4 in turn 15 (Ana face down, Ben
    #: cuffed), and five players near the end of the deck (2 cards left, two face down, one cuffed).
    moments: Mapping[str, tuple[str, int]] = {"jailbreak": ("jailbreak-8p-escape.jsonl", 93),
                                              "jailbreak-deck": ("jailbreak-5p-deck.jsonl", 133)}

    def setup(self, setup: Setup, options: Any) -> State:
        assert isinstance(options, JailbreakOptions)
        players = [p.id for p in setup.players]  # the seating order, clockwise
        source = rng.new(setup.seed)
        sheriffs = deal.sheriffs(players, options.sheriffs, rng.stream(source))
        kit = deal.equipment(len(players), [list(e) for e in options.equipment] if options.equipment else None)
        prisoners = [p for p in players if p not in sheriffs]
        size = data.deck().size
        dealt = data.START_HAND * len(players)
        if dealt > size:
            raise ValueError(f"a deck of {size} cards cannot deal {dealt}")
        state: State = {
            "rng": source,
            "announcements": [],
            "announced": 0,
            "order": players,
            "sheriffs": sheriffs,
            "roles": {p: "sheriff" if p in sheriffs else "prisoner" for p in players},
            "equipment": {p: e for p, e in zip(sheriffs, kit, strict=True)},
            "characters": deal.characters(prisoners, rng.stream(source)),
            "people": deal.people(players),
            "deck_size": size,
            "deck": size - dealt,
            "drawn": dealt,
            "badge_used": False,
            "turn": {"number": 0, "phase": "action"},
            "timer": None,
            "timer_seconds": options.turn_seconds,
            "finished": None,
        }
        # J1.4: the first sheriff starts; their draw happens now (the timer waits for the host)
        flow.begin(Ctx(state=state, by="host", role="host", player=None, at=0), sheriffs[0])
        if options.turn_seconds:
            state["timer"] = timers.new(options.turn_seconds, [10])
        return state

    def on_token(self, state: State, kind: str, token_id: str, actor: str) -> tuple[str, dict[str, Any]] | None:
        """A tapped card (kind ``card``, id the card's name) means the play it can be now (forms.token)."""
        pid = actor_player(actor)
        if kind != "card" or pid is None or token_id not in data.CARDS:
            return None
        return forms.token(state, pid, token_id)

    def board(self) -> BoardPicture | None:
        from companion.games.jailbreak import picture  # pygame is imported only where a screen draws

        return picture.draw_board


GAME = Jailbreak()
