"""The MQTT mirror: an `Output` that publishes the views, and the intake of phones' commands.

The main loop calls `changed` after every accepted input: the mirror builds the public view and each
seat's view, and publishes (retained, QoS 1) only those whose JSON changed, then the new public
announcements on the events topic. On every (re)connection to the broker it republishes `online` and
every retained view, so a restarted broker or a phone that rejoins gets the current state back.

Commands arrive on paho's network thread. There the mirror only works out the seat from the topic,
checks rate, size and schema (`intake`), and queues the raw input with `Table.put`; the main loop runs
it and the reply callback publishes the outcome on the sender's reply topic. Retries carry the same id
and the referee applies them once.
"""

from __future__ import annotations

import contextlib
import json
import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

import paho.mqtt.client as mqtt

from companion import summaries
from companion.core.referee import HOST_VIEW, PUBLIC, Outcome, Referee
from companion.core.rejection import Rejected
from companion.phones import intake
from companion.phones.credentials import GameCredentials
from companion.phones.topics import HEADLESS, OFFLINE, ONLINE, REFEREE_USER, VIEW_MAX_BYTES, Topics
from companion.service import Table
from companion.status import DeviceStatus, StatusBoard

logger = logging.getLogger(__name__)
SYS_CONNECTED = "$SYS/broker/clients/connected"
KEEPALIVE_S = 10


@dataclass(frozen=True)
class BrokerAddress:
    """Where and as whom the referee connects."""

    host: str
    port: int
    user: str = REFEREE_USER
    password: str = field(default="", repr=False)
    transport: Literal["tcp", "websockets"] = "tcp"
    tls: bool = False


def _json(obj: Any) -> bytes:
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"), sort_keys=True).encode("utf-8")


def with_lines(view: dict[str, Any], public: dict[str, Any]) -> dict[str, Any]:
    """A view plus what it says as message-id lines (`companion.summaries`, docs/phones.md).

    `table_lines` (every view) are built from the PUBLIC view only; a seat's `lines` from that seat's own
    `private` part only, never from another view (secrets stay secret). A game without a summary (the
    toolkit, whose parts the page draws one by one) gets neither key.
    """
    game = str(public.get("game"))
    out = dict(view)
    if game in summaries.PUBLIC:
        out["table_lines"] = summaries.as_json(summaries.public_lines(game, public))
    if "private" in view and game in summaries.PRIVATE and game not in summaries.PAGE_DRAWS_PRIVATE:
        out["lines"] = summaries.as_json(summaries.private_lines(game, view["private"]))
    return out


class Mirror:
    """One game's views and commands over one broker connection (host, port, the referee's login)."""

    def __init__(self, table: Table, topics: Topics, game: GameCredentials, address: BrokerAddress,
                 status: StatusBoard | None = None, broker_name: str = "external",
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.table, self.topics, self.game = table, topics, game
        self.host, self.port = address.host, address.port
        self.status, self.broker_name, self.clock = status, broker_name, clock
        self._lock = threading.Lock()
        self._retained: dict[str, bytes] = {}
        self._announced = 0
        self._limits: dict[str, intake.RateLimit] = {}
        self.counts: dict[str, int] = {"received": 0, "queued": 0, "refused": 0, "dropped": 0}
        self._counted = threading.Condition()
        self.connected = threading.Event()
        self.connections = 0  # how many times the mirror (re)connected; tests wait on it
        self.counted_phones: Callable[[], int | None] | None = None  # set by a broker that can count
        self._client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=address.user, clean_session=True,
                                   transport=address.transport)
        self._client.username_pw_set(address.user, address.password)
        if address.tls:
            self._client.tls_set()
        self._client.will_set(topics.status, OFFLINE, qos=1, retain=True)
        self._client.reconnect_delay_set(min_delay=1, max_delay=4)
        self._client.on_connect = self._on_connect
        self._client.on_disconnect = self._on_disconnect
        self._client.on_message = self._on_message

    # -- the Output side (main loop thread) ---------------------------------------------------------------

    def _audiences(self) -> dict[str, str]:
        """topic -> audience of every retained view."""
        out = {self.topics.public: PUBLIC, self.topics.view(self.game.host.user): HOST_VIEW}
        for pid, cred in self.game.players.items():
            out[self.topics.view(cred.user)] = f"player:{pid}"
        return out

    def changed(self, referee: Referee, outcomes: list[Outcome]) -> None:
        public = referee.view(PUBLIC)
        views = {topic: _json(with_lines(referee.view(audience), public))
                 for topic, audience in self._audiences().items()}
        with self._lock:
            for topic, payload in views.items():
                if len(payload) > VIEW_MAX_BYTES:  # the broker would drop the referee's connection for it
                    logger.error("a view of %d bytes is over the %d-byte limit; not sent", len(payload), VIEW_MAX_BYTES)
                    continue
                if self._retained.get(topic) != payload:
                    self._retained[topic] = payload
                    self._client.publish(topic, payload, qos=1, retain=True)
            self._publish_events(public)

    def _publish_events(self, public: dict[str, Any]) -> None:
        announced: int = public["announced"]
        fresh = announced - self._announced
        if fresh <= 0:
            return
        shown = public["announcements"][-fresh:]
        first = announced - len(shown) + 1
        for n, item in enumerate(shown, start=first):
            self._client.publish(self.topics.events, _json({"n": n, **item}), qos=1)
        self._announced = announced

    # -- connection (paho's thread) -----------------------------------------------------------------------

    def start(self, referee: Referee) -> None:
        """Build the first views (call on the main loop's thread, before it runs) and connect."""
        with self._lock:
            public = referee.view(PUBLIC)
            self._retained = {topic: _json(with_lines(referee.view(audience), public))
                              for topic, audience in self._audiences().items()}
            self._announced = public["announced"]
        self._set_status("searching")
        self._client.connect_async(self.host, self.port, keepalive=KEEPALIVE_S)
        self._client.loop_start()

    def _on_connect(self, client: mqtt.Client, userdata: Any, flags: Any, rc: Any, props: Any = None) -> None:
        if rc.is_failure:
            logger.error("the MQTT broker refused the referee: %s", rc)
            self._set_status("error", str(rc))
            return
        client.subscribe([(self.topics.all_commands, 1), (SYS_CONNECTED, 0)])
        with self._lock:
            client.publish(self.topics.status, self._online(), qos=1, retain=True)
            for topic, payload in self._retained.items():
                client.publish(topic, payload, qos=1, retain=True)
            self.connections += 1
        self.connected.set()
        self._set_status("ok")

    def _on_disconnect(self, client: mqtt.Client, userdata: Any, flags: Any, rc: Any, props: Any = None) -> None:
        self.connected.clear()
        self._set_status("searching", str(rc))

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

    # -- commands (paho's thread) -------------------------------------------------------------------------

    def _on_message(self, client: mqtt.Client, userdata: Any, msg: mqtt.MQTTMessage) -> None:
        if msg.topic == SYS_CONNECTED:  # Mosquitto counts every client, the referee included
            with contextlib.suppress(ValueError):
                self.phones_changed(max(0, int(msg.payload) - 1))
            return
        user = self.topics.user_of_cmd(msg.topic)
        seat = self.game.seat_of(user) if user is not None else None
        if user is None or seat is None:  # another game's or table's seat: the ACL keeps its phone out
            return
        limit = self._limits.setdefault(user, intake.RateLimit())
        now = self.clock()
        payload = bytes(msg.payload)
        cid = intake.command_id(payload)
        if not limit.allow(now):
            if limit.should_warn(now):
                self._reply(user, cid, Outcome(accepted=False, reason=Rejected("reject.too_many_commands")))
            self._count("dropped")
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
        self._client.publish(self.topics.reply(user), _json({"id": cid, **outcome.to_json()}), qos=1)

    # -- stop ---------------------------------------------------------------------------------------------

    def say_offline(self) -> None:
        """Publish `offline` (retained) and wait until the broker has it."""
        if self.connected.is_set():
            info = self._client.publish(self.topics.status, OFFLINE, qos=1, retain=True)
            with contextlib.suppress(RuntimeError, ValueError):
                info.wait_for_publish(2.0)

    def disconnect(self) -> None:
        self._client.disconnect()
        self._client.loop_stop()

    def stop(self) -> None:
        """Say `offline` and disconnect."""
        self.say_offline()
        self.disconnect()
