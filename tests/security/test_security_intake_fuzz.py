"""Fuzzing the door (issue 16, items 2 and 3): `intake.decode`, `intake.command_id` and `intake.reply`.

Arbitrary bytes, and arbitrary JSON written the ways a hostile client can write it: lone surrogates
as ``\\ud800`` escapes or as raw (invalid UTF-8) bytes, NaN and Infinity, integers of hundreds of
digits, strings of thousands of characters, nesting thousands deep. For every payload: nothing
raises; the result is an input from the seat that a reply, the log and the views can carry, or a
`Rejected` the catalogs name; the id is one a reply can carry; the reply is always strict JSON;
and a refused payload changes nothing in a real referee.
"""

from __future__ import annotations

import json
import math
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.core.contract import Player, Setup
from companion.core.eventlog import EventLog
from companion.core.referee import Outcome, Referee
from companion.core.rejection import Rejected
from companion.games import registry
from companion.phones import intake
from companion.phones.topics import COMMAND_MAX_BYTES
from companion.table.loop import Table

DOOR_CODES = {"reject.malformed", "reject.command_too_large"}
FUZZ = settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# strings as a hostile client has them: any code point, lone surrogates included, short or long
any_text = st.text(st.characters(codec=None, exclude_categories=()), max_size=12) | st.text(
    st.characters(codec=None, exclude_categories=()), min_size=250, max_size=4000)
any_number = (st.integers() | st.integers(min_value=-(10**400), max_value=10**400)
              | st.floats(allow_nan=True, allow_infinity=True))
scalars = st.none() | st.booleans() | any_number | any_text
json_values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=4)
                           | st.dictionaries(any_text, inner, max_size=4), max_leaves=24)


def nested(depth: int, kind: str) -> str:
    return ("[" * depth + "]" * depth) if kind == "list" else ('{"a":' * depth + "1" + "}" * depth)


@st.composite
def hostile_payloads(draw: st.DrawFn) -> bytes:
    """A command-shaped object (or any JSON value), written as JSON in one of the ways clients can."""
    if draw(st.booleans()):
        obj: Any = {"id": draw(any_text | st.just("c1")), "move": draw(any_text | st.just("dice.roll")),
                    "args": draw(st.dictionaries(any_text, json_values, max_size=4))}
        if draw(st.booleans()):
            obj[draw(any_text)] = draw(json_values)
    else:
        obj = draw(json_values)
    text = json.dumps(obj, ensure_ascii=draw(st.booleans()), allow_nan=True)
    if draw(st.booleans()):  # nesting inside the size limit
        deep = nested(draw(st.integers(0, 2000)), draw(st.sampled_from(["list", "dict"])))
        text = text.replace("{", '{"deep":' + deep + ",", 1) if text.startswith("{") else deep
    return text.encode("utf-8", "surrogatepass")  # raw surrogates: invalid UTF-8, as a client may send


def strict(payload: bytes) -> Any:
    """JSON as the phone page's JSON.parse reads it."""
    def refuse(word: str) -> Any:
        raise ValueError(word)
    return json.loads(payload.decode("utf-8"), parse_constant=refuse)


def depth_of(obj: Any) -> int:
    if isinstance(obj, dict):
        return 1 + max((depth_of(v) for v in obj.values()), default=0)
    if isinstance(obj, list):
        return 1 + max((depth_of(v) for v in obj), default=0)
    return 0


def leaves(obj: Any) -> list[Any]:
    if isinstance(obj, dict):
        return [*obj.keys(), *(x for v in obj.values() for x in leaves(v))]
    if isinstance(obj, list):
        return [x for v in obj for x in leaves(v)]
    return [obj]


def check_door(payload: bytes) -> dict[str, Any] | Rejected:
    """The invariants of one payload at the door; returns what `decode` made of it."""
    out = intake.decode(payload, "player:ana")
    cid = intake.command_id(payload)
    assert cid is None or (isinstance(cid, str) and 0 < len(cid) <= intake.ID_MAX and cid.encode("utf-8"))
    if isinstance(out, Rejected):
        assert out.code in DOOR_CODES
        problem = out.params.get("problem", "")
        assert isinstance(problem, str) and len(problem) <= 120
    else:
        assert set(out) == {"move", "by", "args", "id"} and out["by"] == "player:ana"
        assert out["id"] == cid  # a well-formed command's reply carries its own id
        strict(json.dumps(out, ensure_ascii=False, allow_nan=False).encode("utf-8"))  # the log and views can carry it
        assert depth_of(out) <= intake.MAX_DEPTH
        for leaf in leaves(out):
            if isinstance(leaf, str):
                assert len(leaf) <= intake.MAX_STRING
            elif isinstance(leaf, float):
                assert math.isfinite(leaf)
            elif isinstance(leaf, int):
                assert abs(leaf) <= intake.MAX_INT
    reason = out if isinstance(out, Rejected) else Rejected("reject.not_allowed")
    sent = strict(intake.reply(cid, Outcome(accepted=False, reason=reason)))
    assert sent["id"] == cid and sent["ok"] is False and sent["reason"]["code"] == reason.code
    return out


@FUZZ
@given(st.binary(max_size=COMMAND_MAX_BYTES + 64))
def test_any_bytes_are_an_input_or_a_clear_rejection_and_the_reply_is_json(payload: bytes) -> None:
    check_door(payload)


@FUZZ
@given(hostile_payloads())
def test_any_json_however_written_is_an_input_or_a_clear_rejection(payload: bytes) -> None:
    check_door(payload)


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 4000), st.sampled_from(["[", "{", '{"a":', "[{", '"', "\\"]), st.binary(max_size=16))
def test_nesting_of_any_depth_never_reaches_the_parser_past_the_limit(n: int, unit: str, tail: bytes) -> None:
    payload = (unit * n).encode()[:COMMAND_MAX_BYTES - len(tail)] + tail
    out = check_door(payload)
    if n > intake.MAX_DEPTH and unit in ("[", "{", '{"a":', "[{"):
        assert isinstance(out, Rejected)


@settings(max_examples=300, deadline=None)
@given(any_text | st.none(), st.dictionaries(any_text.filter(lambda k: k != "code"), json_values, max_size=4),
       st.text(max_size=40))  # ("code" is Rejected's own first argument, never a parameter name)
def test_the_reply_is_always_strict_json_and_drops_an_id_it_cannot_carry(cid: str | None, params: dict[str, Any],
                                                                           code: str) -> None:
    """Whatever a rejection's parameters hold (a move may quote what it was sent), the reply encodes."""
    for outcome in (Outcome(accepted=False, reason=Rejected(code or "reject.malformed", **params)),
                    Outcome(accepted=True, seq=3), Outcome(accepted=True, seq=3, duplicate=True)):
        sent = strict(intake.reply(cid, outcome))
        carried = cid is not None and not any(0xD800 <= ord(c) <= 0xDFFF for c in cid)
        assert sent["id"] == (cid if carried else None)
        assert sent["ok"] is outcome.accepted
        if outcome.reason is not None:
            assert sent["reason"]["code"] == outcome.reason.code


def table() -> Table:
    setup = Setup("toolkit", (Player("ana", "Ana"), Player("ben", "Ben")), {}, seed=3)
    referee = Referee.start(registry(), EventLog(":memory:"), setup, created_at=0)
    t = Table(referee)
    t.handle({"move": "counter.create", "by": "host", "args": {"name": "gold"}, "id": "h1"})
    return t


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hostile_payloads() | st.binary(max_size=600))
def test_a_refused_payload_changes_nothing_in_a_real_referee(payload: bytes) -> None:
    t = table()
    try:
        before = (len(t.referee.events), t.referee.view("host"))
        out = check_door(payload)
        outcome = t.handle(out)  # what the table's loop does with it; must not raise either
        strict(intake.reply(intake.command_id(payload), outcome))
        if isinstance(out, Rejected):
            assert not outcome.accepted and outcome.reason is not None and outcome.reason.code == out.code
        if not outcome.accepted:
            assert (len(t.referee.events), t.referee.view("host")) == before
    finally:
        t.referee.log.close()
