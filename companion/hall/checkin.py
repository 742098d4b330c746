"""Players check themselves in (docs/hall.md, "Check-in by QR"): the organiser's page shows a QR code of
the check-in link; a player opens it on their phone and taps their own name; the organiser's page marks
who checked in and ticks them present with one tap.

The link carries the night's check-in code (random, kept in the league file's settings with the players
checked in): anyone who can see the code can check a name in, as anyone in the hall could tell the
organiser "Mai is here"; it checks in only, never changes a result, and a new check-in (the organiser's
"New check-in") makes a new code and empties the list.
"""

from __future__ import annotations

import hmac
import json
import secrets
from typing import Any, Protocol

SETTING = "checkin"
CODE_BYTES = 6  # 8 URL-safe characters


class Settings(Protocol):
    def setting(self, key: str, default: str) -> str: ...
    def set_setting(self, key: str, value: str) -> None: ...
    def players(self) -> list[dict[str, str]]: ...


class CheckInError(ValueError):
    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code
        self.params: dict[str, Any] = {}


def state(store: Settings) -> dict[str, Any]:
    """{"code", "players"}: the night's check-in code (made on first need) and who checked in, in order."""
    try:
        kept = json.loads(store.setting(SETTING, "{}"))
    except ValueError:
        kept = {}
    if not isinstance(kept, dict) or not isinstance(kept.get("code"), str) or not isinstance(kept.get("players"), list):
        kept = {"code": secrets.token_urlsafe(CODE_BYTES), "players": []}
        store.set_setting(SETTING, json.dumps(kept))
    return kept


def check_in(store: Settings, code: str, player: str) -> str:
    """`player` (an id on the roster) checked in with the night's `code`; their name (CheckInError: a code
    that is not tonight's, or no such player)."""
    kept = state(store)
    if not hmac.compare_digest(code.encode("utf-8", "replace"), kept["code"].encode()):
        raise CheckInError("hall.checkin.bad_code")
    names = {p["id"]: p["name"] for p in store.players()}
    if player not in names:
        raise CheckInError("hall.correction.no_player")
    if player not in kept["players"]:
        store.set_setting(SETTING, json.dumps({**kept, "players": [*kept["players"], player]}))
    return names[player]


def new_night(store: Settings) -> None:
    """A new check-in: a new code (the old link no longer works), nobody checked in."""
    store.set_setting(SETTING, json.dumps({"code": secrets.token_urlsafe(CODE_BYTES), "players": []}))


def roster(store: Settings, code: str) -> list[dict[str, Any]]:
    """The check-in page's list: every player's name and whether they checked in (CheckInError: not
    tonight's code)."""
    kept = state(store)
    if not hmac.compare_digest(code.encode("utf-8", "replace"), kept["code"].encode()):
        raise CheckInError("hall.checkin.bad_code")
    here = set(kept["players"])
    return [{"id": p["id"], "name": p["name"], "in": p["id"] in here} for p in store.players()]
