"""A packet's fields read straight from its bytes (issue 20, the embedded broker's received side).

`packet_limit.PacketLimit` and `SeatHandler.take_arrived` read a PUBLISH's topic, packet id and payload
here without building amqtt's packet (`Publish.packet()` builds it, as amqtt's parser would, when
something needs it), and cut a TCP segment into its packets by their fixed headers.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import NamedTuple

from amqtt.mqtt.packet import PUBLISH, MQTTFixedHeader
from amqtt.mqtt.publish import PublishPacket, PublishPayload, PublishVariableHeader

LENGTH_BYTES = 4  # the most a remaining length may take (MQTT 3.1.1, 2.2.3)


def fixed_header(data: bytes, pos: int) -> tuple[int, int]:
    """The remaining length of the packet starting at `pos` (`remaining_length`) and where its body
    starts; (0, 0) if `data` ends inside the fixed header or it is none (a fifth length byte)."""
    remaining, multiplier = 0, 1
    for i in range(pos + 1, min(len(data), pos + 1 + LENGTH_BYTES)):
        byte = data[i]
        remaining += (byte & 0x7F) * multiplier
        if not byte & 0x80:
            return remaining, i + 1
        multiplier *= 128
    return 0, 0


def whole_packets(data: bytes, max_bytes: int) -> list[bytes] | None:
    """`data` cut into packets by their fixed headers, each at most `max_bytes` (as `PacketLimit`
    counts); None unless it is nothing but whole ones (the limit then reads it, and judges)."""
    out, pos, size = [], 0, len(data)
    while pos < size:
        remaining, start = fixed_header(data, pos)
        end = start + remaining
        if not start or end > size or 1 + remaining > max_bytes:
            return None
        out.append(data[pos:end])
        pos = end
    return out


class Publish(NamedTuple):
    """A PUBLISH's fields, read from its bytes without building amqtt's packet (`publish_fields`)."""

    flags: int  # the fixed header's low four bits: DUP, QoS, RETAIN
    remaining: int
    topic: str
    packet_id: int | None
    payload: bytes

    @property
    def qos(self) -> int:
        return self.flags >> 1 & 3

    @property
    def retain(self) -> bool:
        return bool(self.flags & 1)

    def packet(self) -> PublishPacket:
        """amqtt's packet for these fields, as amqtt's parser builds it."""
        header = PublishVariableHeader(self.topic, self.packet_id)
        packet = PublishPacket(MQTTFixedHeader(PUBLISH, self.flags, self.remaining), header,
                               PublishPayload(self.payload))
        packet.protocol_ts = datetime.now(UTC)
        return packet


def publish_fields(data: bytes) -> Publish | None:
    """A PUBLISH at QoS 0, 1 or 2 whose topic is valid UTF-8 with no wildcard, read from `data` as
    amqtt's parser reads it (tests/security/test_packet_limit_fast_path.py compares the two); None
    for any other packet, and for one amqtt's parser would have to judge (it reads an invalid topic
    its own way, and refuses a wildcard)."""
    size = len(data)
    if size < 2 or data[0] >> 4 != PUBLISH or data[0] >> 1 & 3 == 3:
        return None
    remaining, start = fixed_header(data, 0)
    if not start or remaining != size - start or remaining < 2:
        return None
    flags, qos = data[0] & 0x0F, data[0] >> 1 & 3
    end = start + 2 + int.from_bytes(data[start:start + 2], "big")
    packet_id = None
    if qos:
        packet_id, end = int.from_bytes(data[end:end + 2], "big"), end + 2
    if end > size:
        return None
    try:
        topic = data[start + 2:end - (2 if qos else 0)].decode("utf-8")
    except UnicodeDecodeError:
        return None
    if "#" in topic or "+" in topic:  # amqtt's `PublishVariableHeader` refuses it [MQTT-3.3.2-2]
        return None
    return Publish(flags, remaining, topic, packet_id, data[end:])
