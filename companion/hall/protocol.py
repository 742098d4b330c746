"""What crosses between a table and the hall (docs/hall.md): topics and payloads, one place for both sides.

Each table keeps its own Mosquitto and bridges to the hall's central Mosquitto (Mosquitto's own
federation). Only what is public crosses, named here; never a seat topic, a credential, a host view or
the log. Under the table's topics (`companion.phones.topics.Topics.base`, ``{prefix}/v1/{table}``):

    out (table -> hall), all retained, QoS 1
      status             the referee's "online" / "headless" / "offline" (its last will)
      public             the public view (JSON), as phones get it
      events             announcements as they happen (not retained)
      about              this table's hall name and language            (`about_payload`)
      results/{number}   a finished game's ranking, one topic per game  (`result_payload`)
      seated             what became of the last seating: started, waiting, or refused and why
                                                                          (`seated_payload`)
      bridge             "1" / "0": Mosquitto's own notification of the bridge (its will on the hall),
                         published on the hall by Mosquitto itself, so not a `topic` of the bridge

    in (hall -> table), retained, QoS 1
      hall/seating       the next round's seat list for this table       (`seating_payload`)

Exactly once: a result is retained on the table's broker, so the bridge delivers it again after every
reconnect (Mosquitto sends retained messages to a new bridge subscription; a non-retained message sent
while the bridge is down is lost, checked on Mosquitto 2.0.11). The table republishes the results of its
log at start (its broker keeps nothing across a restart), and the hall keeps each in SQLite under its
`key` and ignores a second copy. At least once plus a unique key: each result counts once.

On the central broker a table logs in with its table id as user name; the ACL lets it write only its
own `out` topics and read only its own `hall/#` (`central_acl_patterns`).

Payloads come from hostile networks too (a table's config can be wrong, a laptop can join as a table):
each parser returns the payload or raises `BadPayload` naming what is wrong; none trusts a field.
"""

from __future__ import annotations

import json
import re
from typing import Any

VERSION = 1
HALL_USER = "companion-hall"  # the hall's own login on the central broker

OUT = ("status", "public", "events", "about", "results/+", "seated", "bridge")  # per table, table -> hall (its ACL)
# What the bridge carries: all of OUT but `bridge`, which Mosquitto publishes on the central broker itself;
# the copy of its "0" kept on the table's own broker would cross again after a reconnect and show the
# table offline while it is up (seen on Mosquitto 2.0.11).
BRIDGED_OUT = tuple(name for name in OUT if name != "bridge")
IN = ("hall/seating",)  # per table, hall -> table
MAX_RESULT_BYTES = 64 * 1024
MAX_SEATING_BYTES = 64 * 1024

TABLE_ID = re.compile(r"^[a-z0-9][a-z0-9_-]{0,31}$")
PLAYER_ID = re.compile(r"^[a-z0-9_-]{1,32}$")
GAME_ID = re.compile(r"^[a-z][a-z0-9_]{0,31}$")
KEY = re.compile(r"^[0-9a-f]{8,64}$")
REASON = re.compile(r"^reject\.[a-z0-9_.]{1,80}$")
MAX_NAME = 64


class BadPayload(ValueError):
    """A message that is not what its topic carries; the text says what is wrong (never echoes the payload)."""


def base(prefix: str, table: str) -> str:
    return f"{prefix}/v1/{table}"


def results_topic(prefix: str, table: str, number: int) -> str:
    return f"{base(prefix, table)}/results/{number}"


def about_topic(prefix: str, table: str) -> str:
    return f"{base(prefix, table)}/about"


def bridge_topic(prefix: str, table: str) -> str:
    return f"{base(prefix, table)}/bridge"


def seated_topic(prefix: str, table: str) -> str:
    return f"{base(prefix, table)}/seated"


def seating_topic(prefix: str, table: str) -> str:
    return f"{base(prefix, table)}/hall/seating"


def central_acl_patterns(prefix: str) -> list[tuple[str, str]]:
    """The central broker's ACL for tables, as (access, pattern) with `%u` = the table id."""
    out = [("write", f"{prefix}/v1/%u/{name}") for name in OUT]
    return out + [("read", f"{prefix}/v1/%u/{name}") for name in IN]


# -- payloads -------------------------------------------------------------------------------------------

def result_payload(*, table: str, key: str, number: int, game: str, players: list[dict[str, str]],
                   ranking: list[list[str]], points: dict[str, int] | None, stopped: bool,
                   finished_ms: int, seating: str | None = None, round_no: int | None = None) -> bytes:
    """A finished game's result. `key` is unique to this game in this table's log (the log's own random
    id and the game's number in it), `points` the game's own league points where it has them
    (Lockdown's 9..1; the hall never reads them), else None; `stopped`: the host ended it (no ranking);
    `seating` and `round_no`: the hall's seating that started this game (None: a game seated by hand)."""
    return _dump({"v": VERSION, "table": table, "key": key, "number": number, "game": game,
                  "players": players, "ranking": ranking, "points": points, "stopped": stopped,
                  "finished_ms": finished_ms, "seating": seating, "round": round_no})


def parse_result(payload: bytes, table: str) -> dict[str, Any]:
    """A result sent on `table`'s results topic, checked field by field (BadPayload: what is wrong)."""
    d = _load(payload, MAX_RESULT_BYTES)
    if d.get("table") != table:
        raise BadPayload("result: its table is not the topic's table")
    _match(d, "key", KEY)
    _match(d, "game", GAME_ID)
    number = _int(d, "number")
    _int(d, "finished_ms")
    if not isinstance(d.get("stopped"), bool):
        raise BadPayload("result: stopped must be true or false")
    players = _players(d.get("players"), "result")
    ids = {p["id"] for p in players}
    ranking = d.get("ranking")
    if not isinstance(ranking, list) or not all(isinstance(g, list) and g for g in ranking):
        raise BadPayload("result: ranking must be a list of non-empty lists of player ids")
    placed = [pid for group in ranking for pid in group]
    if any(not isinstance(pid, str) or pid not in ids for pid in placed) or len(placed) != len(set(placed)):
        raise BadPayload("result: ranking names a player twice or one not in the game")
    if d["stopped"] and placed:
        raise BadPayload("result: a stopped game has no ranking")
    points = d.get("points")
    if points is not None and (not isinstance(points, dict) or set(points) - ids or not all(
            isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= 1000 for v in points.values())):
        raise BadPayload("result: points must map the game's players to whole numbers 0-1000")
    seating, round_no = d.get("seating"), d.get("round")
    if seating is not None or round_no is not None:
        _match(d, "seating", KEY)
        _int(d, "round")
    return {"table": table, "key": d["key"], "number": number, "game": d["game"], "players": players,
            "ranking": ranking, "points": points, "stopped": d["stopped"], "finished_ms": d["finished_ms"],
            "seating": seating, "round": round_no}


def about_payload(*, name: str, language: str) -> bytes:
    return _dump({"v": VERSION, "name": name, "language": language})


def parse_about(payload: bytes) -> dict[str, str]:
    d = _load(payload, 4096)
    name, language = d.get("name"), d.get("language")
    if not isinstance(name, str) or not 0 < len(name) <= MAX_NAME or not name.isprintable():
        raise BadPayload(f"about: name must be 1-{MAX_NAME} printable characters")
    if language not in ("en", "zh", "th"):
        raise BadPayload("about: language must be en, zh or th")
    return {"name": name, "language": language}


def seating_payload(*, seating: str, round_no: int, game: str, options: dict[str, Any],
                    players: list[dict[str, str]]) -> bytes:
    """The next round at one table: `seating` is unique to this seating (a table applies each once)."""
    return _dump({"v": VERSION, "seating": seating, "round": round_no, "game": game, "options": options,
                  "players": players})


SEATED = ("applied", "pending", "refused")


def seated_payload(*, seating: str, round_no: int, state: str, reason: dict[str, Any] | None = None) -> bytes:
    """A table's answer to a seating: `state` one of SEATED; a refusal's `reason` is the table's own
    rejection ({"code": "reject....", "params": {...}}), which the organiser's page says in words."""
    return _dump({"v": VERSION, "seating": seating, "round": round_no, "state": state, "reason": reason})


def parse_seated(payload: bytes) -> dict[str, Any]:
    d = _load(payload, 4096)
    _match(d, "seating", KEY)
    round_no = _int(d, "round")
    if d.get("state") not in SEATED:
        raise BadPayload("seated: state must be applied, pending or refused")
    reason = d.get("reason")
    shown = None
    if reason is not None:
        code, params = (reason.get("code"), reason.get("params", {})) if isinstance(reason, dict) else (None, None)
        if not isinstance(code, str) or not REASON.match(code) or not isinstance(params, dict):
            raise BadPayload("seated: a reason is a message id and its params")
        shown = {"code": code, "params": {k: v for k, v in list(params.items())[:8] if isinstance(k, str) and len(
            k) <= 40 and _reason_param(v)}}
    return {"seating": d["seating"], "round": round_no, "state": d["state"], "reason": shown}


def _reason_param(value: Any) -> bool:
    if isinstance(value, list):
        return len(value) <= 10 and all(isinstance(v, str) and len(v) <= 40 for v in value)
    return isinstance(value, (int, bool)) or (isinstance(value, str) and len(value) <= 80)


def parse_seating(payload: bytes) -> dict[str, Any]:
    d = _load(payload, MAX_SEATING_BYTES)
    _match(d, "seating", KEY)
    _match(d, "game", GAME_ID)
    round_no = _int(d, "round")
    if not isinstance(d.get("options"), dict):
        raise BadPayload("seating: options must be an object")
    return {"seating": d["seating"], "round": round_no, "game": d["game"], "options": d["options"],
            "players": _players(d.get("players"), "seating")}


# -- helpers --------------------------------------------------------------------------------------------

def _dump(obj: dict[str, Any]) -> bytes:
    return json.dumps(obj, separators=(",", ":")).encode()  # ASCII: a lone surrogate in a name cannot raise


def _load(payload: bytes, limit: int) -> dict[str, Any]:
    if len(payload) > limit:
        raise BadPayload(f"larger than {limit} bytes")
    try:
        d = json.loads(payload.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise BadPayload("not JSON in UTF-8") from None
    if not isinstance(d, dict) or d.get("v") != VERSION:
        raise BadPayload(f"not a version {VERSION} object")
    return d


def _match(d: dict[str, Any], key: str, pattern: re.Pattern[str]) -> str:
    value = d.get(key)
    if not isinstance(value, str) or not pattern.match(value):
        raise BadPayload(f"{key} is missing or malformed")
    return value


def _int(d: dict[str, Any], key: str) -> int:
    value = d.get(key)
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < 2**53:
        raise BadPayload(f"{key} must be a whole number")
    return value


def _players(value: Any, what: str) -> list[dict[str, str]]:
    if not isinstance(value, list) or not 0 < len(value) <= 64:
        raise BadPayload(f"{what}: players must be a list of 1-64 players")
    out = []
    for p in value:
        if not isinstance(p, dict) or not isinstance(p.get("id"), str) or not PLAYER_ID.match(p["id"]):
            raise BadPayload(f"{what}: a player's id is missing or malformed")
        name = p.get("name")
        if not isinstance(name, str) or not 0 < len(name) <= MAX_NAME or not name.isprintable():
            raise BadPayload(f"{what}: a player's name must be 1-{MAX_NAME} printable characters")
        out.append({"id": p["id"], "name": name})
    if len({p["id"] for p in out}) != len(out):
        raise BadPayload(f"{what}: a player is listed twice")
    return out
