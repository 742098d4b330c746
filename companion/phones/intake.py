"""Checking a phone's command at the door: size, JSON, schema, rate. Pure: no MQTT, no referee.

`decode` turns a payload into the raw input the referee takes (`Table.put`), with the sender taken from
the seat (the topic the broker let only that credential write), never from the payload; or into a
`Rejected` that says what was wrong. `RateLimit` is a token bucket per seat against flooding.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, StrictStr, ValidationError

from companion.core.rejection import Rejected
from companion.phones.topics import COMMAND_MAX_BYTES

RATE_PER_S = 10.0  # commands a seat may send per second, sustained
BURST = 20  # and at once


class Command(BaseModel):
    """What a phone sends (docs/mqtt.md): its own id for retries, a move and its args."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    id: Annotated[StrictStr, Field(min_length=1, max_length=64)]
    move: Annotated[StrictStr, Field(min_length=1, max_length=64)]
    args: dict[str, Any] = Field(default_factory=dict)


def _problem(err: ValidationError) -> str:
    first = err.errors()[0]
    where = ".".join(str(p) for p in first["loc"]) or "payload"
    kind = first["type"]
    if kind == "extra_forbidden":
        return f"unknown field {where!r}"
    if kind == "missing":
        return f"missing field {where!r}"
    return f"{where!r}: {first['msg']}"[:120]


def command_id(payload: bytes) -> str | None:
    """The command's id if one can be read from the payload, for the reply to a refused command."""
    try:
        obj = json.loads(payload)
    except (ValueError, UnicodeDecodeError):
        return None
    cid = obj.get("id") if isinstance(obj, dict) else None
    return cid if isinstance(cid, str) and 0 < len(cid) <= 64 else None


def decode(payload: bytes, actor: str) -> dict[str, Any] | Rejected:
    """The referee's raw input for `payload` sent by `actor`, or why it is refused."""
    if len(payload) > COMMAND_MAX_BYTES:
        return Rejected("reject.command_too_large", size=len(payload), limit=COMMAND_MAX_BYTES)
    try:
        obj = json.loads(payload.decode("utf-8"))
    except UnicodeDecodeError:
        return Rejected("reject.malformed", problem="not UTF-8 text")
    except ValueError as err:
        return Rejected("reject.malformed", problem=f"not JSON: {getattr(err, 'msg', 'invalid')}")
    if not isinstance(obj, dict):
        return Rejected("reject.malformed", problem="not an object")
    try:
        cmd = Command.model_validate(obj)
    except ValidationError as err:
        return Rejected("reject.malformed", problem=_problem(err))
    return {"move": cmd.move, "by": actor, "args": cmd.args, "id": cmd.id}


@dataclass
class RateLimit:
    """A token bucket: `allow(now)` spends one token; tokens come back at `rate` a second up to `burst`."""

    rate: float = RATE_PER_S
    burst: int = BURST
    tokens: float = float(BURST)
    last: float | None = None
    warned_at: float | None = None

    def allow(self, now: float) -> bool:
        if self.last is not None:
            self.tokens = min(float(self.burst), self.tokens + (now - self.last) * self.rate)
        self.last = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False

    def should_warn(self, now: float) -> bool:
        """At most one 'too many' reply a second, so a flood cannot turn into a flood of replies."""
        if self.warned_at is None or now - self.warned_at >= 1.0:
            self.warned_at = now
            return True
        return False
