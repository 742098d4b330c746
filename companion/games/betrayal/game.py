"""Betrayal at House on the Hill: setup, views, deadlines, tokens and the end. The rules live in the
modules beside this."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.core import gamedata, rng
from companion.core.contract import BoardPicture, Ctx, GameBase, Move, Setup, State
from companion.core.host_controls import EndMove, HostControls, TimerMoves
from companion.core.modules import Modules
from companion.core.rejection import Rejected
from companion.games.betrayal import (
    MAX_PLAYERS,
    MENU_RANK,
    MIN_PLAYERS,
    data,
    explorers,
    flow,
    forms,
    house,
    lines,
    seating,
    views,
)
from companion.games.betrayal.moves import MOVES, PLAYING
from companion.games.betrayal.moves_timer import TIMER
from companion.games.betrayal.options import BetrayalOptions
from companion.parts import host_end, timers


class Betrayal(GameBase):
    id = "betrayal"
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    Options = BetrayalOptions
    #: the host may stop the game at any time (nobody wins): the kiosk's host menu, the host's phone
    moves: Mapping[str, Move] = {**MOVES, "game.end": host_end.move({"winner": "none"})}
    host_controls = HostControls(TimerMoves(start=None, phases={flow.TIMER: PLAYING}), (EndMove(),))  # turns start it
    modules = Modules(views=views, flow=flow, forms=forms, timer=TIMER, lines=lines)
    menu_rank = MENU_RANK
    #: Demo moments worth a picture: the haunt (Dao's roll of 1 against 2 omens reveals haunt 2, and Dao,
    #: the revealer, is the traitor: B3.1, B3.2) and the exploring before it (three floors explored, two
    #: omens out, Chai's roll of 7 not yet enough).
    moments: Mapping[str, tuple[str, int]] = {"betrayal": ("haunt-4.jsonl", 22),
                                              "betrayal-exploring": ("haunt-4.jsonl", 20)}

    def setup(self, setup: Setup, options: Any) -> State:
        assert isinstance(options, BetrayalOptions)
        try:
            d = data.cached(options.data or data.BUNDLED)
        except gamedata.GameDataError as err:  # a table's own set that does not fit the format
            raise Rejected("reject.bad_argument", field="data", problem=str(err)[:300]) from None
        start = house.start_room(d)
        seats = [p.id for p in setup.players]
        cards = {c.card for c in d.characters.characters}
        if len(cards) < len(seats):  # one explorer per character card (B1.1)
            raise Rejected("reject.player_count", game=self.id, low=self.min_players, high=len(cards), got=len(seats))
        state: State = {
            "rng": rng.new(setup.seed),
            "announcements": [],
            "announced": 0,
            "data": options.data,
            "today": options.today,
            "seats": seats,
            "explorers": {p: {"character": None, "room": start, "traits": {}, "cards": [], "alive": True}
                          for p in seats},
            "rooms": house.fresh(d),
            "omens": 0,
            "last_omen": None,
            "moment": None,
            "haunt": None,
            "turn": None,
            "pending": None,
            "monsters": {},
            "monster_moves": {},
            "last_roll": None,
            "last_attack": None,
            "last_event": None,
            "timer": timers.new(options.turn_seconds, [flow.WARNING_SECONDS]) if options.turn_seconds else None,
            "timer_seconds": options.turn_seconds,
            "finished": None,
        }
        if options.explorers is not None:
            self._preset(state, d, options.explorers)
        return state

    def _preset(self, s: State, d: data.DataSet, chosen: dict[str, str]) -> None:
        """Explorers given in the options: checked like choices, and the birthday explorer starts (B1.2)."""
        if set(chosen) != set(s["seats"]):
            raise Rejected("reject.bad_argument", field="explorers", problem="name one character per player")
        known = {c.id for c in d.characters.characters}
        unknown = [c for c in chosen.values() if c not in known]
        if unknown:
            raise Rejected("reject.betrayal_unknown_character", character=unknown[0][:24])
        if len({d.character(c).card for c in chosen.values()}) != len(chosen):
            raise Rejected("reject.bad_argument", field="explorers", problem="two explorers of the same card")
        for pid, cid in chosen.items():
            s["explorers"][pid] = explorers.new(d.character(cid), s["explorers"][pid]["room"])
        ctx = Ctx(state=s, by="host", role="host", player=None, at=0)
        first = seating.birthday_first(s)
        ctx.announce("betrayal.first_player", player=first)
        flow.begin(ctx, first, start_timer=False)

    def tokens(self, state: State) -> dict[str, list[str]]:
        """What a tag can be enrolled as (companion/taps/kinds.py): each room tile the table lays (not the
        start rooms, on the table from the start: B1.1), and each omen, item and event card, by deck."""
        d = data.of(state)
        rooms = [r.id for r in d.house.rooms if not r.start]
        return {"room": rooms, **{kind: [c.id for c in d.cards(kind)] for kind in ("omen", "item", "event")}}

    def on_token(self, state: State, kind: str, token_id: str, actor: str) -> tuple[str, dict[str, Any]] | None:
        """A room tile's token tapped while the table lays a room; an omen, item or event card's token
        tapped while the new room's card is drawn."""
        ph = flow.phase(state)
        if kind == "room" and ph == "room":
            return ("room.reveal", {"room": token_id})
        if kind in ("omen", "item", "event") and ph == "card" and state["pending"]["card"] == kind:
            return ("card.reveal", {"card": token_id})
        return None

    def board(self) -> BoardPicture | None:
        from companion.games.betrayal import picture  # pygame is imported only where a screen draws

        return picture.draw_board


GAME = Betrayal()
