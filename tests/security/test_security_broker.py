"""Hostile MQTT clients against the real broker (Mosquitto): last wills, retained and QoS 2 publishes, huge packets.

Issue 16, items 1 and 4. A player's or a spectator's will is a publish like any other: on a topic the
seat may not write it is never sent, so a dropped connection can neither run host moves nor overwrite
a retained view (Mosquitto lets the CONNECT in and drops the will when it would send it). Retained and QoS 2
publishes pass the same ACL as any publish. A packet whose fixed header announces more than
`topics.MAX_PACKET_BYTES` is cut off at its header, whichever packet it is, over TCP or WebSockets,
and the broker serves on. The raw packets come from `tests/kits/mqtt_wire.py`; `pytest -s` prints counts.
"""

from __future__ import annotations

import json
import queue
from pathlib import Path
from typing import Any

import pytest

from companion.phones.credentials import Credential
from companion.phones.topics import MAX_PACKET_BYTES
from tests.kits.mqtt_wire import (
    ACCEPTED,
    CONNECT,
    Will,
    Wire,
    WsWire,
    closed,
    connack,
    connect_body,
    packet,
    publish_head,
    stream,
    zeros,
)
from tests.kits.phones_kit import BROKERS, WAIT_S, Phone, Running, as_sent, joined, reply, running_table

HUGE = 100 * 1000 * 1000  # what each oversized packet announces
SMUGGLED = 4 * 1000 * 1000  # what is streamed after a packet hidden in a PINGREQ (a naive reader keeps it all)


def tcp(run: Running) -> Wire:
    return Wire(run.phones.address.host, run.phones.address.port, WAIT_S)


def ws(run: Running) -> WsWire:
    return WsWire(run.phones.address.host, run.phones.ws_port, WAIT_S)


def logged_in(wire: Wire, cred: Credential) -> Wire:
    wire.send(packet(CONNECT, 0, connect_body(cred.user, cred.user, cred.password)))
    assert connack(wire) == ACCEPTED
    return wire


def settled(run: Running) -> None:
    """Wait until the table has handled every input queued before this call (inputs run in order)."""
    done: queue.Queue[Any] = queue.Queue()
    run.table.put({"by": "host", "move": "no.such.move", "args": {}}, done.put)
    done.get(timeout=WAIT_S)


def answered(p: Phone, run: Running, who: str, cid: str) -> dict[str, Any]:
    """Send a dice roll from `who`'s joined phone and wait for its reply (so the referee is listening)."""
    p.publish(run.phones.topics.cmd(run.cred(who).user), json.dumps({"id": cid, "move": "dice.roll", "args": {}}))
    return reply(p, run, who, cid)


def applied(run: Running, prefix: str) -> list[str]:
    return [ev.input.id or "" for ev in run.referee.log.events(run.referee.game_id)
            if (ev.input.id or "").startswith(prefix)]


def fresh_retained(run: Running, who: str) -> dict[str, bytes]:
    """What a phone subscribing now gets of the retained status, public and its own view."""
    p = joined(run, who)
    t = run.phones.topics
    got = {topic: p.got(lambda m, topic=topic: m.topic == topic).payload
           for topic in (t.status, t.public, t.view(run.cred(who).user))}
    p.close()
    return got


def retained_as_the_referee_left_them(run: Running, who: str) -> bool:
    t = run.phones.topics
    got = fresh_retained(run, who)
    pid = who if who != "host" else None
    view = as_sent(run.referee, f"player:{pid}" if pid else "host")  # as the phones get it: with its words
    seats = run.phones.mirror.phone_seats
    if pid is None and seats is not None:  # the host's view also says which seats a phone holds
        view = {**view, "phone_seats": json.loads(json.dumps(seats()))}
    return (got[t.status] == b"online" and json.loads(got[t.public]) == as_sent(run.referee, "public")
            and json.loads(got[t.view(run.cred(who).user)]) == view)


@pytest.mark.parametrize("broker", BROKERS)
def test_a_will_on_a_topic_the_seat_may_not_write_is_never_sent(tmp_path: Path, broker: str) -> None:
    """Mosquitto 2.0 checks the ACL when it would send the will (`context__send_will`), and it is the end
    of that path (no host move, no view overwritten) that must show."""
    with running_table(tmp_path, broker, spectators=1) as run:
        t = run.phones.topics
        host_user, ben_user = run.cred("host").user, run.cred("ben").user
        watcher = joined(run, "ben")  # reads public and its own topics: sees a forged will if one is sent
        assert answered(watcher, run, "ben", "before")["ok"]  # the referee reads the cmd topics by now
        attackers = {"player ana": run.cred("ana"), "spectator": run.phones.game.spectators[0]}
        targets = {
            "host's cmd": (t.cmd(host_user), {"move": "game.end", "args": {}}),
            "public": (t.public, {"forged": True}),
            "ben's cmd": (t.cmd(ben_user), {"move": "dice.roll", "args": {}}),
        }
        codes: dict[str, int | None] = {}
        for who, cred in attackers.items():
            for target, (topic, payload) in targets.items():
                for qos, retain in ((0, False), (1, True), (2, True)):
                    name = f"{who} -> {target}, QoS {qos}{', retained' if retain else ''}"
                    will = Will(topic, json.dumps({"id": f"will-{len(codes)}", **payload}).encode(), qos, retain)
                    wire = tcp(run)
                    wire.send(packet(CONNECT, 0, connect_body(cred.user, cred.user, cred.password, will)))
                    codes[name] = connack(wire)
                    wire.drop()  # lost without DISCONNECT: a will the broker kept is sent now

        after = answered(joined(run, "ana"), run, "ana", "after")  # the referee still answers
        settled(run)
        forged = [m.topic for m in watcher.seen if b"will-" in m.payload or b"forged" in m.payload]
        print(f"\nwills, {broker}:\n" + "\n".join(f"| {k} | CONNACK {v} |" for k, v in codes.items()))
        assert applied(run, "will-") == []
        assert after["ok"]
        assert not run.referee.view("public")["ended"]
        assert forged == []
        assert retained_as_the_referee_left_them(run, "chai")


@pytest.mark.parametrize("broker", BROKERS)
def test_a_will_on_the_seats_own_command_topic_is_accepted_and_sent(tmp_path: Path, broker: str) -> None:
    with running_table(tmp_path, broker) as run:
        ana = run.cred("ana")
        ben = joined(run, "ben")
        assert answered(ben, run, "ben", "before")["ok"]  # the referee reads the cmd topics by now
        received = run.phones.mirror.counts["received"]
        will = Will(run.phones.topics.cmd(ana.user), b'{"id": "will-own", "move": "dice.roll", "args": {}}')
        wire = tcp(run)
        wire.send(packet(CONNECT, 0, connect_body(ana.user, ana.user, ana.password, will)))
        assert connack(wire) == ACCEPTED
        wire.drop()
        assert run.phones.mirror.wait_received(received + 1, WAIT_S)
        settled(run)
        assert applied(run, "will-") == ["will-own"]


@pytest.mark.parametrize("broker", BROKERS)
def test_retained_and_qos_2_publishes_to_foreign_topics_are_neither_delivered_nor_kept(tmp_path: Path,
                                                                                      broker: str) -> None:
    with running_table(tmp_path, broker, spectators=1) as run:
        t = run.phones.topics
        host_user, ben_user = run.cred("host").user, run.cred("ben").user
        watcher = joined(run, "ben")
        spectator = run.phones.game.spectators[0]
        targets = [t.public, t.status, t.events, t.cmd(host_user), t.cmd(ben_user), t.view(ben_user),
                   t.view(host_user), t.reply(ben_user)]
        tried = 0
        for who, cred in {"ana": run.cred("ana"), "spectator": spectator}.items():
            attacker = Phone(run.phones.address.host, run.phones.address.port, cred.user, cred.password)
            assert not attacker.connect().is_failure
            attacker.subscribe(t.reply(cred.user))
            for topic in targets:
                for qos, retain in ((0, True), (1, True), (2, False), (2, True)):
                    forged = {"id": f"attack-{tried}", "move": "game.end" if topic.endswith("/cmd") else "x",
                              "args": {}, "forged_by": who}
                    info = attacker.client.publish(topic, json.dumps(forged), qos=qos, retain=retain)
                    info.wait_for_publish(WAIT_S)  # QoS 2: PUBREC, PUBREL, PUBCOMP all done
                    tried += 1
            # ordered after the attacks on the same connection: once this is answered, they were all handled
            attacker.client.publish(t.cmd(cred.user), json.dumps({"id": f"{who}-after", "move": "dice.roll"}), qos=2)
            answer = attacker.wait_for(lambda m, who=who, cred=cred: m.topic == t.reply(cred.user)
                                       and m.json().get("id") == f"{who}-after").json()
            assert answer["ok"] == (who == "ana")  # a spectator's command is refused, and answered
            attacker.close()
        settled(run)
        delivered = [m.topic for m in watcher.seen if b"forged_by" in m.payload]
        print(f"\nretained / QoS 2 publishes to foreign topics, {broker}: {tried} tried, {len(delivered)} delivered")
        assert delivered == []
        assert applied(run, "attack-") == []
        assert not run.referee.view("public")["ended"]
        watcher.close()
        assert retained_as_the_referee_left_them(run, "ben")  # public, status and Ben's own view
        assert retained_as_the_referee_left_them(run, "host")


def _publish_attack(wire: Wire, cred: Credential, topic: str) -> int:
    logged_in(wire, cred)
    return stream(wire, publish_head(topic, HUGE), HUGE)


def _connect_attack(wire: Wire, cred: Credential) -> int:
    body = connect_body(cred.user, cred.user, cred.password)  # a good CONNECT, padded to 100 MB
    return stream(wire, packet(CONNECT, 0, body, len(body) + HUGE), HUGE)


def _one_message_attack(wire: WsWire, cred: Credential, topic: str) -> int:
    logged_in(wire, cred)
    body = zeros(HUGE)
    sent = [0]

    def fragments() -> Any:
        yield publish_head(topic, HUGE)
        for chunk in body:
            sent[0] += len(chunk)
            yield chunk

    wire.send_message(fragments())
    return sent[0]


def _smuggle_attack(wire: Wire, cred: Credential) -> int:
    """A PINGREQ announcing a 5-byte body: the fixed header of a SUBSCRIBE announcing 256 MiB - 1."""
    logged_in(wire, cred)
    return stream(wire, packet(12, 0, b"\x82\xff\xff\xff\x7f") + b"\x00\x01", SMUGGLED)


@pytest.mark.parametrize("broker", BROKERS)
def test_a_packet_over_the_limit_is_cut_off_at_its_header_and_the_broker_serves_on(tmp_path: Path,
                                                                                   broker: str) -> None:
    with running_table(tmp_path, broker) as run:
        t = run.phones.topics
        ana = run.cred("ana")
        honest = joined(run, "ben")
        cmd = t.cmd(ana.user)
        attacks = {
            "TCP: PUBLISH": (tcp, lambda w: _publish_attack(w, ana, cmd), HUGE),
            "TCP: CONNECT": (tcp, lambda w: _connect_attack(w, ana), HUGE),
            "WebSocket: PUBLISH, 64 KiB messages": (ws, lambda w: _publish_attack(w, ana, cmd), HUGE),
            "WebSocket: PUBLISH, one message": (ws, lambda w: _one_message_attack(w, ana, cmd), HUGE),
            "TCP: SUBSCRIBE inside a PINGREQ": (tcp, lambda w: _smuggle_attack(w, ana), SMUGGLED),
        }
        results: dict[str, tuple[int, bool]] = {}
        for name, (open_wire, attack, size) in attacks.items():
            wire = open_wire(run)
            sent = attack(wire)
            # the kernel's socket buffers take a few MB before the broker's reset arrives, so only the
            # 100 MB attacks can show that the body was not all sent; every attack must end closed
            results[name] = (sent, (sent < size or size == SMUGGLED) and closed(wire))
            wire.close()
            n = len(results)  # after each attack the others are still served
            try:
                answer = answered(honest, run, "ben", f"ben-{n}")
            except queue.Empty:
                pytest.fail(f"{broker}, after {name} ({sent / 1e6:.1f} MB sent): Ben's command got no reply")
            assert answer["ok"], name
        print(f"\npacket limit {MAX_PACKET_BYTES} bytes, {broker}:\n"
              + "\n".join(f"| {k} | {s / 1e6:.1f} MB sent | {'cut' if c else 'NOT cut'} |"
                          for k, (s, c) in results.items()))
        assert [name for name, (_, cut) in results.items() if not cut] == []
        newcomer = Phone(run.phones.address.host, run.phones.address.port, ana.user, ana.password)
        assert not newcomer.connect().is_failure
        newcomer.close()


@pytest.mark.parametrize("broker", BROKERS)
def test_a_packet_at_the_limit_still_passes(tmp_path: Path, broker: str) -> None:
    """The limit leaves room for the largest view: a packet of exactly the limit is read and delivered."""
    with running_table(tmp_path, broker) as run:
        ana = run.cred("ana")
        topic = run.phones.topics.cmd(ana.user)
        payload = MAX_PACKET_BYTES - 1 - (2 + len(topic.encode()))  # one byte plus the remaining length
        assert answered(joined(run, "ben"), run, "ben", "before")["ok"]  # the referee reads the cmd topics
        received = run.phones.mirror.counts["received"]
        wire = logged_in(tcp(run), ana)
        assert stream(wire, publish_head(topic, payload), payload) == payload
        assert run.phones.mirror.wait_received(received + 1, WAIT_S)  # delivered (refused there: too large)
        wire.close()
