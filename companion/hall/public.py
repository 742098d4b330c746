"""What the hall shows of one table, read from the table's public view and its other public topics.

Every field is checked: a table's payload comes over the network, so a wrong type, a huge or deeply
nested value raises `BadPayload` naming what is wrong, and the hall keeps what it had. Nothing here
reads anything but the public view (the one every phone gets), so the hall can show no secret.
"""

from __future__ import annotations

import json
import math
from typing import Any

from companion.hall.protocol import GAME_ID, MAX_NAME, PLAYER_ID, BadPayload
from companion.phones.topics import VIEW_MAX_BYTES

ANNOUNCEMENTS_KEPT = 8
STATUSES = ("online", "headless", "offline")
MAX_EVENT_BYTES = 16 * 1024
MAX_TIMERS = 16
MAX_PARAMS = 16  # an announcement's params kept
MAX_PARAM_TEXT = 400
_TIMER_KEYS = {"duration", "running", "deadline", "remaining"}


def json_object(payload: bytes, limit: int) -> dict[str, Any]:
    if len(payload) > limit:
        raise BadPayload(f"larger than {limit} bytes")
    try:
        d = json.loads(payload.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise BadPayload("not JSON in UTF-8") from None
    if not isinstance(d, dict):
        raise BadPayload("not a JSON object")
    return d


def status(payload: bytes) -> str:
    text = payload.decode("ascii", "replace")
    if text not in STATUSES:
        raise BadPayload("status must be online, headless or offline")
    return text


def bridge(payload: bytes) -> bool:
    if payload not in (b"1", b"0"):
        raise BadPayload('bridge must be "1" or "0"')
    return payload == b"1"


def announcement(item: Any) -> dict[str, Any]:
    """An announcement as the pages may show it: its params only of the shapes the games use (a text, a
    number, true/false, a list of those, a text in each language {en, zh, th}); any other param (an
    object such as {"toString": 1}, a nested list, a huge text) is left out, so a page shows it missing
    and a browser's script never meets it."""
    if not isinstance(item, dict) or not isinstance(item.get("msg"), str) or not 0 < len(item["msg"]) <= 100:
        raise BadPayload("an announcement needs a message id")
    at, params = item.get("at"), item.get("params", {})
    if not _whole(at) or not isinstance(params, dict):
        raise BadPayload("an announcement needs a time and its params as an object")
    kept = {k: v for k, v in list(params.items())[:MAX_PARAMS] if isinstance(k, str) and len(k) <= 40 and _param(v)}
    return {"at": at, "msg": item["msg"], "params": kept}


def _scalar(value: Any) -> bool:
    if isinstance(value, str):
        return len(value) <= MAX_PARAM_TEXT
    if isinstance(value, float):
        return math.isfinite(value)
    return value is None or isinstance(value, (bool, int))


def _param(value: Any) -> bool:
    if isinstance(value, list):
        return len(value) <= 64 and all(_scalar(v) and v is not None for v in value)
    if isinstance(value, dict):
        return bool(value) and value.keys() <= {"en", "zh", "th"} and all(
            isinstance(v, str) and len(v) <= MAX_PARAM_TEXT for v in value.values())
    return _scalar(value)


def event(payload: bytes) -> tuple[int, dict[str, Any]]:
    """One announcement from the events topic, with its number."""
    d = json_object(payload, MAX_EVENT_BYTES)
    n = d.get("n")
    if not isinstance(n, int) or not _whole(n):
        raise BadPayload("event: n must be a whole number")
    return n, announcement(d)


def view(payload: bytes) -> dict[str, Any]:
    """The hall's fields of a public view, `announced` being the number of the last announcement."""
    d = json_object(payload, VIEW_MAX_BYTES)
    game, number, announced = d.get("game"), d.get("number"), d.get("announced", 0)
    if not isinstance(game, str) or not GAME_ID.match(game):
        raise BadPayload("public: game is missing or malformed")
    if not _whole(number) or not _whole(announced):
        raise BadPayload("public: number and announced must be whole numbers")
    shown = d.get("announcements", [])
    if not isinstance(shown, list):
        raise BadPayload("public: announcements must be a list")
    table = d.get("table")
    table = table if isinstance(table, dict) else {}
    ended = d.get("ended")
    if not isinstance(ended, bool):
        raise BadPayload("public: ended must be true or false")
    return {"game": game, "number": number, "phase": _text(d.get("phase"), "phase"),
            "round": table.get("round") if _whole(table.get("round")) else None,
            "turn": _text(d.get("turn"), "turn"), "players": _players(d.get("players")),
            "timers": timers(table), "announced": announced,
            "announcements": [announcement(a) for a in shown[-ANNOUNCEMENTS_KEPT:]],
            "ended": ended, "ranking": _ranking(d.get("result")) if ended else None}


def timers(table: dict[str, Any]) -> list[dict[str, Any]]:
    """The game's timers, wherever its public view keeps them (companion/parts/timers.py's shape): the
    toolkit's `timers: {name: timer}`, a game's `timer`, ...; two levels deep at most."""
    found: list[dict[str, Any]] = []

    def walk(value: dict[str, Any], depth: int) -> None:
        for name, item in value.items():
            if len(found) >= MAX_TIMERS or not isinstance(item, dict):
                continue
            if item.keys() >= _TIMER_KEYS and isinstance(name, str) and len(name) <= MAX_NAME:
                found.append(_timer(name, item))
            elif depth < 2:
                walk(item, depth + 1)

    walk(table, 0)
    return found


def _timer(name: str, t: dict[str, Any]) -> dict[str, Any]:
    running, deadline = t["running"], t["deadline"]
    if not isinstance(running, bool) or not _whole(t["duration"]) or not _whole(t["remaining"]):
        raise BadPayload(f"public: timer {name!r} is malformed")
    if running and not _whole(deadline):
        raise BadPayload(f"public: running timer {name!r} has no deadline")
    return {"name": name, "running": running, "deadline_ms": deadline if running else None,
            "remaining_ms": t["remaining"], "duration_ms": t["duration"]}


def _players(value: Any) -> list[dict[str, str]]:
    if not isinstance(value, list) or len(value) > 64:
        raise BadPayload("public: players must be a list of at most 64")
    out = []
    for p in value:
        if not isinstance(p, dict) or not isinstance(p.get("id"), str) or not PLAYER_ID.match(p["id"]):
            raise BadPayload("public: a player's id is missing or malformed")
        name = p.get("name")
        if not isinstance(name, str) or not 0 < len(name) <= MAX_NAME:
            raise BadPayload(f"public: a player's name must be 1-{MAX_NAME} characters")
        out.append({"id": p["id"], "name": name})
    return out


def _ranking(result: Any) -> list[list[str]] | None:
    ranking = result.get("ranking") if isinstance(result, dict) else None
    if ranking is None:
        return None
    if not isinstance(ranking, list) or not all(
            isinstance(g, list) and all(isinstance(pid, str) and PLAYER_ID.match(pid) for pid in g) for g in ranking):
        raise BadPayload("public: the result's ranking must be lists of player ids")
    return ranking


def _text(value: Any, what: str) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str) or len(value) > MAX_NAME:
        raise BadPayload(f"public: {what} must be a short text")
    return value


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 2**53
