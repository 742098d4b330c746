"""The referee: validate and authorize an input, log it durably, then apply it; and serve views.

Order matters: an accepted input is appended to the log *before* the new state is adopted and before
any adapter is told, so an acknowledged input survives a power cut, and a crash between the append and
the adoption is repaired by the replay on start.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from companion.core import corrections, host_controls, story
from companion.core.contract import Deadline, Game, Setup, State
from companion.core.corrections import Event
from companion.core.eventlog import EventLog, LogError
from companion.core.failure import failure
from companion.core.fold import fold, initial, step
from companion.core.inputs import HOST, Input, actor_player
from companion.core.rejection import Rejected

logger = logging.getLogger(__name__)
PUBLIC = "public"
HOST_VIEW = "host"
ANNOUNCEMENTS_SHOWN = 20
#: The most announcements a finished game's view carries as its whole story (`story`): the latest, so a
#: view stays far under what the broker carries (phones/topics.py, VIEW_MAX_BYTES) however long the game
#: ran; `announced` says how many there were (the command line's `--all-announcements` gives them all).
STORY_SHOWN = 400


@dataclass(frozen=True)
class Outcome:
    """What the sender is told. `seq` is the input's place in the log when accepted."""

    accepted: bool
    seq: int | None = None
    reason: Rejected | None = None
    duplicate: bool = False

    def to_json(self) -> dict[str, Any]:
        if self.accepted:
            return {"ok": True, "seq": self.seq, "duplicate": self.duplicate}
        assert self.reason is not None
        return {"ok": False, "reason": self.reason.to_json()}


class Referee:
    """One game on one event log. Not thread-safe: the main loop owns it."""

    def __init__(self, games: Mapping[str, Game], log: EventLog, game_id: int) -> None:
        stored = log.game(game_id)
        if stored is None:
            raise LogError(f"no game {game_id} in {log.path}")
        if stored.setup.game not in games:
            raise LogError(f"game {game_id} is a {stored.setup.game!r} game, which this companion does not know")
        self.game = games[stored.setup.game]
        self.setup: Setup = stored.setup
        self.log = log
        self.game_id = game_id
        self.events: list[Event] = log.events(game_id)
        self._commands = {ev.input.command_key: ev for ev in self.events if ev.input.command_key is not None}
        self._deadlines: tuple[State, tuple[Deadline, ...]] | None = None  # `deadlines` of that state
        try:
            # the state, and the events in force after every correction (what the host's history shows)
            self.state, self.live = self._refold(self.events)
        except Rejected as broken:
            raise LogError(f"game {game_id} in {log.path} does not replay ({broken.code})") from None

    @classmethod
    def start(cls, games: Mapping[str, Game], log: EventLog, setup: Setup, created_at: int) -> Referee:
        """Create a new game in the log (after checking its setup) and open it."""
        if setup.game not in games:
            raise Rejected("reject.unknown_game", game=setup.game[:40])
        initial(games[setup.game], setup)  # refuse a bad setup before it is stored
        return cls(games, log, log.create_game(setup, created_at))

    @classmethod
    def resume(cls, games: Mapping[str, Game], log: EventLog) -> Referee | None:
        latest = log.latest_game()
        return None if latest is None else cls(games, log, latest.id)

    # -- inputs ---------------------------------------------------------------------------------------

    def submit(self, inp: Input) -> Outcome:
        """Apply one input. Rejected: nothing changes. Accepted: logged, then adopted."""
        earlier = self._commands.get(inp.command_key) if inp.command_key is not None else None
        if earlier is not None:
            if (earlier.input.move, dict(earlier.input.args)) != (inp.move, dict(inp.args)):
                return Outcome(accepted=False, reason=Rejected("reject.command_id_reused", id=inp.id))
            return Outcome(accepted=True, seq=earlier.seq, duplicate=True)
        try:
            if corrections.is_correction(inp):
                corrections.check(self.game, self.live, inp)
                candidate, live = self._refold([*self.events, Event(len(self.events) + 1, inp)])
            else:
                candidate = step(self.game, self.state, inp)
                live = [*self.live, Event(len(self.events) + 1, inp)]
        except Rejected as reason:
            return Outcome(accepted=False, reason=reason)
        except Exception as err:  # a game's bug met an input it did not foresee: refuse it, change nothing
            logger.error("the game %s failed on a %s input: %s", self.setup.game, _safe(inp.move), failure(err))
            return Outcome(accepted=False, reason=Rejected("reject.referee_failed"))
        seq = len(self.events) + 1
        try:
            self.log.append(self.game_id, seq, inp)
        except LogError as err:  # disk full, read-only: say why in the journal, refuse, change nothing
            logger.error("%s", err)
            return Outcome(accepted=False, reason=Rejected("reject.storage_failed"))
        event = Event(seq, inp)
        self.events.append(event)
        if inp.command_key is not None:
            self._commands[inp.command_key] = event
        self.state, self.live = candidate, live
        return Outcome(accepted=True, seq=seq)

    def _refold(self, events: list[Event]) -> tuple[State, list[Event]]:
        """The state and the events in force after `events`, refolded from the setup."""
        live = corrections.effective(events)
        try:
            state = fold(self.game, self.setup, [ev.input for ev in live])
        except Rejected as broken:
            raise Rejected("reject.correction_breaks_later", problem=broken.code) from None
        state["corrections"] = [
            {"at": ev.input.at, "kind": ev.input.move} for ev in events if corrections.is_correction(ev.input)
        ]
        return state, live

    # -- time -----------------------------------------------------------------------------------------

    def deadlines(self) -> Sequence[Deadline]:
        """The current state's deadlines, soonest first (worked out once per state: the loop asks at
        every turn and every input, and a state never changes once adopted)."""
        known = self._deadlines
        if known is None or known[0] is not self.state:
            found = () if self.state.get("ended") else sorted(self.game.deadlines(self.state), key=lambda d: d.at)
            known = self._deadlines = (self.state, tuple(found))
        return list(known[1])

    def due(self, now: int) -> list[Input]:
        """Clock inputs whose deadline has passed, stamped with their deadline (not with `now`)."""
        return [Input(d.move, "clock", dict(d.args), d.at) for d in self.deadlines() if d.at <= now]

    # -- views ----------------------------------------------------------------------------------------

    def story(self) -> list[dict[str, Any]]:
        """Every announcement of the game so far, in order (views keep the last ones only: issue 31)."""
        return story.announcements(self.game, self.setup, [ev.input for ev in self.live])

    def view(self, audience: str) -> dict[str, Any]:
        """The view for ``public``, ``host`` or ``player:<id>``. Nothing else leaves the core.

        Every view holds the public one: a caller that wants several (the table, after a change) makes
        the public view once with `public_view` and each audience's with `audience_view`."""
        public = public_view(self.game, self.setup, self.state, self.live, self.game_id)
        return audience_view(self.game, self.state, self.live, public, audience)


def public_view(game: Game, setup: Setup, state: State, live: Sequence[Event], number: int) -> dict[str, Any]:
    """What everyone may see of `state`: the public view, and the common part of every other view;
    `live` are the events in force (whether the game has begun); `number` is the game's number in the
    log (`Referee.game_id`): it changes when the table starts another game (companion/table/next_game.py).
    The setup's options are public (what the table chose to play with); its seed never leaves the core.
    `moderated`: the host does not play but moderates (`Setup.moderator`), which everyone is told.
    A finished game's view also carries `story`: its announcements from the first, in order (issue 31;
    `announcements` keeps the last ones only), refolded from the inputs in force once, when it ends.
    Announcements are public, so the story is too."""
    ended = bool(state.get("ended"))
    told = {"story": story.announcements(game, setup, [ev.input for ev in live])[-STORY_SHOWN:]} if ended else {}
    return {
        "game": setup.game,
        "moderated": setup.moderator,
        "number": number,
        "options": dict(setup.options),
        "players": state["players"],
        "announcements": state["announcements"][-ANNOUNCEMENTS_SHOWN:],
        "announced": state["announced"],
        "corrections": len(state.get("corrections", [])),
        "begun": bool(live),  # an input is in force (public: not how many, nor whose)
        "ended": ended,
        "result": game.result(state),
        "phase": None if ended else game.phase(state),
        "turn": None if ended else game.current_player(state),
        "table": game.view_public(state),
        **told,
    }


def audience_view(game: Game, state: State, live: Sequence[Event], public: dict[str, Any],
                  audience: str) -> dict[str, Any]:
    """The view of `audience` (``public``, ``host`` or ``player:<id>``) built on `public`, the public
    view of the same `state` (`public_view`); `live` are the events in force (the host's history).
    The host of a moderated table (``public["moderated"]``) also gets the game's moderator view."""
    if audience == PUBLIC:
        return public
    if audience == HOST_VIEW:
        moderator = {"moderator": game.view_moderator(state)} if public.get("moderated") else {}
        return {
            **moderator,
            **public,
            "host": game.view_host(state),
            "prompts": _prompts(game, state, HOST),
            "host_menu": [c.to_json() for c in host_controls.now(game.host_controls, game.moves, public)],
            "history": [corrections.history_entry(game, ev) for ev in live[-ANNOUNCEMENTS_SHOWN:]],
        }
    return {**public, **player_part(game, state, player_of(state, audience))}


def player_of(state: State, audience: str) -> str:
    """The player id of the audience ``player:<id>`` (Rejected: no such player in `state`)."""
    pid = actor_player(audience)
    if pid is None or pid not in {p["id"] for p in state["players"]}:
        raise Rejected("reject.unknown_view", view=audience[:40])
    return pid


def player_part(game: Game, state: State, pid: str) -> dict[str, Any]:
    """What a player's view adds to the public one: who they are, their private view, their prompts."""
    return {"me": pid, "private": game.view_player(state, pid), "prompts": _prompts(game, state, f"player:{pid}")}


def _prompts(game: Game, state: State, actor: str) -> list[dict[str, Any]]:
    if state.get("ended"):
        return []
    return [p.to_json() for p in game.prompts(state, actor)]


def _safe(move: str) -> str:
    """A move name for the journal: the game's own names only (a phone's text is not quoted)."""
    return move if move.replace(".", "").replace("_", "").isalnum() and move.isascii() and len(move) <= 64 else "?"
