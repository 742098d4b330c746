"""The hall's MQTT client: every table's `out` topics on the central broker, into the model and the store.

One paho client with a fixed client id and a persistent session (clean_session false), subscribed at
QoS 1 to `{prefix}/v1/+/<each out topic>`: results published while the hall's client was away wait for
it on the broker and arrive when it is back; a result the hall already has (each bridge brings the
retained ones again) is a duplicate the store ignores. Each message is checked for what its topic
carries, its table read from the topic only (a payload naming another table is refused, and the ACL
already stops a table writing another's topics); a bad one is logged with what is wrong and changes
nothing. No exception leaves a callback, so nothing stops the client's thread.
"""

from __future__ import annotations

import logging
import re
import threading
from collections.abc import Callable
from typing import Any, Protocol

import paho.mqtt.client as mqtt

from companion.hall import protocol
from companion.hall.central import BrokerAddress
from companion.hall.limits import TableLimits
from companion.hall.model import HallModel
from companion.hall.protocol import BadPayload

logger = logging.getLogger(__name__)
KEEPALIVE_S = 10


class ResultStore(Protocol):
    def add_result(self, result: dict[str, Any]) -> bool: ...
    def result_keys(self) -> set[tuple[str, str]]: ...


def subscriptions(prefix: str) -> list[tuple[str, int]]:
    return [(f"{prefix}/v{protocol.VERSION}/+/{name}", 1) for name in protocol.OUT]


def topic_pattern(prefix: str) -> re.Pattern[str]:
    kinds = "|".join(re.escape(n).replace(r"\+", "[0-9]{1,15}") for n in protocol.OUT)
    return re.compile(rf"^{re.escape(prefix)}/v{protocol.VERSION}/([^/]+)/({kinds})$")


OnResult = Callable[[dict[str, Any], bool], None]
Check = Callable[[dict[str, Any]], None]  # raises BadPayload (companion/hall/checks.py)


class Watcher:
    """Feeds `model` and `store` from the central broker at `address` (through a `Router`)."""

    def __init__(self, address: BrokerAddress, prefix: str, model: HallModel, store: ResultStore, *,
                 accept: Callable[[str], bool] = lambda _: True, on_result: OnResult = lambda result, new: None,
                 check: Check = lambda result: None, limits: TableLimits | None = None,
                 on_flood: Callable[[str], None] = lambda table: None, client_id: str = protocol.HALL_USER) -> None:
        self.address, self.prefix = address, prefix
        self.router = Router(prefix, model, store, accept=accept, on_result=on_result, check=check, limits=limits,
                             on_flood=on_flood)
        self.connected = threading.Event()
        self.client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=client_id, clean_session=False)
        self.client.username_pw_set(address.user, address.password)
        self.client.on_connect = self._connected
        self.client.on_disconnect = lambda *_: self.connected.clear()
        self.client.on_message = self._message
        self.client.reconnect_delay_set(1, 5)

    def start(self) -> None:
        self.client.connect_async(self.address.host, self.address.port, keepalive=KEEPALIVE_S)
        self.client.loop_start()

    def stop(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()

    def publish(self, topic: str, payload: bytes, retain: bool = True) -> mqtt.MQTTMessageInfo:
        return self.client.publish(topic, payload, qos=1, retain=retain)

    # -- paho's thread ------------------------------------------------------------------------------------

    def _connected(self, client: mqtt.Client, userdata: Any, flags: Any, rc: Any, props: Any = None) -> None:
        if rc.is_failure:
            logger.error("the central broker refused the hall: %s", rc)
            return
        client.subscribe(subscriptions(self.prefix))
        self.connected.set()

    def _message(self, client: mqtt.Client, userdata: Any, msg: mqtt.MQTTMessage) -> None:
        try:
            self.router.handle(msg.topic, bytes(msg.payload))
        except Exception:  # a bug here must not stop the client's thread: logged, and the next message served
            self.router.refused += 1
            logger.exception("the hall could not handle a message on %.120r", msg.topic)


class Router:
    """Turns one message into a change of `model` or `store`: `accept(table_id)` says whether a table is
    one of the hall's (the organiser added it), `on_result(result, new)` runs after each result (`new`:
    it was not in the league yet; a copy sent again after a table's restart is not new), `check(result)`
    holds it against the game's rules before it is kept. A table over its `limits` is not read (its
    messages are dropped, counted in `dropped` and said in the log every few seconds). Raises nothing for
    a bad message: it is logged, counted in `refused`, and changes nothing."""

    def __init__(self, prefix: str, model: HallModel, store: ResultStore, *,
                 accept: Callable[[str], bool] = lambda _: True,
                 on_result: OnResult = lambda result, new: None, check: Check = lambda result: None,
                 limits: TableLimits | None = None, on_flood: Callable[[str], None] = lambda table: None) -> None:
        self.model, self.store = model, store
        self._accept, self._on_result, self._check, self._on_flood = accept, on_result, check, on_flood
        self.limits = limits or TableLimits()
        self._topic = topic_pattern(prefix)
        self._known: set[tuple[str, str]] | None = None  # (table, key) of the results kept: read once
        self.refused = 0  # messages logged and dropped (tests and the bench read it)
        self.dropped = 0  # of those, dropped unread: their table sent too fast

    def handle(self, topic: str, payload: bytes) -> None:
        found = self._topic.match(topic)
        table = found.group(1) if found else ""
        if found is None or not protocol.TABLE_ID.match(table) or not self._accept(table):
            self.refused += 1
            logger.warning("the hall ignores %.120r: not a topic of one of its tables", topic)
            return
        kind = found.group(2)
        if not self.limits.allow(table, kind.startswith("results/")):
            self.refused += 1
            self.dropped += 1
            dropped = self.limits.report(table)
            if dropped:
                logger.warning("table %s sends faster than a table plays: %d of its messages dropped unread",
                               table, dropped)
            if self.limits.flooding(table):
                self._on_flood(table)  # the hall mutes it (quickly: paho's thread)
            return
        try:
            self._apply(table, kind, payload)
        except BadPayload as err:
            self.refused += 1
            logger.warning("table %s sent a bad %s (%d bytes): %s; nothing changed",
                           table, kind.split("/")[0], len(payload), err)

    def _apply(self, table: str, kind: str, payload: bytes) -> None:
        if kind == "status":
            self.model.on_status(table, payload)
        elif kind == "bridge":
            self.model.on_bridge(table, payload)
        elif kind == "about":
            self.model.on_about(table, protocol.parse_about(payload))
        elif kind == "public":
            self.model.on_public(table, payload)
        elif kind == "events":
            self.model.on_event(table, payload)
        elif kind == "seated":
            answer = protocol.parse_seated(payload)
            self.model.on_seated(table, answer)
            if answer["state"] == "refused":
                logger.warning("table %s refused round %d's seating: %s", table, answer["round"],
                               (answer["reason"] or {}).get("code", "?"))
        else:  # results/{number}
            result = protocol.parse_result(payload, table)
            if str(result["number"]) != kind.split("/")[1]:
                raise BadPayload("result: its number is not the topic's")
            self._check(result)
            if self._known is None:
                self._known = self.store.result_keys()
            place = (table, result["key"])
            if place in self._known:  # a copy (a reconnection brings them all again): no write
                new = False
            elif not self.limits.allow_new(table):
                self.refused += 1
                self.dropped += 1
                if self.limits.flooding(table):
                    self._on_flood(table)
                return
            else:
                new = self.store.add_result(result)
                self._known.add(place)
            logger.info("table %s: game %d's result %s", table, result["number"],
                        "is in the league" if new else "again, already counted")
            self._on_result(result, new)
