"""The board codec (firmware_protocol/codec.py) against the shared vectors, and its invariants:
any message round-trips, any chunking of a stream decodes alike, and no corrupted frame ever decodes
into a different message (the property behind "noise is never a tap")."""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_protocol import codec
from firmware_protocol.check_vectors import check

VECTORS = json.loads((Path(codec.__file__).parent / "vectors.json").read_text())


def test_codec_agrees_with_every_shared_vector() -> None:
    assert check(codec, VECTORS) == []
    assert len(VECTORS["valid"]) >= 12 and len(VECTORS["invalid"]) >= 10


def test_the_vector_check_catches_a_wrong_codec() -> None:
    """check() is not vacuous: a codec whose CRC is off by one fails it."""

    class Broken:
        def __getattr__(self, name: str) -> object:
            return getattr(codec, name)

        @staticmethod
        def crc32(data: bytes) -> int:
            return codec.crc32(data) ^ 1

    assert check(Broken(), VECTORS)


uids = st.sampled_from(codec.UID_LENGTHS).flatmap(lambda n: st.binary(min_size=n, max_size=n))
seqs = st.integers(0, 255)
board_messages = st.one_of(
    st.builds(
        lambda s, r, t, u: codec.Message(codec.TAG_PLACED, s, reader=r, tag_type=t, uid=u),
        seqs,
        st.integers(0, 7),
        st.integers(0, len(codec.TAG_TYPES) - 1),
        uids,
    ),
    st.builds(lambda s, r, u: codec.Message(codec.TAG_REMOVED, s, reader=r, uid=u), seqs, st.integers(0, 7), uids),
    st.builds(
        lambda s, b, p: codec.Message(codec.BUTTON, s, button=b, pressed=p), seqs, st.integers(0, 15), st.integers(0, 1)
    ),
    st.builds(
        lambda s, t, m: codec.Message(codec.HEARTBEAT, s, uptime_ms=t, mask=m),
        seqs,
        st.integers(0, 2**32 - 1),
        st.integers(0, 255),
    ),
    st.builds(
        lambda s, n, m, i: codec.Message(
            codec.HELLO, s, proto=1, fw_major=1, fw_minor=2, readers=n, mask=m, board_id=i
        ),
        seqs,
        st.integers(1, 8),
        st.integers(0, 255),
        st.binary(min_size=8, max_size=8),
    ),
)


@given(st.lists(board_messages, min_size=1, max_size=8), st.data())
def test_any_stream_decodes_the_same_in_any_chunking(messages: list[codec.Message], data: st.DataObject) -> None:
    stream = b"".join(codec.encode(m) for m in messages)
    cuts = sorted(data.draw(st.lists(st.integers(0, len(stream)), max_size=10)))
    decoder = codec.Decoder(from_board=True)
    got: list[codec.Message] = []
    last = 0
    for cut in [*cuts, len(stream)]:
        got += decoder.feed(stream[last:cut])
        last = cut
    assert got == messages
    assert decoder.dropped == 0
    assert all(0 not in codec.encode(m)[:-1] for m in messages)


@settings(max_examples=500)
@given(board_messages, st.data())
def test_a_corrupted_frame_never_decodes_to_another_message(msg: codec.Message, data: st.DataObject) -> None:
    frame = bytearray(codec.encode(msg))
    for _ in range(data.draw(st.integers(1, 4))):
        op = data.draw(st.sampled_from(["flip", "set", "insert", "delete"]))
        at = data.draw(st.integers(0, len(frame) - 1))
        if op == "flip":
            frame[at] ^= 1 << data.draw(st.integers(0, 7))
        elif op == "set":
            frame[at] = data.draw(st.integers(0, 255))
        elif op == "insert":
            frame.insert(at, data.draw(st.integers(0, 255)))
        elif len(frame) > 1:
            del frame[at]
    decoder = codec.Decoder(from_board=True)
    got = decoder.feed(bytes(frame) + b"\x00")
    assert all(m == msg for m in got), f"corruption turned {msg} into {got}"
    # and the stream recovers: the next clean frame after the noise is decoded
    assert decoder.feed(codec.encode(msg)) == [msg]


@given(st.binary(max_size=200))
def test_random_bytes_never_raise_and_never_make_a_tag(noise: bytes) -> None:
    decoder = codec.Decoder(from_board=True)
    got = decoder.feed(noise + b"\x00")
    assert not any(m.kind in (codec.TAG_PLACED, codec.TAG_REMOVED) for m in got)


def test_overlong_garbage_is_dropped_once_and_the_next_frame_survives() -> None:
    decoder = codec.Decoder(from_board=True)
    tap = codec.Message(codec.TAG_PLACED, 1, reader=0, tag_type=1, uid=b"\x01\x02\x03\x04")
    assert decoder.feed(b"\x55" * 1000) == []
    assert decoder.feed(b"\x00" + codec.encode(tap)) == [tap]
    assert decoder.reasons == {"too_long": 1}


def test_pack_refuses_values_out_of_range() -> None:
    for bad in (
        codec.Message(codec.TAG_PLACED, 0, reader=8, tag_type=0, uid=b"1234"),
        codec.Message(codec.TAG_PLACED, 0, reader=0, tag_type=0, uid=b"12345"),
        codec.Message(codec.BUTTON, 0, button=0, pressed=2),
        codec.Message(codec.BUZZER, 0, hz=5, ms=10),
        codec.Message(codec.TAG_PLACED, 256, reader=0, tag_type=0, uid=b"1234"),
    ):
        try:
            codec.encode(bad)
        except ValueError:
            continue
        raise AssertionError(f"{bad} was encoded")
