"""Checking a phone's command at the door: size, nesting, JSON, content, schema, rate. Pure: no MQTT, no referee.

`decode` turns a payload into the raw input the referee takes (`Table.put`), with the sender taken from
the seat (the topic the broker let only that credential write), never from the payload; or into a
`Rejected` that says what was wrong. `RateLimit` is a token bucket per seat against flooding. `reply`
is the way back out: the JSON a reply carries, which it always can (it never raises).

A payload is hostile until shown otherwise (docs/mqtt.md). In this order, each before any work that
could cost more: its size (`COMMAND_MAX_BYTES`), its nesting (a scan of the bytes, at most `MAX_DEPTH`
levels: deeper JSON would exhaust the parser's recursion), strict UTF-8, JSON syntax, and then what it
holds: every string (key or value, at any depth) valid Unicode (no lone UTF-16 surrogate, which JSON's
``\\ud800`` escapes can produce and nothing can encode) and at most `MAX_STRING` characters, every number
finite (no ``NaN`` or ``Infinity``, which JSON.parse refuses) and every integer within a browser's safe
range (`MAX_INT`). Nothing in here raises on any payload; the tests fuzz it.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, StrictStr, ValidationError

from companion.core.referee import Outcome
from companion.core.rejection import Rejected
from companion.phones.topics import COMMAND_MAX_BYTES

HOST_ONLY = frozenset({"table.new_game"})  # the table's own host input (companion/table/next_game.py)
RATE_PER_S = 10.0  # commands a seat may send per second, sustained
BURST = 20  # and at once
MAX_DEPTH = 32  # arrays and objects inside each other; a command needs three or four
MAX_STRING = 256  # characters in any one string; the games' names are at most 40
MAX_INT = 2**53 - 1  # Number.MAX_SAFE_INTEGER: the page reads every number as a double
ID_MAX = 64

_STRING = re.compile(rb'"(?:[^"\\]|\\.)*"?', re.DOTALL)  # a JSON string, or an unterminated one to the end
_NOT_BRACKET = bytes(sorted(set(range(256)) - set(b"[]{}")))
_OPENERS = frozenset(b"[{")
_SURROGATE = re.compile("[\ud800-\udfff]")
# an id at the very start, as the page writes a command ({"id": ..., "move": ...}): read without parsing
_LEADING_ID = re.compile(rb'\A\s{0,8}\{\s{0,8}"id"\s{0,8}:\s{0,8}"([^"\\]{1,256})"')


class Command(BaseModel):
    """What a phone sends (docs/mqtt.md): its own id for retries, a move and its args."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    id: Annotated[StrictStr, Field(min_length=1, max_length=ID_MAX)]
    move: Annotated[StrictStr, Field(min_length=1, max_length=64)]
    args: dict[str, Any] = Field(default_factory=dict)


class _Unfit:
    """Stands in, while parsing, for a number the intake refuses (what it was is not kept)."""

    def __init__(self, problem: str) -> None:
        self.problem = problem


_NOT_FINITE = _Unfit("a number that is not finite (NaN or Infinity)")
_TOO_BIG = _Unfit(f"an integer beyond ±{MAX_INT}")


def _int(text: str) -> int | _Unfit:
    if len(text.lstrip("-")) > len(str(MAX_INT)):  # before int(): converting 4,000 digits costs
        return _TOO_BIG
    value = int(text)
    return _TOO_BIG if abs(value) > MAX_INT else value


def _float(text: str) -> float | _Unfit:
    value = float(text)  # 1e400 parses to inf
    return value if math.isfinite(value) else _NOT_FINITE


def _constant(text: str) -> _Unfit:  # NaN, Infinity, -Infinity: Python's JSON takes them, nobody else's
    return _NOT_FINITE


def too_deep(payload: bytes) -> bool:
    """Whether arrays and objects nest more than `MAX_DEPTH` levels in `payload`, from its bytes alone
    (cheap, before any parsing).

    Brackets inside strings do not count, and a closing bracket never takes the level below zero, so
    for any payload this sees at least the depth a JSON parser would reach before it stops.
    """
    if payload.count(b"[") + payload.count(b"{") <= MAX_DEPTH:
        return False
    level = 0
    for b in _STRING.sub(b"", payload).translate(None, _NOT_BRACKET):
        if b in _OPENERS:
            level += 1
            if level > MAX_DEPTH:
                return True  # hostile nesting stops the scan early
        elif level:
            level -= 1
    return False


def _load(payload: bytes) -> Any:
    """The JSON in `payload` (with `_Unfit` for refused numbers), or why it cannot be read at all."""
    if len(payload) > COMMAND_MAX_BYTES:
        return Rejected("reject.command_too_large", size=len(payload), limit=COMMAND_MAX_BYTES)
    if too_deep(payload):
        return Rejected("reject.malformed", problem=f"nested deeper than {MAX_DEPTH} levels")
    try:
        text = payload.decode("utf-8")  # strict: no encoded surrogates, no UTF-16 guessing
    except UnicodeDecodeError:
        return Rejected("reject.malformed", problem="not UTF-8 text")
    try:
        return json.loads(text, parse_int=_int, parse_float=_float, parse_constant=_constant)
    except RecursionError:  # cannot happen after the depth check; kept so that nothing escapes
        return Rejected("reject.malformed", problem=f"nested deeper than {MAX_DEPTH} levels")
    except ValueError as err:
        return Rejected("reject.malformed", problem=f"not JSON: {getattr(err, 'msg', 'invalid')}"[:120])


def _values(obj: Any) -> Iterator[Any]:
    """Every key and value in `obj`, at any depth (bounded: `_load` checked the nesting)."""
    stack = [obj]
    while stack:
        item = stack.pop()
        yield item
        if isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)


def _string_problem(text: str) -> str | None:
    if _SURROGATE.search(text):
        return "a string that is not valid Unicode (a lone surrogate)"
    if len(text) > MAX_STRING:
        return f"a string longer than {MAX_STRING} characters"
    return None


def unfit(obj: Any) -> str | None:
    """What in parsed JSON no command may hold, or None."""
    for item in _values(obj):
        if isinstance(item, _Unfit):
            return item.problem
        if isinstance(item, str) and (problem := _string_problem(item)) is not None:
            return problem
    return None


def _problem(err: ValidationError) -> str:
    first = err.errors()[0]
    where = (".".join(str(p) for p in first["loc"]) or "payload")[:40]  # a key the phone sent, cut short
    kind = first["type"]
    if kind == "extra_forbidden":
        return f"unknown field {where!r}"
    if kind == "missing":
        return f"missing field {where!r}"
    return f"{where!r}: {first['msg']}"[:120]


def command_id(payload: bytes) -> str | None:
    """The command's id if one can be read from the payload, for the reply to a refused command.

    Only an id that a reply can carry: a string of 1 to 64 characters, valid Unicode. The rest of the
    payload may be refused (a NaN in its args, say): the phone still learns which command it was. A
    payload that is not parsed at all (too large, too deep, not JSON) may still start with its id, as the
    page writes it: that is read from the first bytes, so the page can stop resending that command.
    """
    obj = _load(payload)
    if isinstance(obj, Rejected):
        return _leading_id(payload)
    cid = obj.get("id") if isinstance(obj, dict) else None
    if not isinstance(cid, str) or not 0 < len(cid) <= ID_MAX or _SURROGATE.search(cid):
        return None
    return cid


def _leading_id(payload: bytes) -> str | None:
    found = _LEADING_ID.match(payload)
    if found is None:
        return None
    try:
        cid = found[1].decode("utf-8")  # strict: no encoded surrogates; no escapes matched at all
    except UnicodeDecodeError:
        return None
    return cid if len(cid) <= ID_MAX else None


def decode(payload: bytes, actor: str) -> dict[str, Any] | Rejected:
    """The referee's raw input for `payload` sent by `actor`, or why it is refused."""
    obj = _load(payload)
    if isinstance(obj, Rejected):
        return obj
    if not isinstance(obj, dict):
        return Rejected("reject.malformed", problem="not an object")
    problem = unfit(obj)
    if problem is not None:
        return Rejected("reject.malformed", problem=problem)
    try:
        cmd = Command.model_validate(obj)
    except ValidationError as err:
        return Rejected("reject.malformed", problem=_problem(err))
    if cmd.move in HOST_ONLY and actor != "host":  # refused at the door too, not only by the table
        return Rejected("reject.not_allowed", move=cmd.move, sender=f"sender.{actor.split(':')[0]}")
    return {"move": cmd.move, "by": actor, "args": cmd.args, "id": cmd.id}


def _strict_json(obj: Any) -> bytes:
    return json.dumps(obj, ensure_ascii=False, allow_nan=False, separators=(",", ":"),
                      sort_keys=True).encode("utf-8")


UNREADABLE_REPLY = _strict_json({"id": None, "ok": False, "reason": {"code": "reject.malformed",
                                                                     "params": {"problem": "unreadable"}}})


def reply(cid: str | None, outcome: Outcome) -> bytes:
    """The reply to command `cid`: strict JSON in UTF-8, always. Never raises.

    An id that cannot be encoded (a lone surrogate: `command_id` already refuses those) is dropped; a
    reason whose parameters cannot be encoded keeps its code alone.
    """
    try:
        body = outcome.to_json()
    except Exception:  # an outcome is ours; still, the reply path must not raise
        return UNREADABLE_REPLY
    bodies = [body]
    if outcome.reason is not None:
        bodies.append({"ok": False, "reason": {"code": str(outcome.reason.code), "params": {}}})
    for attempt in bodies:
        for reply_id in dict.fromkeys([cid, None]):
            try:
                return _strict_json({"id": reply_id, **attempt})
            except (ValueError, TypeError, RecursionError):  # UnicodeEncodeError is a ValueError
                continue
    return UNREADABLE_REPLY


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
