"""The packet limit's fast path (issue 20): packets of a fixed size skip amqtt's second parse.

`PacketLimit` parses every packet with amqtt's own parser before amqtt reads it (`well_formed`), so
amqtt always reads the packet boundaries the limit checked. PUBACK, PUBREC, PUBREL, PUBCOMP, PINGREQ
and DISCONNECT in their one allowed form skip that parse: each such packet must be one `well_formed`
accepts, and any other form of them (a wrong length, flags) still goes through the parse.
"""

from __future__ import annotations

import asyncio

from hypothesis import given
from hypothesis import strategies as st

from companion.phones.packet_limit import FIXED_SIZE, PacketLimit, well_formed


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
