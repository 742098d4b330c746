"""The embedded broker: amqtt in its own asyncio thread, with our auth and ACL (docs/mqtt.md).

amqtt deletes a live session whose client id a clean-session CONNECT reuses *before* it checks the
password (PLATFORM-NOTES), so a stranger could wipe a player's subscriptions. `SeatBroker` reads and
checks every CONNECT itself (known user, right password, client id equal to the user name) and hands
only a good one, replayed byte for byte, to amqtt; a bad one gets CONNACK "not authorized" and amqtt
never sees it. The auth plugin checks the login again inside amqtt, and `SeatBroker._topic_filtering`
applies the ACL (`access`) to every subscribe, publish and delivery.

amqtt sends a client's last will without asking the ACL, so a CONNECT whose will is on a topic its user
may not publish is refused ("not authorized") too, and every message that enters a topic on a client's
behalf (a PUBLISH of any QoS, retained or not, or a will) passes the same check once more where amqtt
broadcasts and retains it. Every connection is read through `packet_limit.PacketLimit`: a packet larger
than `topics.MAX_PACKET_BYTES` is cut off at its fixed header, before amqtt reads its body.

For speed (docs/mqtt.md, "The embedded broker's CPU"): the ACL's verdicts are cached per set of
credentials (`logins.Admitted`), amqtt's delivery loop is replaced by one with the same deliveries
that encodes a broadcast once and writes it straight to each connection (`delivery`), and every
connection is read by `seat_handler.SeatHandler`.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import threading
from collections import deque
from collections.abc import Collection
from dataclasses import dataclass
from typing import Any

import websockets
from amqtt.adapters import (
    BufferReader,
    ReaderAdapter,
    StreamReaderAdapter,
    WriterAdapter,
)
from amqtt.contexts import Action, BaseContext, ListenerType
from amqtt.mqtt.connack import NOT_AUTHORIZED, ConnackPacket
from amqtt.mqtt.connect import ConnectPacket
from amqtt.mqtt.packet import CONNECT
from amqtt.mqtt.protocol.broker_handler import BrokerProtocolHandler
from amqtt.plugins.base import BaseAuthPlugin, BasePlugin
from amqtt.session import IncomingApplicationMessage, Session

from companion.phones import access, acks
from companion.phones.acks import AckSieve
from companion.phones.credentials import GameCredentials
from companion.phones.delivery import REFEREE_UNSENT_BYTES, OutboxStreamWriter, OutboxWebSocketWriter
from companion.phones.logins import ACL_CACHE_MAX, Admitted, Logins
from companion.phones.packet_limit import PacketLimit, WebSocketReader
from companion.phones.received import RoutingBroker
from companion.phones.seat_handler import SeatHandler
from companion.phones.topics import MAX_PACKET_BYTES, REFEREE_USER

logger = logging.getLogger(__name__)
START_TIMEOUT_S = 10.0
SHUTDOWN_S = 1.0


class SeatAuth(BaseAuthPlugin):
    @dataclass
    class Config:
        logins: Any = None

    async def authenticate(self, *, session: Session) -> bool | None:
        logins: Logins = self.config.logins
        return logins.check(session.username, session.password, session.client_id)


class PhoneCount(BasePlugin[BaseContext]):
    """Counts connected phones for the status board."""

    @dataclass
    class Config:
        logins: Any = None

    async def on_broker_client_connected(self, *, client_id: str, client_session: Session) -> None:
        self.config.logins.phone_connected(client_id, True)

    async def on_broker_client_disconnected(self, *, client_id: str, client_session: Session) -> None:
        self.config.logins.phone_connected(client_id, False)


class SeatBroker(RoutingBroker):
    """amqtt's broker with the CONNECT checked before amqtt touches any session, the ACL on every way
    into a topic, and every connection read through the packet limit."""

    def __init__(self, config: dict[str, Any], logins: Logins) -> None:
        super().__init__(config)
        self.logins = logins

    async def halt(self) -> None:
        """Close the listeners at once (their ports are free when this returns), then shut down.

        amqtt's own shutdown can stall for seconds on a delivery still in flight to a client it has
        already dropped; what is left after `SHUTDOWN_S` is cancelled when the loop stops.
        """
        for server in self._servers.values():  # amqtt 0.12.1 keeps its listeners here (pinned)
            if server.instance is not None:
                server.instance.close()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.shutdown(), SHUTDOWN_S)

    async def _handle_client_session(self, reader: ReaderAdapter, writer: WriterAdapter, client_session: Session,
                                     handler: BrokerProtocolHandler, server: Any, listener_name: str) -> None:
        """amqtt's session handling, with the connection read by `SeatHandler` (its leaner reader loop)."""
        handler.__class__ = SeatHandler  # the handler amqtt made, read leaner
        handler.outbox = outbox = getattr(writer, "outbox", None)
        handler.deliver = self._deliver_now
        handler.router = self
        if outbox is not None and client_session.username == REFEREE_USER:
            outbox.limit = REFEREE_UNSENT_BYTES
        protocol = outbox.transport.get_protocol() if outbox is not None else None
        if isinstance(protocol, AckSieve):
            protocol.handler = handler
        await super()._handle_client_session(reader, writer, client_session, handler, server, listener_name)

    async def _publish_retained_messages_for_subscription(self, subscription: tuple[str, int],
                                                           session: Session) -> None:
        """Retained messages for one of *this session's own* subscriptions, and only those it may read.

        amqtt 0.12.1 calls this on every CONNECT with every filter any client holds, and sends the
        newcomer whatever retained message matches, without asking the ACL: a player connecting after
        the host got the host's retained view. Here a filter the session does not hold sends nothing,
        and each retained message passes the ACL first.
        """
        topic_filter, qos = subscription
        holders = self._subscriptions.get(topic_filter, [])
        if not any(s.client_id == session.client_id for s, _ in holders) or session.username is None:
            return
        handler = self._get_handler(session)
        if handler is None:
            return
        user = session.username
        for topic, retained in list(self._retained_messages.items()):
            if self._matches(topic, topic_filter) and self._allowed(user, topic, Action.RECEIVE):
                await handler.mqtt_publish(retained.topic, retained.data, min(qos, retained.qos or qos), retain=True)

    async def _topic_filtering(self, session: Session, topic: str, action: Action) -> bool:
        """The ACL, answered without yielding to the event loop.

        amqtt 0.12.1 asks topic plugins through tasks it awaits *while iterating its subscription
        table* for every delivery; a SUBSCRIBE arriving then makes the delivery fail ("dictionary
        changed size during iteration") and the message is lost. Answering here, synchronously,
        keeps the ACL on every subscribe, publish and delivery without that race (amqtt is pinned).
        """
        return self._allowed(session.username if session is not None else None, topic, action)

    def _allowed(self, user: str | None, topic: str | None, action: Action) -> bool:
        """The ACL's verdict on `action` by `user` on `topic`, cached per set of credentials."""
        if user is None or not topic:
            return False
        now = self.logins.now  # one snapshot: the verdict and the cache belong to the same credentials
        key = (action, user, topic)
        verdict = now.verdicts.get(key)
        if verdict is None:
            verdict = self._decide(now, user, topic, action)
            if len(now.verdicts) >= ACL_CACHE_MAX:  # a phone trying endless topic names costs no memory
                now.verdicts.clear()
            now.verdicts[key] = verdict
        return verdict

    def _decide(self, now: Admitted, user: str, topic: str, action: Action) -> bool:
        if not now.known(user):  # a credential of an ended game
            return False
        prefix = self.logins.prefix
        if action == Action.SUBSCRIBE:
            return access.may_subscribe(prefix, user, topic)
        if action == Action.PUBLISH:
            if topic.startswith("$") or "+" in topic or "#" in topic:  # a topic name, never a filter [MQTT-3.3.2-2]
                return False
            return access.may_publish(prefix, user, topic)
        return access.may_receive(prefix, user, topic)

    async def _deliver_now(self, handler: BrokerProtocolHandler, message: IncomingApplicationMessage) -> bool:
        """amqtt's delivery of a client's message (`_handle_message_delivery`: topic checks, ACL,
        broadcast, retain), called in place by `SeatHandler` instead of through the session's queue
        and its message loop (a wait on four futures per message); False where amqtt would close the
        connection (a topic no PUBLISH may have)."""
        done: asyncio.Future[IncomingApplicationMessage] = asyncio.get_running_loop().create_future()
        done.set_result(message)
        assert handler.session is not None
        return await self._handle_message_delivery(handler.session, handler, done)

    async def _run_broadcast(self, running_tasks: deque[asyncio.Task[Any]]) -> None:
        """amqtt's broadcast loop's step; every broadcast is delivered in place (`_broadcast_message`)."""
        await self._deliver_broadcast(await self._broadcast_queue.get(), running_tasks)

    async def _deliver_broadcast(self, broadcast: dict[str, Any], running_tasks: deque[asyncio.Task[Any]]) -> None:
        """amqtt's delivery of one broadcast message, routed in place (`received.RoutingBroker._route`)."""
        self._route(broadcast.get("session"), broadcast["topic"], broadcast["data"], broadcast.get("qos"),
                    running_tasks)

    async def _broadcast_message(self, session: Session | None, topic: str | None,
                                 data: bytes | bytearray | None, force_qos: int | None = None) -> None:
        """amqtt broadcasts a client's PUBLISH after the ACL, but its will without: both are checked here.

        Delivered in place rather than through amqtt's broadcast queue and loop (a task per message):
        the deliveries never wait (`_deliver_broadcast`), and one publisher's messages keep their order.
        """
        if session is not None and not self._may_publish(session.username, topic):
            logger.warning("dropped a message of %s to a topic it may not publish", session.username)
            return
        broadcast: dict[str, Any] = {"session": session, "topic": topic, "data": data}
        if force_qos is not None:
            broadcast["qos"] = force_qos
        await self._deliver_broadcast(broadcast, self._tasks_queue)

    async def retain_message(self, source_session: Session | None, topic_name: str | None,
                             data: bytes | bytearray | None, qos: int | None = None) -> None:
        """The same for what amqtt retains (a retained PUBLISH, a retained will)."""
        if source_session is not None and not self._may_publish(source_session.username, topic_name):
            logger.warning("kept no retained message of %s on a topic it may not publish", source_session.username)
            return
        await super().retain_message(source_session, topic_name, data, qos)

    async def _create_server_instance(self, listener_name: str, listener_type: ListenerType, address: str | None,
                                      port: int, ssl_context: Any) -> Any:
        """amqtt's listeners: the TCP one settles PUBACKs as they arrive (`acks`); the WebSocket one
        takes no message larger than a packet may be, and compresses nothing (as Mosquitto): one
        frame then serves every subscriber (`delivery`)."""
        if listener_type == ListenerType.TCP:
            return await acks.serve(functools.partial(self.stream_connected, listener_name=listener_name),
                                    address, port, ssl_context)
        if listener_type != ListenerType.WS:
            return await super()._create_server_instance(listener_name, listener_type, address, port, ssl_context)
        return await websockets.serve(functools.partial(self.ws_connected, listener_name=listener_name),
                                      address, port, ssl=ssl_context, subprotocols=[websockets.Subprotocol("mqtt")],
                                      max_size=MAX_PACKET_BYTES, compression=None)

    async def stream_connected(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                               listener_name: str) -> None:
        packets = PacketLimit(StreamReaderAdapter(reader), writer.transport.abort)
        await self._checked(packets, OutboxStreamWriter(writer), listener_name)

    async def ws_connected(self, websocket: Any, listener_name: str) -> None:
        packets = PacketLimit(WebSocketReader(websocket), websocket.transport.abort)
        await self._checked(packets, OutboxWebSocketWriter(websocket), listener_name)

    async def _checked(self, packets: PacketLimit, writer: WriterAdapter, listener_name: str) -> None:
        first = await packets.packet()
        connect = await _as_connect(first)
        if first is None or connect is None:  # not even a CONNECT: drop the connection, as amqtt would
            with contextlib.suppress(Exception):
                await writer.close()
            return
        if not self._let_in(connect):
            with contextlib.suppress(Exception):
                await ConnackPacket.build(0, NOT_AUTHORIZED).to_stream(writer)
                await writer.close()
            return
        packets.push_back(first)  # amqtt reads the same CONNECT again, and the connection from there
        await self.external_connected(packets, writer, listener_name)

    def _let_in(self, connect: ConnectPacket) -> bool:
        """A known user with the right password, the client id equal to the user name, and a will (if
        any) on a topic the user may publish."""
        if connect.payload is None or not self.logins.check(connect.username, connect.password, connect.client_id):
            return False
        if connect.will_flag and not self._may_publish(connect.username, connect.will_topic):
            logger.warning("refused %s: a last will on a topic it may not publish", connect.username)
            return False
        return True


async def _as_connect(data: bytes | None) -> ConnectPacket | None:
    """The CONNECT `data` holds (a packet `PacketLimit` checked), or None."""
    if data is None or data[0] >> 4 != CONNECT:
        return None
    try:
        connect: ConnectPacket = await ConnectPacket.from_stream(BufferReader(data))
    except Exception:  # amqtt's parser raises many kinds on bad input
        return None
    return connect


class EmbeddedBroker:
    """amqtt on a thread of its own: `start()` returns once both listeners accept connections."""

    name = "embedded"

    def __init__(self, prefix: str, host: str, port: int, ws_port: int, referee_password: str) -> None:
        self.host, self.port, self.ws_port = host, port, ws_port
        self.logins = Logins(prefix, referee_password)
        self._loop: asyncio.AbstractEventLoop | None = None
        self._broker: SeatBroker | None = None
        self._thread: threading.Thread | None = None

    def _config(self) -> dict[str, Any]:
        plugin_cfg = {"logins": self.logins}
        return {
            "listeners": {
                "default": {"type": "tcp", "bind": f"{self.host}:{self.port}", "max_connections": 500},
                "ws": {"type": "ws", "bind": f"{self.host}:{self.ws_port}", "max_connections": 500},
            },
            "plugins": {f"{__name__}.{name}": plugin_cfg for name in ("SeatAuth", "PhoneCount")},
        }

    def start(self) -> None:
        ready = threading.Event()
        failure: list[BaseException] = []

        def run() -> None:
            loop = asyncio.new_event_loop()
            asyncio.set_event_loop(loop)
            self._loop = loop

            async def boot() -> None:
                self._broker = SeatBroker(self._config(), self.logins)
                await self._broker.start()

            try:
                loop.run_until_complete(boot())
            except BaseException as err:  # said to the caller of start(), below
                failure.append(err)
                self._loop = self._broker = None
                loop.close()
                ready.set()
                return
            ready.set()
            loop.run_forever()
            pending = asyncio.all_tasks(loop)  # what amqtt left running: cancel it before closing the loop
            for task in pending:
                task.cancel()
            loop.run_until_complete(asyncio.gather(*pending, return_exceptions=True))
            loop.run_until_complete(loop.shutdown_asyncgens())
            loop.close()

        self._thread = threading.Thread(target=run, name="mqtt-embedded", daemon=True)
        self._thread.start()
        if not ready.wait(START_TIMEOUT_S):
            raise RuntimeError("the embedded MQTT broker did not start")
        if failure:
            raise RuntimeError(f"the embedded MQTT broker did not start: {failure[0]}") from failure[0]

    def set_game(self, game: GameCredentials) -> None:
        """Let this game's phones in; every earlier game's credentials are refused from now on."""
        self.logins.set_game(game)
        if self._loop is not None and self._broker is not None:
            broker = self._broker

            async def kick_stale() -> None:  # a phone of the ended game loses its connection too
                for session, handler in list(broker.sessions.values()):
                    if session.username != REFEREE_USER and not self.logins.known(session.username):
                        with contextlib.suppress(Exception):
                            await handler.handle_connection_closed()
                            await handler.stop()

            asyncio.run_coroutine_threadsafe(kick_stale(), self._loop).result(START_TIMEOUT_S)

    def update_game(self, game: GameCredentials, drop: Collection[str] = ()) -> None:
        """The same game with some passwords changed (a seat claimed or released): let the new ones in,
        and close the live connections of the users in `drop` (a released seat's phone is out at once;
        its reconnection, with the old password, is refused)."""
        self.logins.set_game(game)
        if not drop or self._loop is None or self._broker is None:
            return
        broker, gone = self._broker, set(drop)

        async def kick() -> None:
            for session, handler in list(broker.sessions.values()):
                if session.username in gone:
                    with contextlib.suppress(Exception):
                        await handler.handle_connection_closed()
                        await handler.stop()

        asyncio.run_coroutine_threadsafe(kick(), self._loop).result(START_TIMEOUT_S)

    def phones_connected(self) -> int | None:
        return self.logins.phones

    def stop(self) -> None:
        loop, broker = self._loop, self._broker
        if loop is None or broker is None or self._thread is None:
            return
        with contextlib.suppress(Exception):
            asyncio.run_coroutine_threadsafe(broker.halt(), loop).result(START_TIMEOUT_S)
        loop.call_soon_threadsafe(loop.stop)
        self._thread.join(START_TIMEOUT_S)
        self._loop = self._broker = None
