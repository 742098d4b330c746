"""amqtt's broker-side connection handler with a leaner reader loop (issue 20: the broker's CPU).

amqtt 0.12.1 reads each packet of a connection inside `asyncio.wait_for`, which wraps the read in a
task of its own, and handles each packet in yet another task, a PUBACK included. Under load (every
delivery to a phone at QoS 1 is answered by a PUBACK) those two tasks per packet are a good part of
the broker's CPU. `SeatHandler._reader_loop` is amqtt's loop with the same packets, handlers and
errors, but the keep-alive limit kept by `asyncio.timeout` (a timer, no task) and a PUBACK handled
in place (amqtt's `handle_puback` only wakes the delivery waiting for it; it never waits itself).
`SeatBroker` gives every connection this handler (amqtt is pinned).
"""

from __future__ import annotations

import asyncio
import collections
from typing import Any

from amqtt.errors import AMQTTError, MQTTError, NoDataError, ProtocolHandlerError
from amqtt.events import MQTTEvents
from amqtt.mqtt import packet_class
from amqtt.mqtt.connack import ConnackPacket
from amqtt.mqtt.connect import ConnectPacket
from amqtt.mqtt.disconnect import DisconnectPacket
from amqtt.mqtt.packet import RESERVED_0, RESERVED_15, MQTTFixedHeader
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

# amqtt's handler method for each packet it handles in a task of its own (CONNECT and PUBACK: in place)
HANDLERS: dict[type[Any], str] = {
    ConnackPacket: "handle_connack", SubscribePacket: "handle_subscribe", UnsubscribePacket: "handle_unsubscribe",
    SubackPacket: "handle_suback", UnsubackPacket: "handle_unsuback", PubrecPacket: "handle_pubrec",
    PubrelPacket: "handle_pubrel", PubcompPacket: "handle_pubcomp", PingReqPacket: "handle_pingreq",
    PingRespPacket: "handle_pingresp", PublishPacket: "handle_publish", DisconnectPacket: "handle_disconnect",
}


class SeatHandler(BrokerProtocolHandler):
    async def _reader_loop(self) -> None:
        if self.session is None:
            raise AMQTTError("Session is not initialized.")
        if not self._reader_ready:
            raise ProtocolHandlerError("Reader ready is not initialized.")
        running: collections.deque[asyncio.Task[None]] = collections.deque()
        keepalive: int | None = self.session.keep_alive
        if keepalive is not None and keepalive <= 0:
            keepalive = None
        while True:
            try:
                self._reader_ready.set()
                while running and running[0].done():
                    running.popleft()
                if self.reader is None:
                    self.logger.warning("Reader is not initialized!")
                    break
                async with asyncio.timeout(keepalive):
                    header = await MQTTFixedHeader.from_stream(self.reader)
                if not header:
                    break
                if header.packet_type in (RESERVED_0, RESERVED_15):
                    self.logger.warning("%s sent a reserved packet: closing the connection", self.session.client_id)
                    await self.handle_connection_closed()
                    continue
                packet = await packet_class(header).from_stream(self.reader, fixed_header=header)
                await self.plugins_manager.fire_event(MQTTEvents.PACKET_RECEIVED, packet=packet, session=self.session)
                if isinstance(packet, PubackPacket):
                    await self.handle_puback(packet)
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
            except TimeoutError:
                self.handle_read_timeout()
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
