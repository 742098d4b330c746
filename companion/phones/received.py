"""The embedded broker's way with a client's message: routed in place, no task, no future (issue 20).

amqtt 0.12.1 handles each PUBLISH it receives through its session machinery: an
`IncomingApplicationMessage`, a future per message, `_handle_message_delivery` (two plugin events,
per-message debug formatting), `_broadcast_message` and `retain_message` (a third event), each an
awaited coroutine that never has anything to wait for (docs/perf/broker.md, round 5b: about
180-200 µs of CPU a message). `RoutingBroker.take_publish` does the same work in one plain call from
the connection's reader (`seat_handler.SeatHandler`):

- the topic checks amqtt makes first: an empty topic, a `+` or `#` (a topic name is never a filter,
  [MQTT-3.3.2-2]) or a leading `$` ([MQTT-4.7.2-1]) is not taken here, so it goes to amqtt's queue,
  whose loop closes the connection as before;
- the ACL (`_may_publish`, the check of every way into a topic): a message the user may not publish is
  dropped, as amqtt drops it;
- the broadcast (`_route`): amqtt's deliveries, each through the ACL, written by each connection's
  `delivery.Outbox`;
- a retained message stored in amqtt's own table as amqtt stores it (a `RetainedApplicationMessage`;
  an empty one clears the topic [MQTT-3.3.1-10]), so a new subscriber's retained delivery, and its ACL
  (`SeatBroker._publish_retained_messages_for_subscription`), work as before.

Only work that does nothing for us is skipped: plugin events no plugin listens to. If a plugin listens
to a message event, `take_publish` takes nothing and amqtt's own way runs (`quiet`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from typing import Any

from amqtt.broker import Broker, RetainedApplicationMessage
from amqtt.contexts import Action
from amqtt.events import BrokerEvents
from amqtt.mqtt.constants import QOS_1, QOS_2
from amqtt.session import Session

from companion.phones.delivery import Broadcast

logger = logging.getLogger(__name__)
# the events amqtt fires for a message it receives; with a listener to any, amqtt's own way runs
MESSAGE_EVENTS = (BrokerEvents.MESSAGE_RECEIVED, BrokerEvents.MESSAGE_BROADCAST, BrokerEvents.RETAINED_MESSAGE)


class RoutingBroker(Broker):
    """amqtt's broker with a client's message and every broadcast routed in place."""

    def _allowed(self, user: str | None, topic: str | None, action: Action) -> bool:
        raise NotImplementedError  # the ACL: `SeatBroker`

    def _may_publish(self, user: str | None, topic: str | None) -> bool:
        """The one check of every way into a topic: a PUBLISH (any QoS, retained or not) and a will."""
        return self._allowed(user, topic, Action.PUBLISH)

    def _listened(self, *events: BrokerEvents) -> bool:
        """Whether a plugin listens to any of `events` (amqtt fires an event only to its listeners)."""
        callbacks = getattr(self.plugins_manager, "_event_plugin_callbacks", None)  # amqtt's, pinned
        return callbacks is None or not callbacks.keys().isdisjoint(events)

    def takes(self, topic: str) -> bool:
        """Whether `take_publish` takes a message on `topic` (not one amqtt refuses by closing the
        connection, and no plugin listening to a message event)."""
        return (bool(topic) and "#" not in topic and "+" not in topic and not topic.startswith("$")
                and not self._listened(*MESSAGE_EVENTS))

    def take_publish(self, session: Session, topic: str, data: bytes, qos: int, retain: bool) -> bool:
        """amqtt's `_handle_message_delivery` for a QoS 0/1 message, in place; False where it takes
        nothing (a topic amqtt refuses by closing the connection, or a plugin listening): amqtt's way."""
        if not self.takes(topic):
            return False
        if not self._may_publish(session.username, topic):
            logger.info("%s may not publish to %s: dropped", session.client_id, topic)
            return True
        self._route(session, topic, data, None, self._tasks_queue)
        if retain:
            self._keep(session, topic, data, qos)
        return True

    def _keep(self, session: Session | None, topic: str, data: bytes, qos: int | None) -> None:
        """amqtt's `retain_message` (no plugin listens to its event): kept, or cleared by an empty one."""
        if data:
            self._retained_messages[topic] = RetainedApplicationMessage(session, topic, data, qos)
        elif (cleared := self._retained_messages.pop(topic, None)) is not None:
            cleared.data = b""

    def _route(self, session: Session | None, topic: str, data: bytes | bytearray, force_qos: int | None,
               running_tasks: deque[asyncio.Task[Any]]) -> None:
        """amqtt 0.12.1's delivery of one broadcast message, encoded once and written directly.

        The same deliveries as amqtt's own (pinned): every subscription whose filter matches, each
        through the ACL (cached, `_allowed`), a disconnected persistent session's QoS 1/2 message kept
        for it, a connected one's sent: by its connection's `delivery.Outbox` (no task, no future; the
        QoS 1 message in the session's inflight table as amqtt keeps it), or where that cannot serve (a
        QoS 2 delivery, a WebSocket with an extension) by amqtt's `mqtt_publish` in a task of its own.
        No write waits, so this runs in place. The tables are copied first, so a SUBSCRIBE arriving
        meanwhile cannot abort the loop.
        """
        while running_tasks and running_tasks[0].done():  # amqtt's loop did this before each broadcast
            with contextlib.suppress(BaseException):  # a failed delivery must not stop the broker
                running_tasks.popleft().result()
        message = Broadcast(topic, data)
        for k_filter, subscriptions in list(self._subscriptions.items()):
            if not self._matches(topic, k_filter):
                continue
            for target_session, sub_qos in list(subscriptions):
                qos = sub_qos if force_qos is None else force_qos
                if not self._allowed(target_session.username, topic, Action.RECEIVE):
                    continue
                if target_session.transitions.state != "connected":
                    if not target_session.clean_session and qos in (QOS_1, QOS_2) and not target_session.is_anonymous:
                        self._keep_for(target_session, session, topic, data, qos, running_tasks)
                    continue
                handler = self._get_handler(target_session)
                if handler is None:
                    continue
                outbox = getattr(handler, "outbox", None)
                if outbox is None or not outbox.deliver(target_session, message, qos):
                    running_tasks.append(asyncio.ensure_future(handler.mqtt_publish(topic, data, qos, retain=False)))

    def _keep_for(self, target: Session, session: Session | None, topic: str, data: bytes | bytearray, qos: int,
                  running_tasks: deque[asyncio.Task[Any]]) -> None:
        """amqtt's `_retain_broadcast_message`: the message kept for a disconnected persistent session."""
        kept = RetainedApplicationMessage(session, topic, data, qos)
        target.retained_messages.put_nowait(kept)  # amqtt's queue has no bound: `put` never waits
        if self._listened(BrokerEvents.RETAINED_MESSAGE):
            running_tasks.append(asyncio.ensure_future(self.plugins_manager.fire_event(
                BrokerEvents.RETAINED_MESSAGE, client_id=target.client_id, retained_message=kept)))
