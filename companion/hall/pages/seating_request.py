"""The organiser's "Seat the next round" request (POST /seating), checked field by field.

The body is JSON: `{"game": id, "present": [player id...], "tables": [table id...]}`, optionally with
`table_games` (`{table id: game id}`: a table of the round playing another game; the pods then fit every
game of the round), `pods`, `byes`, `minutes` and `reseat`. Each problem is a
`Refused` with a message id (`hall.reject.*`, translated on the organiser's page) and its params; a
param that names something the request sent is cut to its first `ECHO` characters and shown as text.
"""

from __future__ import annotations

import json
import math
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from http import HTTPStatus
from typing import Any

MAX_BODY = 16 * 1024  # bytes: 100 tables and 600 player ids fit in well under half of it
ECHO = 32
FIELDS = {"game", "present", "tables"}
# players per table [low, high], sit out what does not fit, the round's time, re-seat within the round
OPTIONAL = {"pods", "byes", "minutes", "reseat", "table_games"}  # table_games: {table id: game id}


@dataclass
class Refused(Exception):
    code: str
    params: dict[str, Any] = field(default_factory=dict)
    status: HTTPStatus = HTTPStatus.BAD_REQUEST

    def answer(self) -> dict[str, Any]:
        return {"error": {"code": self.code, "params": self.params}}


@dataclass(frozen=True)
class SeatingRequest:
    game: str
    present: list[str]
    tables: list[str]
    pods: tuple[int, int] | None = None
    byes: bool = False
    minutes: int | None = None
    reseat: bool = False  # seat these tables again within the current round
    table_games: dict[str, str] = field(default_factory=dict)  # a table's game when not the round's `game`


def _ids(value: Any, what: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise Refused("hall.reject.bad_request", {"field": what})
    twice = next((v for i, v in enumerate(value) if v in value[:i]), None)
    if twice is not None:
        raise Refused("hall.reject.named_twice", {"name": twice[:ECHO]})
    return value


def parse(body: bytes, games: Mapping[str, Mapping[str, Any]], roster: Collection[str],
          tables: Collection[str]) -> SeatingRequest:
    """The request in `body`, if every field is right: `games` by id (with `low`/`high` player counts),
    the roster's player ids and the hall's table ids."""
    try:
        data = json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise Refused("hall.reject.not_json") from None
    if not isinstance(data, dict) or not FIELDS <= set(data) <= FIELDS | OPTIONAL:
        raise Refused("hall.reject.bad_request", {"field": ", ".join(sorted(FIELDS))})
    game = data["game"]
    if not isinstance(game, str) or game not in games:
        raise Refused("hall.reject.unknown_game")
    present = _ids(data["present"], "present")
    chosen = _ids(data["tables"], "tables")
    stranger = next((pid for pid in present if pid not in roster), None)
    if stranger is not None:
        raise Refused("hall.reject.unknown_player", {"player": stranger[:ECHO]})
    unknown = next((tid for tid in chosen if tid not in tables), None)
    if unknown is not None:
        raise Refused("hall.reject.unknown_table", {"table": unknown[:ECHO]})
    table_games = data.get("table_games", {})
    if not isinstance(table_games, dict) or not all(isinstance(g, str) for g in table_games.values()):
        raise Refused("hall.reject.bad_request", {"field": "table_games"})
    unchosen = next((tid for tid in table_games if tid not in chosen), None)
    if unchosen is not None:
        raise Refused("hall.reject.bad_request", {"field": "table_games"})
    if any(g not in games for g in table_games.values()):
        raise Refused("hall.reject.unknown_game")
    played = {game, *table_games.values()}  # the pods fit every game of the round
    low = max(int(games[g]["low"]) for g in played)
    high = min(int(games[g]["high"]) for g in played)
    if low > high:  # no table size suits every game chosen
        raise Refused("hall.reject.bad_pods", {"low": low, "high": high})
    pods = data.get("pods")
    if pods is not None:
        if not isinstance(pods, list) or len(pods) != 2 or not all(_small(v) for v in pods) or \
                not low <= pods[0] <= pods[1] <= high:
            raise Refused("hall.reject.bad_pods", {"low": low, "high": high})
        low, high = pods
    byes, minutes, reseat = data.get("byes", False), data.get("minutes"), data.get("reseat", False)
    if not isinstance(byes, bool) or not isinstance(reseat, bool):
        raise Refused("hall.reject.bad_request", {"field": "byes"})
    if minutes is not None and (not _small(minutes) or not 1 <= minutes <= 600):
        raise Refused("hall.reject.bad_minutes")
    if len(present) < low:
        raise Refused("hall.reject.too_few_players", {"count": len(present), "low": low})
    needed = math.ceil(len(present) / high)
    if not chosen or (len(chosen) < needed and not byes):
        raise Refused("hall.reject.too_few_tables", {"needed": needed, "count": len(chosen)})
    return SeatingRequest(game, present, chosen, None if pods is None else (low, high), byes, minutes, reseat,
                          {t: g for t, g in table_games.items() if g != game})


def _small(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= 10_000
