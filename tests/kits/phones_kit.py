"""Shared helpers for the phone mirror tests: a running table with a real broker, and test phones.

`running_table` starts a toolkit game on a real SQLite file, a real broker (a managed Mosquitto
process) and the mirror, and runs the table's main loop on a thread. `Phone` is a paho
client that records everything it receives; tests wait on its queue with timeouts, never sleep.
"""

from __future__ import annotations

import contextlib
import json
import queue
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt

from companion.core.contract import Player, Setup
from companion.core.eventlog import EventLog
from companion.core.referee import Referee
from companion.games import registry
from companion.phones.credentials import Credential
from companion.phones.runner import Phones, start_phones
from companion.status import StatusBoard
from companion.table.loop import Table
from companion.table.views import with_lines

BROKERS = ["mosquitto"]  # the brokers the suite runs against: Mosquitto is the one broker (issue 32)
PLAYERS = ["ana", "ben", "chai", "dao"]
WAIT_S = 10.0


@dataclass
class Running:
    table: Table
    phones: Phones
    status: StatusBoard
    thread: threading.Thread

    @property
    def referee(self) -> Referee:
        return self.table.referee

    def events(self) -> int:
        """How many inputs the SQLite file holds for this game (read back from the file)."""
        return len(self.referee.log.events(self.referee.game_id))

    def cred(self, who: str) -> Credential:
        return self.phones.game.host if who == "host" else self.phones.game.players[who]


@contextlib.contextmanager
def running_table(tmp_path: Path, broker: str = "mosquitto", players: list[str] = PLAYERS,
                  **options: Any) -> Iterator[Running]:
    setup = Setup("toolkit", tuple(Player(p, p.title()) for p in players), {}, seed=7)
    referee = Referee.start(registry(), EventLog(tmp_path / "game.sqlite3"), setup, created_at=0)
    with serving(referee, tmp_path, broker, **options) as run:
        yield run


@contextlib.contextmanager
def serving(referee: Referee, tmp_path: Path, broker: str = "mosquitto", clock: Any = None,
            **options: Any) -> Iterator[Running]:
    """`referee`'s table with phones on a real broker, the state directory `tmp_path`, the loop on a thread
    (on `clock`, when given: a recorded game's still time)."""
    table = Table(referee) if clock is None else Table(referee, clock=clock)
    status = StatusBoard()
    phones = start_phones(table, broker=broker, status=status, state_dir=tmp_path, **options)
    thread = threading.Thread(target=table.run, name="table", daemon=True)
    thread.start()
    try:
        assert phones.mirror.connected.wait(WAIT_S), "the mirror did not connect"
        yield Running(table, phones, status, thread)
    finally:
        table.stop()
        thread.join(WAIT_S)
        close_phones(phones.address.port)  # while their broker is up: each disconnects at once
        phones.stop()
        referee.log.close()


@dataclass
class Message:
    topic: str
    payload: bytes
    retain: bool

    def json(self) -> Any:
        return json.loads(self.payload)


@dataclass
class Phone:
    """A test MQTT client over TCP (the phone page uses the same broker over WebSockets)."""

    host: str
    port: int
    user: str | None
    password: str | None
    client_id: str | None = None
    clean: bool = True
    inbox: queue.Queue[Message] = field(default_factory=queue.Queue)
    seen: list[Message] = field(default_factory=list)
    acks: queue.Queue[tuple[str, Any]] = field(default_factory=queue.Queue)
    filters: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        _OPEN[id(self)] = self
        self.client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=self.client_id or self.user or "",
                                  clean_session=self.clean)
        if self.user is not None:
            self.client.username_pw_set(self.user, self.password)
        self.client.on_connect = self._connected
        self.client.on_subscribe = lambda c, u, mid, rcs, p=None: self.acks.put((f"suback{mid}", rcs))
        self.client.on_disconnect = lambda c, u, f, rc, p=None: self.acks.put(("disconnect", rc))
        self.client.on_message = self._got

    def _connected(self, client: mqtt.Client, userdata: Any, flags: Any, rc: Any, props: Any = None) -> None:
        if self.filters and not rc.is_failure:  # a phone resubscribes after a reconnection, as mqtt.js does
            client.subscribe([(f, 1) for f in self.filters])
        self.acks.put(("connack", rc))

    def _got(self, client: mqtt.Client, userdata: Any, msg: mqtt.MQTTMessage) -> None:
        m = Message(msg.topic, bytes(msg.payload), bool(msg.retain))
        self.seen.append(m)
        self.inbox.put(m)

    def _ack(self, kind: str) -> Any:
        deadline = time.monotonic() + WAIT_S  # overall: unrelated acks do not extend the wait
        while True:
            got, value = self.acks.get(timeout=max(0.0, deadline - time.monotonic()))
            if got == kind:
                return value
            if kind == "connack" and got == "disconnect":
                return value

    def connect(self, reconnect: bool = False) -> Any:
        """Connect and return the CONNACK reason code (success or a refusal)."""
        self.client.reconnect_delay_set(1, 2)
        self.client.connect_async("127.0.0.1" if self.host in ("0.0.0.0", "") else self.host, self.port, keepalive=5)
        self.client.loop_start()
        rc = self._ack("connack")
        if not reconnect and rc.is_failure:
            self.client.loop_stop()
        return rc

    def subscribe(self, *filters: str) -> list[Any]:
        _, mid = self.client.subscribe([(f, 1) for f in filters])
        self.filters += filters
        return list(self._ack(f"suback{mid}"))

    def publish(self, topic: str, payload: bytes | str, retain: bool = False) -> None:
        self.client.publish(topic, payload, qos=1, retain=retain)

    def wait_for(self, pred: Callable[[Message], bool], timeout: float = WAIT_S) -> Message:
        """The next message that matches, within `timeout` seconds in all (queue.Empty past it): the
        messages that do not match, such as the referee's status every second, never extend the wait."""
        deadline = time.monotonic() + timeout
        while True:
            m = self.inbox.get(timeout=max(0.0, deadline - time.monotonic()))
            if pred(m):
                return m

    def got(self, pred: Callable[[Message], bool], timeout: float = WAIT_S) -> Message:
        """A message already received that matches, or the next one that does."""
        for m in list(self.seen):
            if pred(m):
                return m
        return self.wait_for(pred, timeout)

    def close(self) -> None:
        _OPEN.pop(id(self), None)
        self.client.disconnect()
        self.client.loop_stop()


# Every Phone not closed yet. One left open keeps its network thread and sockets (paho reconnects to
# its broker forever): a few hundred of those across the suite take the process past the 1024 file
# descriptors select() can watch, and then no MQTT client in it can connect.
_OPEN: dict[int, Phone] = {}


def close_phones(port: int | None = None) -> None:
    """Close the phones a test left open (those on broker `port`, or all): `serving` at its end, and
    tests/conftest.py after each test for phones made without it."""
    left = [p for p in _OPEN.values() if port is None or p.port == port]
    for p in left:  # every thread told first, so they wind down together
        _OPEN.pop(id(p), None)
        p.client.disconnect()
    for p in left:
        p.client.loop_stop()


def phone(run: Running, who: str, **kw: Any) -> Phone:
    cred = run.cred(who)
    return Phone(run.phones.address.host, run.phones.address.port, cred.user, cred.password, **kw)


def joined(run: Running, who: str) -> Phone:
    """A connected phone of `who` subscribed to its public and own topics."""
    p = phone(run, who)
    assert not p.connect().is_failure
    user = run.cred(who).user
    t = run.phones.topics
    p.subscribe(t.status, t.public, t.events, t.view(user), t.reply(user))
    return p


def command(p: Phone, run: Running, who: str, cid: str, move: str, **args: Any) -> dict[str, Any]:
    """Send a command from `who`'s phone and wait for its reply."""
    user = run.cred(who).user
    p.publish(run.phones.topics.cmd(user), json.dumps({"id": cid, "move": move, "args": args}))
    return reply(p, run, who, cid)


def reply(p: Phone, run: Running, who: str, cid: str | None) -> dict[str, Any]:
    topic = run.phones.topics.reply(run.cred(who).user)
    got: dict[str, Any] = p.wait_for(lambda m: m.topic == topic and m.json().get("id") == cid).json()
    return got


def as_sent(referee: Referee, audience: str) -> Any:
    """A view as the phones are sent it (with its lines, every id in words: companion/naming.py), as JSON
    reads it back."""
    return json.loads(json.dumps(with_lines(referee.view(audience), referee.view("public"))))
