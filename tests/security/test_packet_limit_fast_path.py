"""The packet limit's fast path (issue 20): packets of a fixed size skip amqtt's second parse.

`PacketLimit` parses every packet with amqtt's own parser before amqtt reads it (`well_formed`), so
amqtt always reads the packet boundaries the limit checked. PUBACK, PUBREC, PUBREL, PUBCOMP, PINGREQ
and DISCONNECT in their one allowed form skip that parse: each such packet must be one `well_formed`
accepts, and any other form of them (a wrong length, flags) still goes through the parse. A PUBLISH
(every message a phone or the referee sends) is parsed by our own parser where that gives the packet
amqtt's parser gives, and by amqtt's otherwise: the two agree on any bytes.
"""

from __future__ import annotations

import asyncio

from amqtt.mqtt.publish import PublishPacket
from hypothesis import given
from hypothesis import strategies as st

from companion.phones.packet_limit import FIXED_SIZE, PacketLimit, amqtt_parsed, parsed, well_formed
from tests.kits.mqtt_wire import remaining_length


class _Wire:
    def __init__(self, data: bytes) -> None:
        self.data, self.pos = data, 0

    async def read(self, n: int = -1) -> bytes:
        out = self.data[self.pos:] if n < 0 else self.data[self.pos:self.pos + n]
        self.pos += len(out)
        return out

    def feed_eof(self) -> None:
        pass


def _fixed(first: int, body: bytes) -> bytes:
    return bytes([first, len(body)]) + body


@given(st.sampled_from(sorted(FIXED_SIZE)), st.binary(min_size=2, max_size=2))
def test_every_packet_the_fast_path_takes_is_one_amqtt_parses_exactly(first: int, packet_id: bytes) -> None:
    data = _fixed(first, packet_id[: FIXED_SIZE[first] - 2])
    assert len(data) == FIXED_SIZE[first]
    assert asyncio.run(well_formed(data))


@given(st.sampled_from(sorted(FIXED_SIZE)), st.binary(min_size=1, max_size=6))
def test_a_fixed_size_packet_of_another_length_is_still_parsed_and_cut(first: int, body: bytes) -> None:
    data = _fixed(first, body)
    if len(data) == FIXED_SIZE[first]:
        return
    cut: list[bool] = []
    limit = PacketLimit(_Wire(data), lambda: cut.append(True))
    got = asyncio.run(limit.packet())
    assert (got is None) == bool(cut) == (not asyncio.run(well_formed(data)))


# -- a PUBLISH is parsed once, by our own parser where amqtt's would build the same packet -----------------

def _publish_fields(packet: PublishPacket | None) -> tuple[object, ...] | None:
    if packet is None:
        return None
    return (packet.fixed_header.flags, packet.fixed_header.remaining_length, packet.topic_name,
            packet.variable_header.packet_id if packet.variable_header else None, packet.data)


PUBLISHES = st.builds(lambda t, d, i, q, dup, r: PublishPacket.build(t, d, i if q else None, dup, q, r).to_bytes(),
                      st.text(st.characters(exclude_characters="+#"), max_size=30), st.binary(max_size=300),
                      st.integers(1, 65535), st.sampled_from([0, 1, 2]),
                      st.booleans(), st.booleans())
RAW_PUBLISHES = st.builds(  # any topic text, wildcards included, encoded by hand
    lambda first, t, rest: bytes([0x30 | first]) + remaining_length(2 + len(t.encode()) + len(rest))
    + len(t.encode()).to_bytes(2, "big") + t.encode() + rest,
    st.integers(0, 15), st.text(max_size=12), st.binary(max_size=12))
ANY_PUBLISH_BYTES = st.builds(lambda first, rest: bytes([0x30 | first]) + rest, st.integers(0, 15),
                              st.binary(max_size=40))


@given(st.one_of(PUBLISHES, RAW_PUBLISHES, ANY_PUBLISH_BYTES,
                 PUBLISHES.flatmap(lambda p: st.integers(0, len(p)).map(lambda n: p[:n] + p[n + 1:]))))
def test_a_publish_is_parsed_as_amqtts_parser_parses_it(data: bytes) -> None:
    ours = asyncio.run(parsed(data))
    theirs = asyncio.run(amqtt_parsed(data))
    assert _publish_fields(ours) == _publish_fields(theirs)
    assert (ours is None) == (not asyncio.run(well_formed(data)))
