"""The door of the kiosk's host PIN from a phone (companion/phones/host_pin.py), fuzzed: any payload from any
seat is answered without raising; only the host's seat with a PIN of 4-8 ASCII digits typed twice the same
sets it (as its hash); a refusal never carries what was typed; anything that is not a `kiosk.host_pin`
command is left to the referee."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.kiosk.host_lock import Pin
from companion.phones import host_pin
from companion.phones.topics import Seat

HOST = Seat("table1", 1, "host")
ANA = Seat("table1", 1, "player", pid="ana")
SPECTATOR = Seat("table1", 1, "spectator", n=1)
TYPED = st.one_of(st.text(max_size=12), st.from_regex(r"[0-9]{1,10}", fullmatch=True),
                  st.integers(-(2**53 - 1), 2**53 - 1), st.none())  # (larger numbers: refused by the door, intake)


def payload(args: dict[str, Any], move: str = host_pin.HOST_PIN) -> bytes:
    return json.dumps({"id": "c1", "move": move, "args": args}).encode()


@settings(max_examples=300, deadline=None)
@given(seat=st.sampled_from([HOST, ANA, SPECTATOR]), pin=TYPED, again=TYPED,
       extra=st.dictionaries(st.sampled_from(["also", "x"]), TYPED, max_size=1))
def test_only_the_hosts_pin_of_digits_typed_twice_is_set(seat: Seat, pin: Any, again: Any,
                                                         extra: dict[str, Any]) -> None:
    given_pins: list[Pin] = []
    outcome = host_pin.command(seat, payload({"pin": pin, "again": again, **extra}), given_pins.append)
    assert outcome is not None  # a kiosk.host_pin command never goes on to the referee
    ok = (seat is HOST and not extra and isinstance(pin, str) and pin == again and pin.isascii()
          and pin.isdigit() and 4 <= len(pin) <= 8)
    assert outcome.accepted is ok
    if ok:
        assert len(given_pins) == 1 and given_pins[0].matches(pin)
    else:
        assert given_pins == [] and outcome.reason is not None
        said = json.dumps(outcome.reason.to_json())
        for typed in (pin, again):
            if isinstance(typed, str) and len(typed) >= 3:
                assert typed not in said.replace('"low": 4', "").replace('"high": 8', "")


@settings(max_examples=300, deadline=None)
@given(raw=st.binary(max_size=300), seat=st.sampled_from([HOST, ANA, SPECTATOR]))
def test_any_bytes_are_answered_without_raising(raw: bytes, seat: Seat) -> None:
    given_pins: list[Pin] = []
    outcome = host_pin.command(seat, raw + host_pin.HOST_PIN.encode(), given_pins.append)
    assert outcome is None or not outcome.accepted
    assert given_pins == []


def test_other_commands_are_the_referees_and_a_table_without_a_kiosk_says_so() -> None:
    assert host_pin.command(HOST, payload({"name": "kiosk.host_pin"}, move="timer.create"), None) is None
    assert host_pin.command(HOST, payload({"player": "ana"}, move="seat.release"), None) is None
    outcome = host_pin.command(HOST, payload({"pin": "2468", "again": "2468"}), None)
    assert outcome is not None and outcome.reason is not None
    assert outcome.reason.code == "reject.host_pin_no_kiosk"
