"""Hostile MQTT clients against both real brokers: last wills, retained and QoS 2 publishes.

Issue 16, item 1. A player's or a spectator's will is a publish like any other: on a topic the seat
may not write it is never sent, so a dropped connection can neither run host moves nor overwrite a
retained view (the embedded broker refuses such a CONNECT with "not authorized"). Retained and QoS 2
publishes pass the same ACL as any publish. The raw packets come from `tests/mqtt_wire.py`; `pytest -s`
prints what each attempt got.
"""

from __future__ import annotations

import json
import queue
from pathlib import Path
from typing import Any

import pytest

from companion.phones.credentials import Credential
from tests.mqtt_wire import (
    ACCEPTED,
    CONNECT,
    NOT_AUTHORIZED,
    Will,
    Wire,
    WsWire,
    connack,
    connect_body,
    packet,
)
from tests.phones_kit import BROKERS, WAIT_S, Phone, Running, joined, reply, running_table


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
    view = run.referee.view(f"player:{pid}" if pid else "host")
    return (got[t.status] == b"online" and json.loads(got[t.public]) == run.referee.view("public")
            and json.loads(got[t.view(run.cred(who).user)]) == json.loads(json.dumps(view)))


@pytest.mark.parametrize("broker", BROKERS)
def test_a_will_on_a_topic_the_seat_may_not_write_is_never_sent(tmp_path: Path, broker: str) -> None:
    """The embedded broker refuses the CONNECT; Mosquitto 2.0 checks the ACL when it would send the will
    (`context__send_will`), and it is the end of that path (no host move, no view overwritten) that both
    must show."""
    with running_table(tmp_path, broker, spectators=1) as run:
        t = run.phones.topics
        host_user, ben_user = run.cred("host").user, run.cred("ben").user
        watcher = joined(run, "ben")  # reads public and its own topics: sees a forged will if one is sent
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

        ana = joined(run, "ana")  # the referee still answers, after every attempt
        ana.publish(t.cmd(run.cred("ana").user), json.dumps({"id": "after", "move": "dice.roll", "args": {}}))
        after = reply(ana, run, "ana", "after")
        settled(run)
        forged = [m.topic for m in watcher.seen if b"will-" in m.payload or b"forged" in m.payload]
        print(f"\nwills, {broker}:\n" + "\n".join(f"| {k} | CONNACK {v} |" for k, v in codes.items()))
        if broker == "embedded":  # Mosquitto 2.0 lets the CONNECT in and drops the will when it would send it
            assert {name: code for name, code in codes.items() if code != NOT_AUTHORIZED} == {}
        assert applied(run, "will-") == []
        assert after["ok"]
        assert not run.referee.view("public")["ended"]
        assert forged == []
        assert retained_as_the_referee_left_them(run, "chai")


@pytest.mark.parametrize("broker", BROKERS)
def test_a_will_on_the_seats_own_command_topic_is_accepted_and_sent(tmp_path: Path, broker: str) -> None:
    with running_table(tmp_path, broker) as run:
        ana = run.cred("ana")
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
