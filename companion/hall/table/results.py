"""The table's results for the hall: an output, like the phones' mirror, that publishes each finished
game's result (`protocol.result_payload`, retained, QoS 1) and this table's `about`.

A result is built from the public view only (its `result`, `players` and `number`): nothing secret
crosses. `key` is this log's own random id (made once, kept in the log's settings) and the game's number,
in hex, so the hall can tell a second copy of a result from another game, even across a table's
restart on the same file. At start the results of the log's last `RECENT` finished games are published
again, since the managed broker keeps nothing across a restart: each as it was first sent, kept in the
log's settings (`hall.result.<number>`), so a start replays no finished game (a Pi would fold each one
again); only a game with no kept result is replayed, once, and its result kept if it has one. The
bridge delivers each retained one again after every reconnection (at least once; the hall ignores a
copy with a key it has).

I/O at the edge: `changed` runs on the table's loop (never on a reader's or paho's thread) and only
hands bytes to the mirror's connection (`Mirror.publish_retained`), which republishes them on every
reconnection to the table's broker.
"""

from __future__ import annotations

import json
import logging
import secrets
from collections.abc import Callable, Mapping
from typing import Any

from companion.core.contract import Game
from companion.core.eventlog import EventLog, LogError
from companion.core.referee import Outcome, Referee
from companion.hall import protocol
from companion.table.views import Views

logger = logging.getLogger(__name__)
RECENT = 50  # finished games published again at start
LOG_ID = "hall.log_id"  # the log's settings: this log's random id, in hex
KEPT = "hall.result.{number}"  # the log's settings: a game's result as first sent (ASCII JSON)
SEATED = "hall.seated.{number}"  # the log's settings: the hall's seating that started a game (JSON)

Publish = Callable[[str, bytes], None]


def log_id(log: EventLog) -> str:
    """This log's random id, made the first time it is asked for and kept in the log."""
    found = log.setting(LOG_ID)
    if found is None or not protocol.KEY.match(found):
        found = secrets.token_hex(8)
        log.set_setting(LOG_ID, found)
    return found


def result_key(log_key: str, number: int) -> str:
    return f"{log_key}{number:08x}"


def _points(result: Mapping[str, Any], ids: set[str]) -> dict[str, int] | None:
    points = result.get("points")
    if not isinstance(points, dict) or not points or set(points) - ids:
        return None
    if not all(isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= 1000 for v in points.values()):
        return None
    return dict(points)


def seated_for(log: EventLog, number: int) -> dict[str, Any]:
    """The hall's seating that started game `number` at this table ({} for a game seated by hand), as
    companion/hall/table/seating.py keeps it: {"seating": key, "round": n}."""
    try:
        found = json.loads(log.setting(SEATED.format(number=number)) or "{}")
    except ValueError:
        return {}
    if not isinstance(found, dict) or not isinstance(found.get("seating"), str) or \
            not protocol.KEY.match(found["seating"]) or not isinstance(found.get("round"), int):
        return {}
    return {"seating": found["seating"], "round": found["round"]}


def result_of(public: Mapping[str, Any], *, table: str, key: str, finished_ms: int,
              seated: Mapping[str, Any] | None = None) -> bytes | None:
    """The result payload of a public view, or None while its game goes on; `seated`: the hall's
    seating that started it (`seated_for`)."""
    result = public.get("result")
    if not public.get("ended") or not isinstance(result, dict):
        return None
    players = [{"id": p["id"], "name": p["name"]} for p in public["players"]]
    stopped = bool(result.get("stopped"))
    ranking = [] if stopped else [list(group) for group in result.get("ranking", []) if group]
    points = None if stopped else _points(result, {p["id"] for p in players})
    return protocol.result_payload(table=table, key=key, number=int(public["number"]), game=str(public["game"]),
                                   players=players, ranking=ranking, points=points, stopped=stopped,
                                   finished_ms=finished_ms, seating=(seated or {}).get("seating"),
                                   round_no=(seated or {}).get("round"))


def finished_ms(referee: Referee) -> int:
    """When the game ended: its last event's time (the table's clock, ms)."""
    return referee.events[-1].input.at if referee.events else 0


class HallResults:
    """Publishes the about at start, then each game's result once it has one (an `Output`)."""

    def __init__(self, publish: Publish, *, prefix: str, table: str, name: str, language: str,
                 log: EventLog, games: Mapping[str, Game], current: Callable[[], Referee]) -> None:
        self.publish, self.prefix, self.table = publish, prefix, table
        self.name, self.language = name, language
        self.log, self.games, self.current = log, games, current
        self.key = log_id(log)
        self.published: set[int] = set()

    def start(self) -> None:
        """On the table's loop before it runs: the about, then the recent finished games' results."""
        self.publish(protocol.about_topic(self.prefix, self.table),
                     protocol.about_payload(name=self.name, language=self.language))
        current = self.current()
        for number in self.log.game_ids(RECENT):
            kept = self.log.setting(KEPT.format(number=number))
            if kept is not None:
                self.published.add(number)
                self.publish(protocol.results_topic(self.prefix, self.table, number), kept.encode())
                continue
            if number == current.game_id:
                self._send(Views.of(current).public, finished_ms(current))
                continue
            try:
                referee = Referee(dict(self.games), self.log, number)
            except LogError as err:  # a game this companion no longer knows: its result stays in the log
                logger.warning("a finished game is not sent to the hall: %s", err)
                continue
            self._send(Views.of(referee).public, finished_ms(referee))

    def changed(self, views: Views, outcomes: list[Outcome]) -> None:
        if views.public.get("ended") and views.number not in self.published:
            referee = self.current()
            at = finished_ms(referee) if referee.game_id == views.number else 0
            self._send(views.public, at)

    def _send(self, public: Mapping[str, Any], at: int) -> None:
        number = int(public["number"])
        payload = result_of(public, table=self.table, key=result_key(self.key, number), finished_ms=at,
                            seated=seated_for(self.log, number))
        if payload is None:
            return
        self.published.add(number)
        self.publish(protocol.results_topic(self.prefix, self.table, number), payload)
        try:
            self.log.set_setting(KEPT.format(number=number), payload.decode("ascii"))
        except LogError as err:  # sent now; the next start folds the game again to send it
            logger.error("%s", err)
        logger.info("game %d's result is published for the hall", number)
