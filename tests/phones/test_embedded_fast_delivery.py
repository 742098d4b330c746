"""The embedded broker's fast delivery (issue 20, `delivery.Outbox`, `acks.AckSieve`) against hostile phones.

A broadcast is encoded once and written straight to each connection; a QoS 1 delivery waits in the
session's inflight table for its PUBACK. These tests hold it to the guarantees amqtt's own delivery
had, and to the bounds it did not have: a phone that never reads is cut once `MAX_UNSENT_BYTES` wait
for it and the others get every message meanwhile; a phone that never acknowledges holds at most
`MAX_UNACKED` messages; a phone gone mid-delivery costs the others nothing; a persistent session gets
what it had not acknowledged when it comes back; and over TCP and WebSocket alike, each phone gets
what the ACL lets it read and nothing else. Real broker, real clients (paho, and hand-written packets
for what paho will not do).
"""

from __future__ import annotations

import asyncio
import json
import queue
from collections.abc import Iterator
from typing import Any

import pytest
from amqtt.mqtt.constants import QOS_1
from amqtt.session import OutgoingApplicationMessage

from companion.phones.credentials import GameCredentials
from companion.phones.delivery import MAX_UNACKED, MAX_UNSENT_BYTES, REFEREE_UNSENT_BYTES, OutboxMessage, ours
from companion.phones.embedded import EmbeddedBroker
from companion.phones.topics import REFEREE_USER, Topics
from tests.kits.mqtt_wire import (
    ACCEPTED,
    CONNECT,
    PUBLISH,
    SUBACK,
    Wire,
    WsWire,
    connack,
    connect_body,
    packet,
    puback,
    read_packet,
    subscribe,
)
from tests.kits.phones_kit import WAIT_S, Phone, embedded_broker

PREFIX = "companion"
PLAYERS = ["ana", "ben"]
T = Topics(PREFIX, "table1")
PINGREQ, PINGRESP = b"\xc0\x00", 13


@pytest.fixture
def broker() -> Iterator[EmbeddedBroker]:
    with embedded_broker(PREFIX) as b:
        yield b


def game_on(b: EmbeddedBroker) -> GameCredentials:
    game = GameCredentials.issue("table1", 1, PLAYERS, spectators=3)
    b.set_game(game)
    return game


def logged_in(b: EmbeddedBroker, user: str, password: str, clean: bool = True) -> Phone:
    p = Phone("127.0.0.1", b.port, user, password, clean=clean)
    assert not p.connect().is_failure, f"{user} was refused"
    return p


def referee(b: EmbeddedBroker) -> Phone:
    return logged_in(b, REFEREE_USER, "referee-password")


def sent(p: Phone, topic: str, payload: bytes | str) -> None:
    """Publish at QoS 1 and wait for the broker's PUBACK (the broker has read it)."""
    p.client.publish(topic, payload, qos=1).wait_for_publish(WAIT_S)


def raw(b: EmbeddedBroker, user: str, password: str, *, ws: bool = False, clean: bool = True,
        receive_buffer: int | None = None) -> Wire:
    """A hand-driven phone, logged in and subscribed (QoS 1) to the public topic."""
    wire: Wire = WsWire("127.0.0.1", b.ws_port, WAIT_S) if ws else Wire("127.0.0.1", b.port, WAIT_S, receive_buffer)
    assert wire.send(packet(CONNECT, 0, connect_body(user, user, password, clean=clean)))
    assert connack(wire) == ACCEPTED
    assert wire.send(subscribe(T.public, 1))
    got = read_packet(wire)
    assert got is not None and got.kind == SUBACK and got.body[-1] == 1
    return wire


def phone_counts(b: EmbeddedBroker) -> queue.Queue[int]:
    """The connected-phone count the status board is told, each time it changes."""
    counts: queue.Queue[int] = queue.Queue()
    b.logins.on_phones = counts.put
    return counts


def until_count(counts: queue.Queue[int], n: int) -> None:
    while counts.get(timeout=WAIT_S) != n:
        pass


def inflight(b: EmbeddedBroker, user: str) -> int:
    """How many QoS 1 messages the broker keeps for `user`, waiting for a PUBACK (read on its loop)."""
    broker, loop = b._broker, b._loop
    assert broker is not None and loop is not None

    async def count() -> int:
        return sum(len(s.inflight_out) for s, _ in broker.sessions.values() if s.username == user)

    return asyncio.run_coroutine_threadsafe(count(), loop).result(WAIT_S)


def view(n: int, size: int = 0) -> bytes:
    return json.dumps({"announced": n, "pad": "x" * size}).encode()


def test_a_phone_that_never_reads_is_cut_and_the_others_get_every_message(broker: EmbeddedBroker) -> None:
    game = game_on(broker)
    ref = referee(broker)
    honest_cred, stuck_cred = game.spectators[0], game.spectators[1]
    honest = logged_in(broker, honest_cred.user, honest_cred.password)
    honest.subscribe(T.public)
    counts = phone_counts(broker)
    stuck = raw(broker, stuck_cred.user, stuck_cred.password, receive_buffer=4096)  # and never reads again
    until_count(counts, 2)
    size = 48 * 1024
    # far more than the kernel's buffers and MAX_UNSENT_BYTES together
    messages = 40 + 16 * 1024 * 1024 // size
    for n in range(messages):
        sent(ref, T.public, view(n, size))
    until_count(counts, 1)  # the phone that stopped reading was cut
    got = [honest.wait_for(lambda m: True).json()["announced"] for _ in range(messages)]
    assert got == list(range(messages))  # and the honest phone got every message, in order
    assert messages * size > 8 * MAX_UNSENT_BYTES
    stuck.close()
    again = logged_in(broker, stuck_cred.user, stuck_cred.password)  # a cut phone comes back as any
    again.subscribe(T.public)
    sent(ref, T.public, view(messages))
    assert again.wait_for(lambda m: True).json()["announced"] == messages
    for p in (ref, honest, again):
        p.close()


@pytest.mark.parametrize("ws", [False, True], ids=["tcp", "websocket"])
def test_a_phone_that_never_acknowledges_holds_at_most_max_unacked_messages(broker: EmbeddedBroker,
                                                                            ws: bool) -> None:
    game = game_on(broker)
    ref = referee(broker)
    honest = logged_in(broker, game.spectators[0].user, game.spectators[0].password)
    honest.subscribe(T.public)
    mute_cred = game.spectators[1]
    mute = raw(broker, mute_cred.user, mute_cred.password, ws=ws)
    total = MAX_UNACKED + 60
    received = []
    for n in range(total):
        sent(ref, T.public, view(n))
        got = read_packet(mute)  # read, never acknowledged
        assert got is not None and got.kind == PUBLISH and got.qos == 1
        received.append(json.loads(got.payload)["announced"])
    assert received == list(range(total))
    assert inflight(broker, mute_cred.user) <= MAX_UNACKED
    assert [honest.wait_for(lambda m: True).json()["announced"] for _ in range(total)] == list(range(total))
    mute.close()
    for p in (ref, honest):
        p.close()


def test_a_phone_gone_mid_delivery_costs_the_others_nothing(broker: EmbeddedBroker) -> None:
    game = game_on(broker)
    ref = referee(broker)
    honest = logged_in(broker, game.spectators[0].user, game.spectators[0].password)
    honest.subscribe(T.public)
    counts = phone_counts(broker)
    leaving = raw(broker, game.spectators[1].user, game.spectators[1].password)
    until_count(counts, 2)
    burst = 200
    for n in range(burst):
        ref.client.publish(T.public, view(n, 2048), qos=1)
        if n == burst // 2:
            leaving.drop()  # reset, with the broker in the middle of the burst
    sent(ref, T.public, view(burst))
    until_count(counts, 1)
    got = [honest.wait_for(lambda m: True).json()["announced"] for _ in range(burst + 1)]
    assert got == list(range(burst + 1))
    newcomer = logged_in(broker, game.spectators[2].user, game.spectators[2].password)
    newcomer.subscribe(T.public)
    sent(ref, T.public, view(burst + 1))
    assert newcomer.wait_for(lambda m: m.json()["announced"] == burst + 1)
    for p in (ref, honest, newcomer):
        p.close()


def test_a_persistent_session_gets_what_it_had_not_acknowledged_when_it_comes_back(broker: EmbeddedBroker) -> None:
    game = game_on(broker)
    ref = referee(broker)
    cred = game.spectators[0]
    counts = phone_counts(broker)
    away = raw(broker, cred.user, cred.password, clean=False)
    until_count(counts, 1)
    sent(ref, T.public, view(1))
    first = read_packet(away)  # delivered, never acknowledged
    assert first is not None and json.loads(first.payload)["announced"] == 1
    away.drop()
    until_count(counts, 0)
    sent(ref, T.public, view(2))  # while it is away
    back = Phone("127.0.0.1", broker.port, cred.user, cred.password, clean=False)
    assert not back.connect().is_failure
    got = sorted(back.wait_for(lambda m: True).json()["announced"] for _ in range(2))
    assert got == [1, 2]
    for p in (ref, back):
        p.close()


@pytest.mark.parametrize("ws", [False, True], ids=["tcp", "websocket"])
def test_each_phone_gets_what_the_acl_lets_it_read_and_nothing_else(broker: EmbeddedBroker, ws: bool) -> None:
    game = game_on(broker)
    ref = referee(broker)
    ana, ben = game.players["ana"], game.players["ben"]
    wires = {}
    for cred in (ana, ben):
        w = raw(broker, cred.user, cred.password, ws=ws)
        assert w.send(subscribe(T.view(cred.user), 1, packet_id=2))
        got = read_packet(w)
        assert got is not None and got.kind == SUBACK and got.body[-1] == 1
        assert w.send(subscribe(T.view(game.players["ben" if cred is ana else "ana"].user), 1, packet_id=3))
        got = read_packet(w)
        assert got is not None and got.kind == SUBACK and got.body[-1] == 0x80  # another seat: refused
        wires[cred.user] = w
    for n in range(20):
        sent(ref, T.view(ana.user), b"ana-secret-%d" % n)
        sent(ref, T.view(ben.user), b"ben-secret-%d" % n)
        sent(ref, T.public, view(n))
    sent(ref, T.public, b"end")
    for cred, own in ((ana, b"ana-"), (ben, b"ben-")):
        w, payloads = wires[cred.user], []
        while (got := read_packet(w)) is not None:
            assert got.kind == PUBLISH
            if got.qos:
                assert w.send(puback(got.packet_id or 0))
            payloads.append((got.topic, got.payload))
            if got.payload == b"end":
                break
        secrets = [p for topic, p in payloads if topic != T.public]
        assert secrets == [own + b"secret-%d" % n for n in range(20)]
        assert all(topic in (T.public, T.view(cred.user)) for topic, _ in payloads)
        assert [json.loads(p)["announced"] for topic, p in payloads if topic == T.public and p != b"end"] == \
            list(range(20))
        assert w.send(PINGREQ)  # answered after the PUBACKs before it were handled
        while (got := read_packet(w)) is not None and got.kind != PINGRESP:
            pass
        assert inflight(broker, cred.user) == 0  # every PUBACK settled its delivery
        w.close()
    ref.close()


def test_the_referees_own_connection_is_not_cut_at_a_phones_bound(broker: EmbeddedBroker) -> None:
    """A flood of commands while the companion is not reading must not cut the table off its phones:
    the referee's connection waits up to `REFEREE_UNSENT_BYTES`, 32 times a phone's."""
    game = game_on(broker)
    ana = game.players["ana"]
    wire = Wire("127.0.0.1", broker.port, WAIT_S, receive_buffer=4096)
    assert wire.send(packet(CONNECT, 0, connect_body(REFEREE_USER, REFEREE_USER, "referee-password")))
    assert connack(wire) == ACCEPTED
    assert wire.send(subscribe(T.cmd(ana.user), 0))
    got = read_packet(wire)
    assert got is not None and got.kind == SUBACK
    phone = logged_in(broker, ana.user, ana.password)
    size = 48 * 1024
    flood = 6 * 1024 * 1024 // size  # far past a phone's bound, with the kernel's buffers
    assert flood * size > 16 * MAX_UNSENT_BYTES and flood * size < REFEREE_UNSENT_BYTES
    for n in range(flood):  # while the referee reads nothing
        sent(phone, T.cmd(ana.user), view(n, size))
    commands = []
    while len(commands) < flood:
        got = read_packet(wire)
        assert got is not None, "the referee's connection was cut"
        commands.append(json.loads(got.payload)["announced"])
    assert commands == list(range(flood))
    wire.close()
    phone.close()


def test_a_puback_settles_only_what_the_outbox_sent() -> None:
    """amqtt's own QoS 1 delivery (a retained view to a newcomer) is in the inflight table before its
    future exists; a quick PUBACK read then is amqtt's, not ours: taking it left amqtt waiting 5 s and the
    session's loop with it (a phone page's SUBACK came too late, tests/night/test_night_evening.py)."""
    amqtts = OutgoingApplicationMessage(7, "companion/table1/public", QOS_1, b"{}", True)
    mine = OutboxMessage(8, "companion/table1/public", QOS_1, b"{}", False)
    inflight: dict[int, Any] = {7: amqtts, 8: mine}
    assert not ours(inflight, {}, 7)  # amqtt sent it and has not made its future yet
    assert not ours(inflight, {7: object()}, 7)  # its future waits
    assert ours(inflight, {}, 8)
    assert not ours(inflight, {8: object()}, 8)  # amqtt's retry of our delivery waits for it
    assert not ours(inflight, {}, 9)  # nothing in flight
