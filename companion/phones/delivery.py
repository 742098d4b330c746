"""The embedded broker's fast delivery: a broadcast encoded once, written straight to each connection.

amqtt 0.12.1 delivers a message to each subscriber in a task of its own: a `PublishPacket` built and
encoded per subscriber, written under a lock, and for QoS 1 a future and a 5 s `wait_for` per
delivery until the PUBACK comes (docs/perf/broker.md: about 100 µs of CPU a delivery). Here
`Broadcast` encodes the PUBLISH once (topic and payload are the same for every subscriber; a QoS 1
packet differs only in its 2-byte packet id) and `Outbox.deliver` writes it to the connection's
transport, with no task, lock or future:

- **QoS 1**: the message goes into the session's `inflight_out` (amqtt's own table) before it is
  written, so amqtt's redelivery of a persistent session's unacknowledged messages on reconnection
  ([MQTT-4.4.0-1], `_retry_deliveries`) finds it as it finds its own. `SeatHandler.handle_puback`
  removes it when the PUBACK comes. A message still unacknowledged after `ACK_TIMEOUT_S` (amqtt's own
  wait) is forgotten, as amqtt forgets it; so is the oldest once `MAX_UNACKED` are waiting: a phone
  that never acknowledges holds at most `MAX_UNACKED` entries (each shares the broadcast's payload).
- **A phone that stops reading**: what the kernel could not take waits in the transport's buffer.
  Once more than `MAX_UNSENT_BYTES` wait there the connection is cut (as a lost one: amqtt sends its
  will, which the ACL checked at CONNECT); the phone reconnects and gets the retained views, i.e. the
  current state. No write ever waits, so a slow or dead phone never holds up another.
- **WebSocket**: a server's frames are not masked (RFC 6455, 5.1), so one frame header serves every
  subscriber. The listener negotiates no compression (`embedded.SeatBroker`, like Mosquitto); a
  connection with any extension, a QoS 2 delivery, or a connection not made by `SeatBroker` is
  delivered by amqtt's own `mqtt_publish` instead.

Every check stays where it was: the ACL on every delivery is asked before `deliver`
(`SeatBroker._run_broadcast`), a disconnected persistent session's message is kept by amqtt.
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from typing import Any

from amqtt.adapters import StreamWriterAdapter, WebSocketsWriter
from amqtt.mqtt.constants import QOS_0, QOS_1
from amqtt.mqtt.publish import PublishPacket
from amqtt.session import OutgoingApplicationMessage, Session
from websockets.protocol import State

ACK_TIMEOUT_S = 5.0  # amqtt 0.12.1's wait for a PUBACK (`_handle_qos1_message_flow`) before it forgets
MAX_UNACKED = 256  # QoS 1 deliveries waiting for a PUBACK on one connection, at most
MAX_UNSENT_BYTES = 256 * 1024  # bytes waiting in one phone's connection buffer before it is cut
REFEREE_UNSENT_BYTES = 8 * 1024 * 1024  # the same for the referee's own connection (every phone's commands)


def _length(n: int) -> bytes:
    """MQTT's remaining length (MQTT 3.1.1, 2.2.3)."""
    out = bytearray()
    while True:
        n, byte = divmod(n, 128)
        out.append(byte | 0x80 if n else byte)
        if not n:
            return bytes(out)


def ws_header(n: int) -> bytes:
    """The header of an unmasked, final, binary WebSocket frame of `n` bytes (RFC 6455, 5.2)."""
    if n < 126:
        return bytes((0x82, n))
    if n < 1 << 16:
        return bytes((0x82, 126)) + n.to_bytes(2, "big")
    return bytes((0x82, 127)) + n.to_bytes(8, "big")


class Broadcast:
    """One message for many subscribers, encoded once per QoS."""

    def __init__(self, topic: str, data: bytes | bytearray) -> None:
        self.topic, self.data = topic, bytes(data)
        name = topic.encode()
        self._name = len(name).to_bytes(2, "big") + name
        self._qos0: tuple[bytes, bytes] | None = None
        self._qos1: tuple[bytes, bytes, bytes] | None = None
        self.sent_marker: PublishPacket | None = None  # amqtt's "PUBLISH already sent once" (DUP on retry)

    def qos0(self) -> tuple[bytes, bytes]:
        """The PUBLISH at QoS 0, and as a WebSocket frame."""
        if self._qos0 is None:
            body = self._name + self.data
            packet = bytes((0x30,)) + _length(len(body)) + body
            self._qos0 = packet, ws_header(len(packet)) + packet
        return self._qos0

    def qos1(self) -> tuple[bytes, bytes, bytes]:
        """The PUBLISH at QoS 1 up to its packet id, the same with a WebSocket frame header, and the payload."""
        if self._qos1 is None:
            rest = len(self._name) + 2 + len(self.data)
            head = bytes((0x32,)) + _length(rest) + self._name
            self._qos1 = head, ws_header(len(head) + 2 + len(self.data)) + head, self.data
            self.sent_marker = PublishPacket.build(self.topic, self.data, None, False, QOS_1, False)
        return self._qos1


class OutboxMessage(OutgoingApplicationMessage):
    """A QoS 1 delivery an `Outbox` wrote: no future of amqtt's waits for its PUBACK."""

    __slots__ = ()


def ours(inflight: dict[int, Any], waiters: dict[int, Any], packet_id: int) -> bool:
    """Whether the PUBACK for `packet_id` settles an `Outbox` delivery (then it is ours to remove).

    Not when amqtt's own delivery of that id waits for it, or is about to: amqtt puts its message in
    the inflight table, sends the PUBLISH (awaiting the writer) and only then makes its future, so a
    quick PUBACK can come before it. Taking that one as ours left amqtt's delivery waiting 5 s for a
    PUBACK already read, and the session's loop with it (a phone page's SUBACK, sent by that loop
    after the retained views amqtt delivers, came too late: tests/night/test_night_evening.py)."""
    return packet_id not in waiters and isinstance(inflight.get(packet_id), OutboxMessage)


class Outbox:
    """One connection's direct writes: its transport, and (a WebSocket) its connection's state."""

    def __init__(self, transport: asyncio.Transport, websocket: Any = None) -> None:
        self.transport, self.websocket = transport, websocket
        self.limit = MAX_UNSENT_BYTES  # `REFEREE_UNSENT_BYTES` for the referee's connection (`SeatBroker`)
        self.unacked: deque[tuple[float, OutgoingApplicationMessage]] = deque()  # oldest first

    @property
    def usable(self) -> bool:
        """Whether frames may be written here (a WebSocket without extensions, e.g. compression)."""
        return self.websocket is None or not self.websocket.protocol.extensions

    def deliver(self, session: Session, message: Broadcast, qos: int) -> bool:
        """Send `message` at `qos`; False if this connection needs amqtt's own delivery instead."""
        if qos not in (QOS_0, QOS_1) or not self.usable:
            return False
        if qos == QOS_0:
            packet, framed = message.qos0()
            self._write(framed if self.websocket is not None else packet)
            return True
        head, framed_head, payload = message.qos1()
        self._forget_stale(session)
        packet_id = session.next_packet_id
        outgoing = OutboxMessage(packet_id, message.topic, QOS_1, message.data, False)
        outgoing.publish_packet = message.sent_marker
        session.inflight_out[packet_id] = outgoing
        self.unacked.append((time.monotonic() + ACK_TIMEOUT_S, outgoing))
        pid = packet_id.to_bytes(2, "big")
        self._write(b"".join((framed_head if self.websocket is not None else head, pid, payload)))
        return True

    def _forget_stale(self, session: Session) -> None:
        """Drop what waited longer than amqtt would, and the oldest past `MAX_UNACKED`; acknowledged
        entries at the front go too (PUBACKs mostly come in order, so this queue stays short)."""
        now, unacked, inflight = time.monotonic(), self.unacked, session.inflight_out
        while unacked:
            deadline, old = unacked[0]
            waiting = inflight.get(old.packet_id) is old
            if waiting and deadline >= now and len(unacked) < MAX_UNACKED:
                break
            unacked.popleft()
            if waiting:
                del inflight[old.packet_id]

    def send(self, packet: bytes) -> None:
        """One packet of this connection's own (a PUBACK), framed for a WebSocket."""
        self._write(ws_header(len(packet)) + packet if self.websocket is not None else packet)

    def _write(self, data: bytes) -> None:
        transport = self.transport
        if transport.is_closing():
            return
        if self.websocket is not None and self.websocket.protocol.state is not State.OPEN:
            return
        if transport.get_write_buffer_size() > self.limit:
            transport.abort()  # a phone that stopped reading: cut, as a lost connection
            return
        transport.write(data)


class OutboxStreamWriter(StreamWriterAdapter):
    """amqtt's TCP writer, with the `Outbox` that writes broadcasts to the same transport."""

    def __init__(self, writer: asyncio.StreamWriter) -> None:
        super().__init__(writer)
        self.outbox = Outbox(writer.transport)  # type: ignore[arg-type]


class OutboxWebSocketWriter(WebSocketsWriter):
    """amqtt's WebSocket writer, with the `Outbox` that writes broadcasts as frames of their own."""

    def __init__(self, websocket: Any) -> None:
        super().__init__(websocket)
        self.outbox = Outbox(websocket.transport, websocket)
