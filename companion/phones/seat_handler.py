"""amqtt's broker-side connection handler with a leaner reader loop (issue 20: the broker's CPU).

amqtt 0.12.1 reads each packet of a connection inside `asyncio.wait_for`, which wraps the read in a
task of its own, and handles each packet in yet another task, a PUBACK included. Under load (every
delivery to a phone at QoS 1 is answered by a PUBACK) those tasks per packet are a good part of the
broker's CPU. `SeatHandler._reader_loop` is amqtt's loop with the same packets, handlers and errors,
and these differences:

- no keep-alive timer on each read: amqtt's broker does nothing when one fires
  (`BrokerProtocolHandler.handle_read_timeout` is `pass`; the read is cancelled and started again),
  so the timer only cost CPU (a dead phone is found by TCP, as before);
- each packet is taken whole from the `PacketLimit` that checked it and parsed from its bytes (amqtt
  parsed it again through the limit's reader, a byte or two per call);
- a PUBACK is handled in place, no task: one for an `Outbox` delivery (`delivery`, no future waits
  for it) removes the message from the session's inflight table, straight from its 4 bytes unless a
  plugin listens to received packets; any other goes to amqtt's `handle_puback`, which only wakes the
  delivery waiting for it;
- a QoS 0/1 PUBLISH is routed in place by the broker (`received.RoutingBroker.take_publish`), read as
  fields (`fields.Publish`) unless a plugin listens to received packets, and a TCP segment of
  nothing but such PUBLISHes and PUBACKs is taken as it arrives (`take_arrived`, from `acks.AckSieve`).

`SeatBroker` gives every connection this handler (amqtt is pinned), with the connection's `Outbox`.
"""

from __future__ import annotations

import asyncio
import collections
from collections.abc import Awaitable, Callable
from typing import Any

from amqtt.adapters import BufferReader
from amqtt.errors import AMQTTError, MQTTError, NoDataError, ProtocolHandlerError
from amqtt.events import MQTTEvents
from amqtt.mqtt import packet_class
from amqtt.mqtt.connack import ConnackPacket
from amqtt.mqtt.connect import ConnectPacket
from amqtt.mqtt.constants import QOS_0, QOS_1, QOS_2
from amqtt.mqtt.disconnect import DisconnectPacket
from amqtt.mqtt.packet import PUBACK, PUBLISH, RESERVED_0, RESERVED_15, MQTTFixedHeader
from amqtt.mqtt.pingreq import PingReqPacket
from amqtt.mqtt.pingresp import PingRespPacket
from amqtt.mqtt.protocol.broker_handler import BrokerProtocolHandler
from amqtt.mqtt.puback import PubackPacket
from amqtt.mqtt.pubcomp import PubcompPacket
from amqtt.mqtt.publish import PublishPacket
from amqtt.mqtt.pubrec import PubrecPacket
from amqtt.mqtt.pubrel import PubrelPacket
from amqtt.mqtt.suback import SubackPacket
from amqtt.mqtt.subscribe import SubscribePacket
from amqtt.mqtt.unsuback import UnsubackPacket
from amqtt.mqtt.unsubscribe import UnsubscribePacket
from amqtt.session import IncomingApplicationMessage

from companion.phones.delivery import Outbox, ours
from companion.phones.fields import Publish, publish_fields, whole_packets
from companion.phones.packet_limit import PacketLimit
from companion.phones.received import RoutingBroker

PUBACK_BYTE, PUBACK_LEN = 0x40, 4  # a PUBACK in its one form (MQTT 3.1.1, 3.4): type byte, length 2, packet id

# amqtt's handler method for each packet it handles in a task of its own (CONNECT and PUBACK: in place)
HANDLERS: dict[type[Any], str] = {
    ConnackPacket: "handle_connack", SubscribePacket: "handle_subscribe", UnsubscribePacket: "handle_unsubscribe",
    SubackPacket: "handle_suback", UnsubackPacket: "handle_unsuback", PubrecPacket: "handle_pubrec",
    PubrelPacket: "handle_pubrel", PubcompPacket: "handle_pubcomp", PingReqPacket: "handle_pingreq",
    PingRespPacket: "handle_pingresp", PublishPacket: "handle_publish", DisconnectPacket: "handle_disconnect",
}


class SeatHandler(BrokerProtocolHandler):
    outbox: Outbox | None = None  # set by `SeatBroker` for the connections it accepted
    deliver: Callable[[Any, IncomingApplicationMessage], Awaitable[bool]] | None = None  # likewise
    router: RoutingBroker | None = None  # likewise: the broker's routing of a message in place
    _watched = True  # whether a plugin listens to received packets (known once the reader loop runs)
    _busy = False  # whether the reader loop is handling a packet (then no segment is taken in place)

    async def handle_puback(self, puback: PubackPacket) -> None:
        """A PUBACK from the connection: settles an `Outbox` delivery, or goes to amqtt."""
        if puback.variable_header is not None and self._settled(puback.variable_header.packet_id):
            return
        await super().handle_puback(puback)

    def _settled(self, packet_id: int) -> bool:
        """Whether `packet_id` was an `Outbox` delivery (no future waits for it), now acknowledged."""
        session = self.session
        if session is None or not ours(session.inflight_out, self._puback_waiters, packet_id):
            return False
        del session.inflight_out[packet_id]
        return True

    def take_arrived(self, data: bytes) -> bool:
        """Take `data` in place if it is nothing but whole packets taken as they are: PUBACKs for
        `Outbox` deliveries and QoS 0/1 PUBLISHes the broker routes (`router.takes`), read while the
        connection had nothing else unread and its reader loop waits for its next packet
        (`acks.AckSieve`); False, taking none, otherwise (the stream then reads it all, as before)."""
        session, reader, router = self.session, self.reader, self.router
        if (session is None or router is None or self._watched or self._busy or not data
                or self.outbox is None or not isinstance(reader, PacketLimit) or not reader.idle):
            return False
        inflight, waiters = session.inflight_out, self._puback_waiters
        if len(data) == PUBACK_LEN and data[0] == PUBACK_BYTE and data[1] == 2:  # the most common: one PUBACK
            packet_id = int.from_bytes(data[2:4], "big")
            if not ours(inflight, waiters, packet_id):
                return False
            del inflight[packet_id]
            return True
        packets = whole_packets(data, reader.max_bytes)
        if packets is None:
            return False
        plan: list[int | Publish] = []
        for packet in packets:
            if len(packet) == PUBACK_LEN and packet[0] == PUBACK_BYTE and packet[1] == 2:
                packet_id = int.from_bytes(packet[2:4], "big")
                if not ours(inflight, waiters, packet_id):
                    return False
                plan.append(packet_id)
            elif (fields := publish_fields(packet)) is not None and fields.qos != QOS_2 and router.takes(fields.topic):
                plan.append(fields)
            else:
                return False
        for item in plan:
            if isinstance(item, int):
                inflight.pop(item, None)
            else:
                self._taken(session, router, item.topic, item.payload, item.qos, item.retain, item.packet_id)
        return True

    def _taken(self, session: Any, router: RoutingBroker, topic: str, data: bytes, qos: int, retain: bool,
               packet_id: int | None) -> bool:
        """A QoS 0/1 message routed by the broker and its PUBACK written; False if it took nothing."""
        if not router.take_publish(session, topic, data, qos, retain):
            return False
        if qos == QOS_1 and packet_id is not None:
            self._ack(packet_id)
        return True

    def _ack(self, packet_id: int) -> None:
        assert self.outbox is not None
        self.outbox.send(bytes((PUBACK_BYTE, 2)) + packet_id.to_bytes(2, "big"))

    async def _next(self) -> tuple[MQTTFixedHeader | None, Any]:
        """The next packet: its fixed header (None at the end) and the packet (None: settled PUBACK).

        Read whole off the `PacketLimit` (which checked it) when the reader is one, parsed by amqtt's
        own parser from its bytes; a PUBACK for an `Outbox` delivery is settled right here.
        """
        reader = self.reader
        if isinstance(reader, PacketLimit) and reader.between_packets:
            data = await reader.packet()
            if data is None:
                return None, None
            if (data[0] == PUBACK_BYTE and len(data) == PUBACK_LEN and not self._watched
                    and self._settled(int.from_bytes(data[2:4], "big"))):
                return self._puback_header, None
            publish = reader.publish
            if publish is not None and publish.qos != QOS_2 and not self._watched:
                return self._publish_header, publish  # read by the limit's check: taken in place
            if reader.parsed is not None:  # the limit's check parsed it already, as amqtt would
                return reader.parsed.fixed_header, reader.parsed
            source: Any = BufferReader(data)
        else:
            source = reader
        header = await MQTTFixedHeader.from_stream(source)
        if not header or header.packet_type in (RESERVED_0, RESERVED_15):
            return header, None
        return header, await packet_class(header).from_stream(source, fixed_header=header)

    async def _take_publish(self, packet: PublishPacket | Publish) -> None:
        """amqtt's `handle_publish` for QoS 0 and 1, in place (no task): the message routed by the
        broker (`take`: the topic checks, the ACL, the broadcast, retain; `received.RoutingBroker`),
        or where it takes nothing handed to amqtt's delivery (`deliver`; what that refuses goes to
        amqtt's queue, whose loop then closes the connection as before); then the PUBACK. QoS 2 waits
        for a PUBREL this loop must read, so it keeps amqtt's own handling in a task."""
        session = self.session
        if session is None:
            return
        if isinstance(packet, Publish):
            topic, data, qos, retain = packet.topic, packet.payload, packet.qos, packet.retain
            packet_id = packet.packet_id
        else:
            if packet.topic_name is None or packet.data is None:
                return
            topic, data, qos, retain = packet.topic_name, packet.data, packet.qos or QOS_0, packet.retain_flag
            packet_id = packet.variable_header.packet_id if packet.variable_header is not None else None
        router, usable = self.router, self.outbox is not None and self.outbox.usable
        if router is None or not usable or not self._taken(session, router, topic, data, qos, retain, packet_id):
            if isinstance(packet, Publish):
                packet = packet.packet()
            message = IncomingApplicationMessage(packet_id, topic, qos, data, retain)
            message.publish_packet = packet
            if qos == QOS_1 and packet_id is not None:
                message.puback_packet = PubackPacket.build(packet_id)
            if self.deliver is None or not await self.deliver(self, message):  # amqtt's way: its queue
                await session.delivered_message_queue.put(message)
            if qos == QOS_1 and packet_id is not None:
                if usable:
                    self._ack(packet_id)
                else:
                    await self._send_packet(message.puback_packet)

    async def _reader_loop(self) -> None:
        if self.session is None:
            raise AMQTTError("Session is not initialized.")
        if not self._reader_ready:
            raise ProtocolHandlerError("Reader ready is not initialized.")
        running: collections.deque[asyncio.Task[None]] = collections.deque()
        callbacks = getattr(self.plugins_manager, "_event_plugin_callbacks", None)  # amqtt's, pinned
        self._watched = callbacks is None or MQTTEvents.PACKET_RECEIVED in callbacks
        self._puback_header = MQTTFixedHeader(PUBACK, 0, 2)
        self._publish_header = MQTTFixedHeader(PUBLISH, 0, 0)  # stands for a `Publish` read by the limit
        while True:
            try:
                self._reader_ready.set()
                while running and running[0].done():
                    running.popleft()
                if self.reader is None:
                    self.logger.warning("Reader is not initialized!")
                    break
                self._busy = False
                header, packet = await self._next()
                self._busy = True
                if not header:
                    break
                if header.packet_type in (RESERVED_0, RESERVED_15):
                    self.logger.warning("%s sent a reserved packet: closing the connection", self.session.client_id)
                    await self.handle_connection_closed()
                    continue
                if packet is None:  # a PUBACK settled in `_next`
                    continue
                if isinstance(packet, Publish):  # no plugin listens to received packets (`_next`)
                    await self._take_publish(packet)
                    continue
                await self.plugins_manager.fire_event(MQTTEvents.PACKET_RECEIVED, packet=packet, session=self.session)
                if isinstance(packet, PubackPacket):
                    await self.handle_puback(packet)
                elif isinstance(packet, PublishPacket) and packet.qos in (QOS_0, QOS_1):
                    await self._take_publish(packet)
                elif isinstance(packet, ConnectPacket):
                    await self.handle_connect(packet)
                elif (name := HANDLERS.get(type(packet))) is not None:
                    running.append(asyncio.create_task(getattr(self, name)(packet)))
                else:
                    self.logger.warning("%s sent an unhandled packet type", self.session.client_id)
            except MQTTError:
                self.logger.debug("Message discarded")
            except asyncio.CancelledError:
                break
            except NoDataError:
                pass
            except Exception as e:  # amqtt's loop ends on any other error, logging it; so does this one
                self.logger.warning("%s Unhandled exception in reader coro: %r", type(self).__name__, e)
                break
        while running:
            running.popleft().cancel()
        await self.handle_connection_closed()
        self._reader_stopped.set()
        await self.stop()
