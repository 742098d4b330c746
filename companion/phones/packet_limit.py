"""How the embedded broker reads its connections: whole packets, each checked, none over the limit.

amqtt 0.12.1 reads a packet's body into memory whatever size its fixed header announces (up to the
protocol's 256 MiB): one 100 MB PUBLISH took the companion from 55 MB to about 590 MB. `PacketLimit`
sits between a connection and amqtt and reads one packet at a time off the wire: first its fixed
header, and if the packet would be larger than `topics.MAX_PACKET_BYTES` (one byte plus the remaining
length, as Mosquitto's `max_packet_size` counts it) the connection is cut before a byte of the body is
read. Otherwise it reads the body and parses the packet with amqtt's own parser from exactly those
bytes; a packet whose fields want more bytes than it announced, or leave some over, is cut too. That
second check keeps amqtt on the same packet boundaries as the limit: a limit that only followed the
fixed headers could be fooled by a PINGREQ announcing a 5-byte body (amqtt reads none of it) holding
the fixed header of a 256 MiB SUBSCRIBE.

amqtt reads only checked packets; a cut connection reads as ended, as a lost one does (so amqtt sends
the client's will, which the ACL checked at CONNECT). `WebSocketReader` replaces amqtt's reader of a
WebSocket, which repeats the last message when the connection closes in the middle of a read (a packet
the client never sent) and loses what it buffered when a read is cancelled (a keep-alive timeout).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any

from amqtt.adapters import ReaderAdapter
from amqtt.mqtt import packet_class
from amqtt.mqtt.packet import MQTTFixedHeader
from amqtt.mqtt.publish import PublishPacket
from websockets.exceptions import ConnectionClosed

from companion.phones.fields import LENGTH_BYTES, Publish, publish_fields
from companion.phones.topics import MAX_PACKET_BYTES

logger = logging.getLogger(__name__)
# Packets of a fixed size, by their first byte: PUBACK, PUBREC, PUBREL, PUBCOMP (a packet id) and
# PINGREQ, DISCONNECT (no body), in the only form MQTT 3.1.1 allows. amqtt parses such a packet exactly
# (`well_formed` says so: tests/security/test_packet_limit_fast_path.py), so these skip the second parse.
FIXED_SIZE = {0x40: 4, 0x50: 4, 0x62: 4, 0x70: 4, 0xC0: 2, 0xE0: 2}


def remaining_length(head: bytes | bytearray) -> int | None:
    """The remaining length a fixed header announces; None while more of it is to come.

    Raises ValueError if it is no fixed header (a fifth length byte).
    """
    length, multiplier = 0, 1
    for i, byte in enumerate(head[1:]):
        length += (byte & 0x7F) * multiplier
        if not byte & 0x80:
            return length
        if i + 1 == LENGTH_BYTES:
            raise ValueError("a remaining length longer than 4 bytes")
        multiplier *= 128
    return None


class _Exact(ReaderAdapter):
    """One packet's bytes for amqtt's parser; notes a read that wants more than is left."""

    def __init__(self, data: bytes) -> None:
        self._data, self._pos, self.overrun = data, 0, False

    async def read(self, n: int = -1) -> bytes:
        end = len(self._data) if n < 0 else self._pos + n
        self.overrun |= end > len(self._data)
        out = self._data[self._pos:end]
        self._pos += len(out)
        return out

    def feed_eof(self) -> None:
        pass

    @property
    def all_read(self) -> bool:
        return self._pos == len(self._data)


async def well_formed(data: bytes) -> bool:
    """Whether amqtt parses `data` as exactly one packet: every read inside it, and nothing left over.

    amqtt's parsers are a function of what their reads return, so a packet that passes this is parsed
    from the connection the same way, ending where its fixed header said it ends.
    """
    return await parsed(data) is not None


def _publish(data: bytes) -> PublishPacket | None:
    """`publish_fields` as amqtt's packet."""
    fields = publish_fields(data)
    return fields.packet() if fields is not None else None


async def parsed(data: bytes) -> Any:
    """The packet amqtt parses `data` as, if it is exactly one (`well_formed`); else None."""
    fast = _publish(data)
    return fast if fast is not None else await amqtt_parsed(data)


async def amqtt_parsed(data: bytes) -> Any:
    """`parsed`, by amqtt's own parser only."""
    reader = _Exact(data)
    try:
        header = await MQTTFixedHeader.from_stream(reader)
        if header is None:
            return None
        packet = await packet_class(header).from_stream(reader, fixed_header=header)
    except Exception:  # amqtt's parsers raise many kinds on bad input; any of them means no
        return None
    return packet if reader.all_read and not reader.overrun else None


class PacketLimit(ReaderAdapter):
    """A connection's checked packets, for amqtt; `cut` closes the connection at once."""

    def __init__(self, inner: ReaderAdapter, cut: Callable[[], Any], max_bytes: int = MAX_PACKET_BYTES) -> None:
        self._inner, self._cut, self._max = inner, cut, max_bytes
        self._head = bytearray()  # the fixed header of the packet being read off the wire
        self._ready = b""  # checked bytes amqtt has not read yet, from `_pos` on
        self._pos = 0
        self._ended = False
        self.publish: Publish | None = None  # the last packet `packet()` returned, if a PUBLISH read by us
        self._parsed: Any = None  # what amqtt's parser made of it, if it ran

    async def packet(self) -> bytes | None:
        """The next packet off the connection, checked; None once the connection ended or was cut.

        Safe to cancel (amqtt times its reads out): what was read of a packet is kept for the next call.
        """
        while not self._ended:
            try:
                remaining = remaining_length(self._head)
            except ValueError:
                self._refuse("a malformed fixed header")
                break
            if remaining is None:  # every packet has a type byte and at least one length byte
                more = await self._read_inner(1 if self._head else 2)
                if not more:
                    self._ended = True
                self._head += more
                continue
            if 1 + remaining > self._max:
                self._refuse(f"a packet of {1 + remaining} bytes (the limit is {self._max})")
                break
            body = await self._read_inner(remaining) if remaining else b""
            if len(body) < remaining:
                self._ended = True
                break
            data, self._head = bytes(self._head) + body, bytearray()
            self._parsed = None
            self.publish = publish_fields(data)
            if self.publish is None and FIXED_SIZE.get(data[0]) != len(data):
                self._parsed = await amqtt_parsed(data)
                if self._parsed is None:
                    self._refuse(f"a malformed packet of type {data[0] >> 4}")
                    break
            return data
        return None

    @property
    def max_bytes(self) -> int:
        return self._max

    @property
    def parsed(self) -> Any:
        """amqtt's packet for the last packet `packet()` returned, if parsed (a PUBLISH: built now)."""
        if self._parsed is None and self.publish is not None:
            self._parsed = self.publish.packet()
        return self._parsed

    @property
    def idle(self) -> bool:
        """Between packets with nothing read ahead: the connection's next bytes start a packet."""
        return not self._head and not self._ended and self._pos == len(self._ready)

    @property
    def between_packets(self) -> bool:
        """Whether everything handed out so far was read: the next `packet()` is the next packet."""
        return self._pos == len(self._ready)

    def push_back(self, data: bytes) -> None:
        """Serve `data` first (the CONNECT the broker read to check it, for amqtt to read again)."""
        self._ready, self._pos = data + self._ready[self._pos:], 0

    async def read(self, n: int = -1) -> bytes:
        while len(self._ready) - self._pos < max(n, 1):
            data = await self.packet()
            if data is None:
                break
            self._ready, self._pos = self._ready[self._pos:] + data, 0
        end = len(self._ready) if n < 0 else self._pos + n
        out = self._ready[self._pos:end]
        self._pos += len(out)
        return out

    def feed_eof(self) -> None:
        self._inner.feed_eof()

    async def _read_inner(self, n: int) -> bytes:
        try:
            return await self._inner.read(n)
        except (asyncio.IncompleteReadError, ConnectionError):
            return b""

    def _refuse(self, what: str) -> None:
        logger.warning("cut an MQTT connection: it sent %s", what)  # never the bytes themselves
        self._ended = True
        self._cut()


class WebSocketReader(ReaderAdapter):
    """The bytes of a WebSocket's binary messages (websockets' `max_size` bounds each message)."""

    def __init__(self, websocket: Any) -> None:
        self._websocket = websocket
        self._buffer = bytearray()

    async def read(self, n: int = -1) -> bytes:
        """`n` bytes, fewer once the connection closed; with n < 0, what one message brings."""
        while len(self._buffer) < max(n, 1):
            try:
                message = await self._websocket.recv()
            except ConnectionClosed:
                break
            self._buffer += message.encode() if isinstance(message, str) else message  # kept if cancelled
            if n < 0:
                break
        end = len(self._buffer) if n < 0 else n
        out = bytes(self._buffer[:end])
        del self._buffer[:end]
        return out

    def feed_eof(self) -> None:
        pass
