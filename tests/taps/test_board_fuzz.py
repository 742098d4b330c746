"""Fuzz the host side of the board protocol (decoder inside BoardSession) with hypothesis: random and
mutated frames never crash it and never become a tap. bench/fuzz_board_frames.py runs a million."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_protocol import codec
from hardware.board.session import BoardSession
from hardware.events import DeviceEvent, TagPlaced

HELLO = codec.encode(
    codec.Message(codec.HELLO, 0, proto=1, fw_major=1, fw_minor=0, readers=4, mask=0, board_id=b"12345678")
)
TAP = codec.Message(codec.TAG_PLACED, 7, reader=2, tag_type=1, uid=bytes.fromhex("DEADBEEF"))


def session() -> tuple[BoardSession, list[DeviceEvent]]:
    events: list[DeviceEvent] = []
    s = BoardSession("fuzz", events.append, repeat_window=0.0, clock=lambda: 0.0)
    s.data_received(HELLO)
    assert s.readers == 4
    return s, events


@settings(max_examples=300)
@given(st.lists(st.binary(max_size=40), max_size=20))
def test_random_frames_never_crash_and_never_tap(frames: list[bytes]) -> None:
    s, events = session()
    s.data_received(b"\x00".join(frames) + b"\x00")
    assert not [e for e in events if isinstance(e, TagPlaced)]


edits = st.lists(
    st.tuples(st.sampled_from(["flip", "set", "insert", "delete"]), st.integers(0, 63), st.integers(0, 255)),
    min_size=1,
    max_size=5,
)


def apply(frame: bytes, ops: list[tuple[str, int, int]]) -> bytes:
    data = bytearray(frame)
    for op, at, value in ops:
        at %= max(1, len(data))
        if op == "flip" and data:
            data[at] ^= 1 << (value % 8)
        elif op == "set" and data:
            data[at] = value
        elif op == "insert":
            data.insert(at, value)
        elif data:
            del data[at]
    return bytes(data)


@settings(max_examples=500)
@given(edits, st.booleans())
def test_a_mutated_tap_frame_is_the_tap_or_nothing(ops: list[tuple[str, int, int]], under_cobs: bool) -> None:
    """Edits on the wire (or under the COBS layer, so they reach the CRC) never yield another tap."""
    s, events = session()
    if under_cobs:
        body = codec.cobs_decode(codec.encode(TAP)[:-1])
        assert body is not None
        frame = codec.cobs_encode(apply(body, ops)) + b"\x00"
    else:
        frame = apply(codec.encode(TAP)[:-1], ops) + b"\x00"
    s.data_received(frame)
    taps = [e for e in events if isinstance(e, TagPlaced)]
    assert taps in ([], [TagPlaced("fuzz", 2, "DEADBEEF", "mifare_classic")])
    # the session recovers: the real frame after the noise is understood
    s.data_received(codec.encode(codec.Message(codec.TAG_PLACED, 8, reader=3, tag_type=1, uid=b"\x01\x02\x03\x04")))
    assert TagPlaced("fuzz", 3, "01020304", "mifare_classic") in events


def test_a_tap_on_a_reader_the_board_does_not_have_is_refused() -> None:
    s, events = session()
    s.data_received(codec.encode(codec.Message(codec.TAG_PLACED, 1, reader=5, tag_type=1, uid=b"\x01\x02\x03\x04")))
    assert events == [] and s.rejected == 1


def test_nothing_taps_before_hello() -> None:
    events: list[DeviceEvent] = []
    s = BoardSession("fuzz", events.append, clock=lambda: 0.0)
    s.data_received(codec.encode(TAP))
    assert events == []
