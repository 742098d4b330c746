"""Inputs: what adapters (buttons, tags, phones, the clock, scripts) hand to the referee."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from companion.core.rejection import Rejected

#: Who sent an input. A player is ``player:<id>``.
HOST = "host"
CLOCK = "clock"
TABLE = "table"  # the shared table devices (readers, buttons) when no player is identified
_PLAYER = re.compile(r"^player:([a-z0-9_-]{1,32})$")
ROLES = frozenset({HOST, CLOCK, TABLE, "player"})


def player_actor(pid: str) -> str:
    return f"player:{pid}"


def actor_role(actor: str) -> str:
    """The role of an actor: host, clock, table or player. Unknown actors are rejected."""
    if actor in (HOST, CLOCK, TABLE):
        return actor
    if _PLAYER.match(actor):
        return "player"
    raise Rejected("reject.unknown_sender", sender=actor[:40])


def actor_player(actor: str) -> str | None:
    m = _PLAYER.match(actor)
    return m.group(1) if m else None


@dataclass(frozen=True)
class Input:
    """One input to the referee.

    `at` is milliseconds on the table's clock, stamped by the adapter that received it (the core never
    reads a clock). `id` is an optional command id: a retry with the same id is applied once.
    """

    move: str
    by: str
    args: Mapping[str, Any] = field(default_factory=dict)
    at: int = 0
    id: str | None = None

    @property
    def command_key(self) -> str | None:
        """What makes a retry a retry: the same sender and the same command id (phones number alike)."""
        return None if self.id is None else f"{self.by}/{self.id}"

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"move": self.move, "by": self.by, "args": dict(self.args), "at": self.at}
        if self.id is not None:
            out["id"] = self.id
        return out

    @classmethod
    def from_json(cls, obj: Any) -> Input:
        """Build an input from decoded JSON, rejecting anything malformed with a specific reason."""
        if not isinstance(obj, Mapping):
            raise Rejected("reject.malformed", problem="not an object")
        unknown = set(obj) - {"move", "by", "args", "at", "id"}
        if unknown:
            raise Rejected("reject.malformed", problem=f"unknown field {sorted(unknown)[0]!r}")
        move, by = obj.get("move"), obj.get("by")
        args, at, cid = obj.get("args", {}), obj.get("at", 0), obj.get("id")
        if not isinstance(move, str) or not move or len(move) > 64:
            raise Rejected("reject.malformed", problem="'move' must be a short string")
        if not isinstance(by, str) or len(by) > 48:
            raise Rejected("reject.malformed", problem="'by' must be a sender such as host or player:ana")
        if not isinstance(args, Mapping):
            raise Rejected("reject.malformed", problem="'args' must be an object")
        if isinstance(at, bool) or not isinstance(at, int) or at < 0:
            raise Rejected("reject.malformed", problem="'at' must be a non-negative integer (ms)")
        if cid is not None and (not isinstance(cid, str) or not 0 < len(cid) <= 64):
            raise Rejected("reject.malformed", problem="'id' must be a string of 1-64 characters")
        return cls(move=move, by=by, args=dict(args), at=at, id=cid)
