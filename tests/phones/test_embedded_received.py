"""The embedded broker's received side (issue 20, round 5b: `received.RoutingBroker`,
`SeatHandler.take_arrived`): a client's QoS 0/1 messages routed in place, a whole TCP segment of them
taken as it arrives. These tests send several packets in ONE write (so they arrive as one segment)
and hold the broker to what amqtt's own handling guaranteed: every message delivered in order with
its PUBACK, the ACL on every message of the segment, retained messages stored as amqtt stores them
(a newcomer gets the latest it may read, an empty one clears the topic), a `$` or wildcard topic
refused as before, the packet limit on every packet, QoS 2 as before. Real broker, hand-written packets.
"""

from __future__ import annotations

import struct
from collections.abc import Iterator

import pytest

from companion.phones.credentials import Credential, GameCredentials
from companion.phones.embedded import EmbeddedBroker
from companion.phones.runner import free_port
from companion.phones.topics import MAX_PACKET_BYTES, REFEREE_USER, Topics
from tests.kits.mqtt_wire import (
    ACCEPTED,
    CONNECT,
    PUBACK,
    PUBLISH,
    SUBACK,
    SUBSCRIBE,
    Wire,
    connack,
    connect_body,
    packet,
    read_packet,
    remaining_length,
    string,
)
from tests.kits.phones_kit import WAIT_S

PREFIX = "companion"
T = Topics(PREFIX, "table1")
PUBREC, PUBREL, PUBCOMP = 5, 6, 7
PINGREQ, PINGRESP = b"\xc0\x00", 13


@pytest.fixture
def broker() -> Iterator[EmbeddedBroker]:
    b = EmbeddedBroker(PREFIX, "127.0.0.1", free_port(), free_port(), "referee-password")
    b.start()
    try:
        yield b
    finally:
        b.stop()


@pytest.fixture
def game(broker: EmbeddedBroker) -> GameCredentials:
    g = GameCredentials.issue("table1", 1, ["ana", "ben"], spectators=2)
    broker.set_game(g)
    return g


def publish(topic: str, payload: bytes, qos: int = 1, packet_id: int = 1, retain: bool = False) -> bytes:
    body = string(topic) + (struct.pack("!H", packet_id) if qos else b"") + payload
    return packet(PUBLISH, qos << 1 | int(retain), body)


def subscribe_all(*topics: str, packet_id: int = 1) -> bytes:
    """One SUBSCRIBE for several filters at QoS 1; amqtt sends their retained messages in this order."""
    return packet(SUBSCRIBE, 0x02, struct.pack("!H", packet_id) + b"".join(string(t) + b"\x01" for t in topics))


def login(b: EmbeddedBroker, user: str, password: str) -> Wire:
    wire = Wire("127.0.0.1", b.port, WAIT_S)
    assert wire.send(packet(CONNECT, 0, connect_body(user, user, password)))
    assert connack(wire) == ACCEPTED
    return wire


def subscribed(b: EmbeddedBroker, cred: Credential | tuple[str, str], *topics: str) -> Wire:
    user, password = (cred.user, cred.password) if isinstance(cred, Credential) else cred
    wire = login(b, user, password)
    assert wire.send(subscribe_all(*topics))
    got = read_packet(wire)
    assert got is not None and got.kind == SUBACK
    return wire


def messages(wire: Wire, until: bytes) -> list[tuple[str, bytes, bool]]:
    """What `wire` got (topic, payload, retained), each QoS 1 one acknowledged, up to the payload `until`."""
    out: list[tuple[str, bytes, bool]] = []
    while (got := read_packet(wire)) is not None:
        assert got.kind == PUBLISH
        if got.qos:
            assert wire.send(packet(PUBACK, 0, struct.pack("!H", got.packet_id or 0)))
        out.append((got.topic, got.payload, bool(got.flags & 1)))
        if got.payload == until:
            return out
    raise AssertionError(f"the connection closed before {until!r}")


def acks(wire: Wire, n: int) -> list[int]:
    """The packet ids of the next `n` packets, each a PUBACK."""
    out = []
    for _ in range(n):
        got = read_packet(wire)
        assert got is not None and got.kind == PUBACK
        out.append(struct.unpack("!H", got.body)[0])
    return out


def test_a_segment_of_the_referees_views_is_delivered_in_order_acked_and_retained(
        broker: EmbeddedBroker, game: GameCredentials) -> None:
    ana, host = game.players["ana"], game.host
    watcher = subscribed(broker, game.spectators[0], T.public)
    ana_wire = subscribed(broker, ana, T.view(ana.user))
    ref = login(broker, REFEREE_USER, "referee-password")
    segment = b"".join((
        publish(T.public, b"public-1", 1, 11, retain=True),
        publish(T.view(ana.user), b"ana-1", 1, 12, retain=True),
        publish(T.view(host.user), b"host-1", 1, 13, retain=True),
        publish(T.public, b"public-2", 0),  # QoS 0, not retained: delivered, never stored
        publish(T.public, b"end", 1, 14),
    ))
    assert ref.send(segment)  # one write: one segment
    assert acks(ref, 4) == [11, 12, 13, 14]  # a PUBACK for each QoS 1 message, in order
    assert messages(watcher, b"end") == [(T.public, b"public-1", False), (T.public, b"public-2", False),
                                         (T.public, b"end", False)]
    assert messages(ana_wire, b"ana-1") == [(T.view(ana.user), b"ana-1", False)]
    # a newcomer gets the retained messages it may read, and only those: the host's view is not ana's
    again = login(broker, ana.user, ana.password)
    assert again.send(subscribe_all(T.public, T.view(ana.user), T.view(host.user)))
    suback = read_packet(again)
    assert suback is not None and suback.kind == SUBACK and suback.body[-3:] == b"\x01\x01\x80"
    assert messages(again, b"ana-1") == [(T.public, b"public-1", True), (T.view(ana.user), b"ana-1", True)]
    assert again.send(PINGREQ)
    pong = read_packet(again)
    assert pong is not None and pong.kind == PINGRESP  # nothing more: no host view
    for w in (watcher, ana_wire, ref, again):
        w.close()


def test_an_empty_retained_message_in_a_segment_clears_the_topic(broker: EmbeddedBroker, game: GameCredentials) -> None:
    ana = game.players["ana"]
    ref = login(broker, REFEREE_USER, "referee-password")
    mine = T.view(ana.user)
    assert ref.send(publish(T.public, b"kept", 1, 1, retain=True) + publish(mine, b"mine", 1, 2, retain=True))
    assert acks(ref, 2) == [1, 2]
    assert ref.send(publish(T.public, b"", 1, 3, retain=True) + publish(mine, b"mine-2", 1, 4, retain=True))
    assert acks(ref, 2) == [3, 4]
    # retained messages come in the order of the filters: ana's view first means the public one is gone
    newcomer = subscribed(broker, ana, T.public, T.view(ana.user))
    assert messages(newcomer, b"mine-2") == [(T.view(ana.user), b"mine-2", True)]
    newcomer.close()
    ref.close()


def test_a_message_the_phone_may_not_publish_is_dropped_and_the_rest_of_its_segment_goes_on(
        broker: EmbeddedBroker, game: GameCredentials) -> None:
    ana, ben = game.players["ana"], game.players["ben"]
    ref = login(broker, REFEREE_USER, "referee-password")
    assert ref.send(subscribe_all(T.all_commands))
    got = read_packet(ref)
    assert got is not None and got.kind == SUBACK
    assert ref.send(publish(T.public, b"truth", 1, 1, retain=True))
    assert acks(ref, 1) == [1]
    watcher = subscribed(broker, game.spectators[0], T.public)
    assert messages(watcher, b"truth") == [(T.public, b"truth", True)]
    phone = login(broker, ana.user, ana.password)
    assert phone.send(b"".join((
        publish(T.cmd(ana.user), b"cmd-1", 1, 1),
        publish(T.public, b"forged", 1, 2, retain=True),  # the public view is the referee's alone
        publish(T.cmd(ben.user), b"as-ben", 1, 3),  # another seat's commands
        publish(T.cmd(ana.user), b"cmd-2", 1, 4),
    )))
    assert acks(phone, 4) == [1, 2, 3, 4]  # acknowledged as amqtt acknowledges them, delivered or not
    assert [p for _, p, _ in messages(ref, b"cmd-2")] == [b"cmd-1", b"cmd-2"]
    assert ref.send(publish(T.public, b"next", 1, 2))
    assert acks(ref, 1) == [2]
    assert messages(watcher, b"next") == [(T.public, b"next", False)]  # never the forged view
    newcomer = subscribed(broker, game.spectators[1], T.public)
    assert messages(newcomer, b"truth") == [(T.public, b"truth", True)]  # nor did it replace the retained one
    for w in (phone, ref, watcher, newcomer):
        w.close()


@pytest.mark.parametrize("topic", ["$SYS/broker/uptime", "companion/+/x", "#"])
def test_a_topic_no_publish_may_have_in_a_segment_closes_the_connection_as_before(
        broker: EmbeddedBroker, game: GameCredentials, topic: str) -> None:
    ana = game.players["ana"]
    ref = login(broker, REFEREE_USER, "referee-password")
    assert ref.send(subscribe_all(T.all_commands))
    got = read_packet(ref)
    assert got is not None and got.kind == SUBACK
    phone = login(broker, ana.user, ana.password)
    assert phone.send(publish(T.cmd(ana.user), b"before", 1, 1) + publish(topic, b"bad", 1, 2))
    while (p := read_packet(phone)) is not None:  # the connection ends, whatever it acknowledged first
        assert p.kind == PUBACK
    assert [m for _, m, _ in messages(ref, b"before")] == [b"before"]
    again = login(broker, ana.user, ana.password)  # the broker goes on
    assert again.send(publish(T.cmd(ana.user), b"after", 1, 3))
    assert acks(again, 1) == [3]
    assert [m for _, m, _ in messages(ref, b"after")] == [b"after"]
    for w in (ref, again):
        w.close()


def test_a_message_split_across_segments_is_delivered_once_and_an_oversized_one_cuts(
        broker: EmbeddedBroker, game: GameCredentials) -> None:
    watcher = subscribed(broker, game.spectators[0], T.public)
    ref = login(broker, REFEREE_USER, "referee-password")
    whole = publish(T.public, b"split" * 100, 1, 1) + publish(T.public, b"one", 1, 2)
    assert ref.send(whole[:7])
    assert ref.send(whole[7:300])
    assert ref.send(whole[300:])
    assert acks(ref, 2) == [1, 2]
    assert [p for _, p, _ in messages(watcher, b"one")] == [b"split" * 100, b"one"]
    # a whole message, then the fixed header of one over the limit, in one segment
    over = bytes([PUBLISH << 4 | 2]) + remaining_length(MAX_PACKET_BYTES)
    assert ref.send(publish(T.public, b"last", 1, 3) + over + b"\x00" * 64)
    assert acks(ref, 1) == [3]
    assert read_packet(ref) is None  # cut at the fixed header
    assert [p for _, p, _ in messages(watcher, b"last")] == [b"last"]
    watcher.close()


def test_qos_2_in_a_segment_keeps_amqtts_handshake(broker: EmbeddedBroker, game: GameCredentials) -> None:
    watcher = subscribed(broker, game.spectators[0], T.public)
    ref = login(broker, REFEREE_USER, "referee-password")
    assert ref.send(publish(T.public, b"q1", 1, 1) + publish(T.public, b"q2", 2, 2))
    kinds = set()
    for _ in range(2):
        p = read_packet(ref)
        assert p is not None
        kinds.add((p.kind, struct.unpack("!H", p.body)[0]))
    assert kinds == {(PUBACK, 1), (PUBREC, 2)}
    assert ref.send(packet(PUBREL, 0x02, struct.pack("!H", 2)))
    p = read_packet(ref)
    assert p is not None and (p.kind, p.body) == (PUBCOMP, struct.pack("!H", 2))
    assert [m for _, m, _ in messages(watcher, b"q2")] == [b"q1", b"q2"]
    for w in (watcher, ref):
        w.close()
