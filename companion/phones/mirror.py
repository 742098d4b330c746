"""The MQTT mirror: an `Output` that publishes the views, and the intake of phones' commands.

The main loop calls `changed` after every accepted input with the views the table shares with every
output (companion/table/views.py): the mirror takes the public view's and each seat's JSON from them
(each serialized once, with its lines) and publishes (retained, QoS 1) only those whose bytes changed:
the public view first, before the seats' views are even made (spectators read only it), then the
seats' and the host's, then the new public announcements on the events topic. On every (re)connection
to the broker it republishes `online` and every retained view, so a restarted broker or a phone that
rejoins gets the current state back.

Commands arrive on paho's network thread. There the mirror only works out the seat from the topic,
checks rate, size, nesting, content and schema (`intake`), and queues the raw input with `Table.put`;
the main loop runs it and the reply callback publishes the outcome on the sender's reply topic. Retries
carry the same id and the referee applies them once. No callback on paho's thread lets an exception out
(one would end that thread: from then on no phone would get a reply).

Liveness: `alive()` says whether paho's network thread runs. The systemd watchdog is fed only while it
does (companion/watchdog.py), and `keep_alive`, a turn hook of the table's loop, checks it once a
second: a dead thread is shown on the status board (broker "error"), its connection is closed (the
broker then publishes the referee's last will, `offline`), and at the next check a new client starts.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

import paho.mqtt.client as mqtt

from companion.core.failure import failure
from companion.core.referee import HOST_VIEW, PUBLIC, Outcome
from companion.core.rejection import Rejected
from companion.naming import Namer
from companion.phones import host_pin, intake
from companion.phones.credentials import GameCredentials
from companion.phones.topics import HEADLESS, OFFLINE, ONLINE, REFEREE_USER, VIEW_MAX_BYTES, Seat, Topics, parse_user
from companion.status import DeviceStatus, StatusBoard
from companion.table.loop import Table
from companion.table.views import Views, encode

logger = logging.getLogger(__name__)
SYS_CONNECTED = "$SYS/broker/clients/connected"
KEEPALIVE_S = 10
CHECK_EVERY_S = 1.0  # how often `keep_alive` looks at the network thread
NEW_GAME_WAIT_S = 2.0  # at most, for the broker to take the new game's public view before the old users go
THREAD_STOPPED = "the MQTT thread stopped"  # the status board's detail for a dead mirror


@dataclass(frozen=True)
class BrokerAddress:
    """Where and as whom the referee connects."""

    host: str
    port: int
    user: str = REFEREE_USER
    password: str = field(default="", repr=False)
    transport: Literal["tcp", "websockets"] = "tcp"
    tls: bool = False


class Mirror:
    """One game's views and commands over one broker connection (host, port, the referee's login)."""

    def __init__(self, table: Table, topics: Topics, game: GameCredentials, address: BrokerAddress,
                 status: StatusBoard | None = None, broker_name: str = "external",
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.table, self.topics, self.game, self.address = table, topics, game, address
        self.host, self.port = address.host, address.port
        self.status, self.broker_name, self.clock = status, broker_name, clock
        self._lock = threading.Lock()
        self._namer: Namer | None = None  # says a refusal's ids in words: the game and players of the last views
        self._retained: dict[str, bytes] = {}
        self._announced = 0
        self._limits: dict[str, intake.RateLimit] = {}
        self.counts: dict[str, int] = {"received": 0, "queued": 0, "refused": 0, "dropped": 0}
        self._counted = threading.Condition()
        self.connected = threading.Event()
        self.connections = 0  # how many times the mirror (re)connected; tests wait on it
        self.counted_phones: Callable[[], int | None] | None = None  # set by a broker that can count
        # companion.phones.seating: its outcome for a join user's claim or the host's seat.release (else None)
        self.seating: Callable[[str, Seat, bytes], Outcome | None] | None = None
        # companion.phones.seating: the game's credentials as they are now (a release makes a new join user)
        self.credentials: Callable[[], GameCredentials] | None = None
        self.phone_seats: Callable[[], dict[str, Any]] | None = None  # which seats a phone holds (the host's view)
        # the kiosk's host lock (companion/phones/host_pin.py): how it is now for the host's view ("pin", "off",
        # "unset"), and what sets its PIN from the host's page; both None on a table without a kiosk
        self.kiosk_lock: Callable[[], str] | None = None
        self.set_host_pin: host_pin.SetPin | None = None
        # companion.phones.seating: the seats of the table's next game (its number, its player ids)
        self.new_game: Callable[[int, list[str]], tuple[GameCredentials, Callable[[], None]]] | None = None
        # topics the referee's client also reads (the hall's seating, companion/hall/table/): each handler
        # runs on paho's thread with the payload, and must only check it and hand it to the table's loop
        self.subscriptions: dict[str, Callable[[bytes], None]] = {}
        self.restarts = 0  # network threads started again after one died
        self._running = False  # between `start` and `disconnect`
        self._checked = float("-inf")
        self._dead_seen = False
        self._client = self._new_client()

    def _new_client(self) -> mqtt.Client:
        address = self.address
        # A persistent session (clean_session False) with QoS 1 subscriptions: what phones publish while
        # the referee's own connection is down is queued by the broker and delivered on its reconnection.
        client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=address.user, clean_session=False,
                             transport=address.transport)
        client.username_pw_set(address.user, address.password)
        if address.tls:
            client.tls_set()
        client.will_set(self.topics.status, OFFLINE, qos=1, retain=True)
        client.reconnect_delay_set(min_delay=1, max_delay=4)
        client.on_connect = self._on_connect
        client.on_disconnect = self._on_disconnect
        client.on_message = self._on_message
        return client

    # -- the Output side (main loop thread) ---------------------------------------------------------------

    def _audiences(self) -> dict[str, str]:
        """topic -> audience of every retained view."""
        out = {self.topics.public: PUBLIC, self.topics.view(self.game.host.user): HOST_VIEW}
        for pid, cred in self.game.players.items():
            out[self.topics.view(cred.user)] = f"player:{pid}"
        return out

    def _host_extra(self) -> dict[str, Any]:
        """What the host's view carries besides the referee's: the phones' seats and the kiosk's lock
        (its mode only: never a PIN)."""
        extra: dict[str, Any] = {}
        if self.phone_seats is not None:
            extra["phone_seats"] = self.phone_seats()
        if self.kiosk_lock is not None:
            extra["kiosk_lock"] = {"mode": self.kiosk_lock()}
        return extra

    def _view(self, views: Views, audience: str) -> bytes:
        extra = self._host_extra() if audience == HOST_VIEW else {}
        if extra:  # the shared view is copied, not changed
            return views.json_with(audience, extra)
        return views.json(audience)

    def changed(self, views: Views, outcomes: list[Outcome]) -> None:
        number = views.public.get("number")
        to_broker = None
        if isinstance(number, int) and number != self.game.game and self.new_game is not None:
            to_broker = self._next_game(views, number)
        audiences = self._audiences()
        # The public view first, sent before the seats' views are made: it is what the spectators (most
        # phones) read, and the seats' views take the most time to make (docs/performance.md).
        public = {self.topics.public: self._view(views, audiences.pop(self.topics.public))}
        sent = self._publish(public).get(self.topics.public)
        self._publish({topic: self._view(views, audience) for topic, audience in audiences.items()})
        with self._lock:
            self._namer = Namer.of(views.public)
            self._publish_events(views.with_lines(PUBLIC))
        if to_broker is not None:  # the last game's phones first hear of the new one, then are dropped
            if sent is not None and self.connected.is_set():
                with contextlib.suppress(RuntimeError, ValueError):
                    sent.wait_for_publish(NEW_GAME_WAIT_S)
            to_broker()

    def _publish(self, payloads: dict[str, bytes]) -> dict[str, mqtt.MQTTMessageInfo]:
        """Publish (retained, QoS 1) each view whose bytes differ from the last sent on its topic."""
        sent = {}
        with self._lock:
            for topic, payload in payloads.items():
                if len(payload) > VIEW_MAX_BYTES:  # the broker would drop the referee's connection for it
                    logger.error("a view of %d bytes is over the %d-byte limit; not sent", len(payload), VIEW_MAX_BYTES)
                    continue
                if self._retained.get(topic) != payload:
                    self._retained[topic] = payload
                    sent[topic] = self._client.publish(topic, payload, qos=1, retain=True)
        return sent

    def _next_game(self, views: Views, number: int) -> Callable[[], None]:
        """The table started another game: its seats, and the last game's seat views cleared from the
        broker's retained messages (once the broker drops the last game's users nobody can read them:
        this leaves nothing of the last game behind). Returns what hands the new seats to the broker."""
        old = [topic for topic in self._audiences() if topic != self.topics.public]
        assert self.new_game is not None
        self.game, to_broker = self.new_game(number, [p["id"] for p in views.public["players"]])
        with self._lock:
            for topic in old:
                self._retained.pop(topic, None)
                self._client.publish(topic, b"", qos=1, retain=True)  # an empty retained message clears it
            self._announced = 0  # the new game's announcements count from its own first one
        return to_broker

    def subscribe(self, topic: str, handler: Callable[[bytes], None]) -> None:
        """Read `topic` too, now and after every reconnection (`subscriptions`). Subscribed at once
        whatever `connected` says: set only at the end of `_connected`, it is still clear while paho's
        thread subscribes on connecting, and a topic added in between was in neither subscription (the
        hall's seating then never reached a table). Not connected, paho refuses it and `_connected`
        subscribes it; twice is harmless (a retained message comes again, a seating applies once)."""
        self.subscriptions[topic] = handler
        self._client.subscribe(topic, 1)

    def publish_retained(self, topic: str, payload: bytes) -> None:
        """Publish another output's retained message (the hall's about and results) on this connection,
        and again on every reconnection with the views (a restarted broker keeps nothing)."""
        with self._lock:
            self._retained[topic] = payload
            self._client.publish(topic, payload, qos=1, retain=True)

    def seats_changed(self) -> None:
        """A seat was taken or freed, or the kiosk's lock changed (any thread): republish the host's view
        with the new `phone_seats` and `kiosk_lock`. The referee is not asked (it belongs to the main
        loop): the view kept for republishing is edited."""
        extra = self._host_extra()
        if not extra:
            return
        topic = self.topics.view(self.game.host.user)
        with self._lock:
            kept = self._retained.get(topic)
            if kept is None:
                return
            payload = encode({**json.loads(kept), **extra})
            if payload != kept:
                self._retained[topic] = payload
                self._client.publish(topic, payload, qos=1, retain=True)

    def _publish_events(self, public: dict[str, Any]) -> None:
        announced: int = public["announced"]
        fresh = announced - self._announced
        if fresh <= 0:
            return
        shown = public["announcements"][-fresh:]
        first = announced - len(shown) + 1
        for n, item in enumerate(shown, start=first):
            self._client.publish(self.topics.events, encode({"n": n, **item}), qos=1)
        self._announced = announced

    # -- connection (paho's thread) -----------------------------------------------------------------------

    def start(self) -> None:
        """Take the first views (call on the main loop's thread, before it runs) and connect."""
        views = self.table.views
        with self._lock:
            self._retained = {topic: self._view(views, audience) for topic, audience in self._audiences().items()}
            self._announced = views.public["announced"]
            self._namer = Namer.of(views.public)
        self._running = True
        self.table.turn_hooks.append(self.keep_alive)
        self._connect()

    def _connect(self) -> None:
        self._set_status("searching")
        self._client.connect_async(self.host, self.port, keepalive=KEEPALIVE_S)
        self._client.loop_start()

    def _on_connect(self, client: mqtt.Client, userdata: Any, flags: Any, rc: Any, props: Any = None) -> None:
        try:
            self._connected(client, rc)
        except Exception as err:  # paho's thread must not end
            logger.error("the mirror failed on connecting: %s", failure(err))

    def _connected(self, client: mqtt.Client, rc: Any) -> None:
        if rc.is_failure:
            logger.error("the MQTT broker refused the referee: %s", rc)
            self._set_status("error", str(rc))
            return
        client.subscribe([(self.topics.all_commands, 1), (SYS_CONNECTED, 0),
                          *((topic, 1) for topic in self.subscriptions)])
        with self._lock:
            client.publish(self.topics.status, self._online(), qos=1, retain=True)
            for topic, payload in self._retained.items():
                client.publish(topic, payload, qos=1, retain=True)
            self.connections += 1
        self.connected.set()
        self._set_status("ok")

    def _on_disconnect(self, client: mqtt.Client, userdata: Any, flags: Any, rc: Any, props: Any = None) -> None:
        self.connected.clear()
        try:
            self._set_status("searching", str(rc))
        except Exception as err:  # paho's thread must not end
            logger.error("the mirror failed on a disconnection: %s", failure(err))

    def _online(self) -> str:
        """`headless` while the table runs without its screen (`companion run` puts that on the board)."""
        board = self.status.snapshot() if self.status is not None else []
        return HEADLESS if any(s.kind == "screen" and s.state == "missing" for s in board) else ONLINE

    def _set_status(self, state: str, detail: str = "") -> None:
        if self.status is not None:
            self.status.set(DeviceStatus("broker", self.broker_name, state,
                                         detail=detail or f"{self.host}:{self.port}"))
            if self.counted_phones is not None:
                self.phones_changed(self.counted_phones())

    def phones_changed(self, count: int | None) -> None:
        if self.status is not None:
            self.status.set(DeviceStatus("phones", "phones", "ok" if count else "off", count=count))

    # -- liveness (the table's loop) ----------------------------------------------------------------------

    def alive(self) -> bool:
        """Whether the network thread runs (paho's `loop_start` thread; it ends only on `disconnect`, or
        when something kills it)."""
        thread = self._client._thread  # paho's handle on that thread: None once it has ended
        return thread is not None and thread.is_alive()

    def keep_alive(self) -> None:
        """A turn hook of the table's loop: at most once a second (by the table's clock), look at the
        network thread. Dead: show it and close its connection; still dead at the next look: start a
        new client."""
        now = self.table.clock.now_ms() / 1000
        if not self._running or now - self._checked < CHECK_EVERY_S:
            return
        self._checked = now
        if self.alive():
            self._dead_seen = False
            return
        if not self._dead_seen:
            self._dead_seen = True
            logger.error("the mirror's MQTT thread stopped; it is restarted in %.0f s", CHECK_EVERY_S)
            self.connected.clear()
            with contextlib.suppress(Exception):  # the broker then publishes our will: `offline`
                sock = self._client.socket()
                if sock is not None:
                    sock.close()
            self._set_status("error", THREAD_STOPPED)
            return
        self._dead_seen = False
        self.restarts += 1
        logger.warning("the mirror starts a new MQTT client (restart %d)", self.restarts)
        with self._lock:
            self._client = self._new_client()
        self._connect()

    # -- commands (paho's thread) -------------------------------------------------------------------------

    def _on_message(self, client: mqtt.Client, userdata: Any, msg: mqtt.MQTTMessage) -> None:
        """paho's callback for every message: nothing may escape it (it would end paho's thread), and
        nothing of the payload is logged."""
        try:
            self._receive(msg.topic, bytes(msg.payload))
        except Exception as err:
            logger.error("the mirror failed on a message of %d bytes: %s", len(msg.payload), failure(err))

    def _receive(self, topic: str, payload: bytes) -> None:
        if topic == SYS_CONNECTED:  # Mosquitto counts every client, the referee included
            with contextlib.suppress(ValueError):
                self.phones_changed(max(0, int(payload) - 1))
            return
        handler = self.subscriptions.get(topic)
        if handler is not None:
            handler(payload)
            return
        user = self.topics.user_of_cmd(topic)
        game = self.credentials() if self.credentials is not None else self.game
        seat = game.seat_of(user) if user is not None else None
        if user is None:
            return
        if seat is None:  # another game's or table's seat: the ACL keeps its phone out
            old = parse_user(user)
            if old is not None and old.kind == "join" and (old.table, old.game) == (game.table, game.game):
                self._command(user, old, payload)  # a released seat's old code, still connected: refused
            return
        self._command(user, seat, payload)

    def _command(self, user: str, seat: Seat, payload: bytes) -> None:
        """One command from `user`'s seat: rate, then the door (`intake`), then the table's inbox."""
        limit = self._limits.setdefault(user, intake.RateLimit())
        now = self.clock()
        if not limit.allow(now):
            if limit.should_warn(now):
                reason = Rejected("reject.too_many_commands")
                self._reply(user, intake.command_id(payload), Outcome(accepted=False, reason=reason))
            self._count("dropped")
            return
        cid = intake.command_id(payload)
        seated = self.seating(user, seat, payload) if self.seating is not None else None
        if seated is None:  # the kiosk's host PIN from the host's page: never the game's referee either
            seated = host_pin.command(seat, payload, self.set_host_pin)
        if seated is not None:  # a claim of a seat, or the host releasing one: never the game's referee
            self._reply(user, cid, seated)
            self._count("queued" if seated.accepted else "refused")
            return
        if seat.actor is None:
            raw: Any = Rejected("reject.spectator_cannot_act")
        else:
            raw = intake.decode(payload, seat.actor)
        self.table.put(raw, lambda outcome: self._reply(user, cid, outcome))
        self._count("refused" if isinstance(raw, Rejected) else "queued")

    def _count(self, what: str) -> None:
        with self._counted:
            self.counts[what] += 1
            self.counts["received"] += 1
            self._counted.notify_all()

    def wait_received(self, total: int, timeout: float) -> bool:
        """Wait until `total` commands have reached the mirror (queued, refused or dropped)."""
        with self._counted:
            return self._counted.wait_for(lambda: self.counts["received"] >= total, timeout)

    def _reply(self, user: str, cid: str | None, outcome: Outcome) -> None:
        """The reply to a command, its reason's ids in words (companion/naming.py)."""
        namer = self._namer  # one attribute read: the table's thread sets it, any thread replies
        if outcome.reason is not None and namer is not None:
            outcome = dataclasses.replace(outcome, reason=namer.reason(outcome.reason))
        self._client.publish(self.topics.reply(user), intake.reply(cid, outcome), qos=1)

    # -- stop ---------------------------------------------------------------------------------------------

    def say_offline(self) -> None:
        """Publish `offline` (retained) and wait until the broker has it."""
        if self.connected.is_set():
            info = self._client.publish(self.topics.status, OFFLINE, qos=1, retain=True)
            with contextlib.suppress(RuntimeError, ValueError):
                info.wait_for_publish(2.0)

    def disconnect(self) -> None:
        self._running = False
        with contextlib.suppress(ValueError):
            self.table.turn_hooks.remove(self.keep_alive)
        self._client.disconnect()
        self._client.loop_stop()

    def stop(self) -> None:
        """Say `offline` and disconnect."""
        self.say_offline()
        self.disconnect()
