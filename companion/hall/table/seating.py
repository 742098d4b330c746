"""The hall's seating arriving at a table: the next round's game and players, applied once.

The hall publishes it retained on this table's `hall/seating` topic (companion/hall/protocol.py); the
bridge brings it to the table's broker and the referee's client reads it (`Mirror.subscriptions`). On
paho's thread it is only checked (`parse_seating`; a bad one is logged with what is wrong and nothing
changes) and handed to the table's loop (`Table.call`). There, a seating not applied before starts that
game with those players and options through the host's own `table.new_game` (companion/table/next_game.py)
when no game is under way; while one is, it waits, and starts when that game ends. The ids applied are
kept in the log's settings, so the retained copy the broker delivers again after a restart is not
applied twice. Each step is said on the console and the kiosk's status bar (`say`).
"""

from __future__ import annotations

import json
import logging
import queue
from collections.abc import Callable
from typing import Any

from companion.core.eventlog import EventLog, LogError
from companion.core.identity import seat_name
from companion.core.referee import Outcome
from companion.hall import protocol
from companion.hall.table.results import SEATED
from companion.table import next_game
from companion.table.loop import Table
from companion.table.views import Views

logger = logging.getLogger(__name__)
APPLIED = "hall.seatings_applied"  # the log's settings: the seating ids already applied (JSON list)
KEEP_APPLIED = 200

Say = Callable[[str, dict[str, Any]], None]


Answer = Callable[[dict[str, Any], str, dict[str, Any] | None], None]  # (seating, state, reason)


class HallSeating:
    """The seatings of one table: `receive` on paho's thread, the rest on the table's loop. `answer`
    tells the hall what became of each (`protocol.seated_payload`): started, waiting for the game under
    way, or refused and why, so the organiser's page can say it."""

    def __init__(self, table: Table, log: EventLog, say: Say,
                 answer: Answer = lambda seating, state, reason: None) -> None:
        self.table, self.log, self.say, self.answer = table, log, say, answer
        self.pending: dict[str, Any] | None = None
        self.applied: list[str] = self._load()
        # what became of each message, in order: ("bad", what is wrong) or ("applied" | "pending" |
        # "again" | "refused", the seating's id); for the journal's reader and for tests to wait on
        self.heard: queue.Queue[tuple[str, str]] = queue.Queue()

    def _load(self) -> list[str]:
        try:
            found = json.loads(self.log.setting(APPLIED) or "[]")
        except ValueError:
            return []
        return [s for s in found if isinstance(s, str)] if isinstance(found, list) else []

    # -- paho's thread ------------------------------------------------------------------------------------

    def receive(self, payload: bytes) -> None:
        """A message on the seating topic: checked here, applied on the table's loop."""
        try:
            seating = protocol.parse_seating(payload)
        except protocol.BadPayload as err:  # the text names the field, never echoes the payload
            logger.warning("the hall's seating (%d bytes) is refused: %s", len(payload), err)
            self.heard.put(("bad", str(err)))
            return
        self.table.call(lambda: self.arrived(seating))

    # -- the table's loop ---------------------------------------------------------------------------------

    def arrived(self, seating: dict[str, Any]) -> None:
        if seating["seating"] in self.applied:
            self.heard.put(("again", seating["seating"]))
            return
        if next_game.in_progress(self.table.views.public):
            if self.pending is None or self.pending["seating"] != seating["seating"]:
                self.pending = seating
                self.say("hall.seating_pending", {"round": seating["round"]})
                self.answer(seating, "pending", None)
            self.heard.put(("pending", seating["seating"]))
            return
        self._apply(seating)

    def changed(self, views: Views, outcomes: list[Outcome]) -> None:
        """An output: once the game under way has ended, the pending seating starts (on the next turn of
        the loop, not inside the outputs' round)."""
        if self.pending is not None and not next_game.in_progress(views.public):
            self.table.call(self.apply_pending)

    def apply_pending(self) -> None:
        if self.pending is not None and not next_game.in_progress(self.table.views.public):
            seating, self.pending = self.pending, None
            self._apply(seating)

    def _apply(self, seating: dict[str, Any]) -> None:
        self._remember(seating["seating"])
        players = [{"id": p["id"], "name": seat_name(p["name"])} for p in seating["players"]]
        outcome = self.table.handle({
            "by": "host", "move": next_game.MOVE, "id": seating["seating"][:64],
            "args": {"game": seating["game"], "players": players, "options": seating["options"]}})
        if outcome.accepted:
            try:  # the game's result says which seating started it (companion/hall/table/results.py)
                self.log.set_setting(SEATED.format(number=self.table.referee.game_id), json.dumps(
                    {"seating": seating["seating"], "round": seating["round"]}))
            except LogError as err:  # its result then counts as a casual game: say so
                logger.error("%s", err)
            logger.info("the hall seated round %d: game %s", seating["round"], seating["game"])
            self.say("hall.seated", {"round": seating["round"]})
            self.answer(seating, "applied", None)
            self.heard.put(("applied", seating["seating"]))
            return
        reason = outcome.reason.code if outcome.reason is not None else "?"
        logger.warning("the hall's seating for round %d is refused: %s", seating["round"], reason)
        self.say("hall.seating_refused", {"round": seating["round"]})
        self.answer(seating, "refused", None if outcome.reason is None else {
            "code": outcome.reason.code, "params": dict(outcome.reason.params)})
        self.heard.put(("refused", seating["seating"]))

    def _remember(self, seating_id: str) -> None:
        self.applied = [*self.applied, seating_id][-KEEP_APPLIED:]
        try:
            self.log.set_setting(APPLIED, json.dumps(self.applied))
        except LogError as err:  # applied now; after a restart it could be applied again: say so
            logger.error("%s", err)
