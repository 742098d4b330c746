"""The MQTT mirror against the real broker (a managed Mosquitto), started here:
retained views, replies on the sender's own topic, retries applied once, refusals at the door, public
events, the referee's availability, spectators, a new game's credentials, and the status board."""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any

import pytest

from companion.phones.credentials import GameCredentials
from companion.phones.intake import command_id
from companion.phones.topics import COMMAND_MAX_BYTES
from companion.table.views import with_lines
from tests.kits.phones_kit import BROKERS, WAIT_S, Phone, command, joined, phone, reply, running_table

pytestmark = pytest.mark.parametrize("broker", BROKERS)


def open_ballot(run: Any, host: Phone) -> None:
    got = command(host, run, "host", "h-open", "ballot.open", name="exile", options=["ana", "ben", "chai"])
    assert got["ok"], got


def as_sent(public: dict[str, Any]) -> dict[str, Any]:
    """The public view as the phones get it: with its lines, every id in words (companion/naming.py)."""
    return json.loads(json.dumps(with_lines(public, public)))


def test_a_phone_that_joins_gets_the_current_public_and_private_views(tmp_path: Path, broker: str) -> None:
    with running_table(tmp_path, broker) as run:
        host = joined(run, "host")
        open_ballot(run, host)
        ana = joined(run, "ana")  # joins after the ballot opened: the retained views bring her up to date
        t, user = run.phones.topics, run.cred("ana").user
        public = ana.wait_for(lambda m: m.topic == t.public and "exile" in m.json()["table"]["ballots"])
        mine = ana.wait_for(lambda m: m.topic == t.view(user) and "exile" in m.json()["table"]["ballots"])
        assert public.retain and mine.retain
        assert public.json() == as_sent(run.referee.view("public"))  # ids in words: companion/naming.py
        assert mine.json()["me"] == "ana"
        assert mine.json()["private"]["ballots"]["exile"] == {"eligible": True, "my_vote": None}
        assert any(p["move"] == "ballot.vote" for p in mine.json()["prompts"])
        status = ana.got(lambda m: m.topic == t.status)
        assert (status.payload, status.retain) == (b"online", True)


def test_a_vote_is_applied_once_and_answered_on_the_senders_own_reply_topic(tmp_path: Path, broker: str) -> None:
    with running_table(tmp_path, broker) as run:
        host, ana, ben = joined(run, "host"), joined(run, "ana"), joined(run, "ben")
        open_ballot(run, host)
        before = run.events()
        first = command(ana, run, "ana", "vote-1", "ballot.vote", name="exile", option="ben")
        assert first["ok"] and not first["duplicate"]
        again = command(ana, run, "ana", "vote-1", "ballot.vote", name="exile", option="ben")  # a retry
        assert again == {**first, "duplicate": True}
        assert run.events() == before + 1
        t = run.phones.topics
        ben.wait_for(lambda m: m.topic == t.public and m.json()["table"]["ballots"].get("exile", {}).get("cast") == 1)
        assert not [m for m in ben.seen if m.topic == t.reply(run.cred("ana").user)]
        reused = command(ana, run, "ana", "vote-1", "ballot.vote", name="exile", option="chai")
        assert reused["reason"]["code"] == "reject.command_id_reused"


BAD = [
    (b"\xff\xfe", "reject.malformed"),
    (b"{not json", "reject.malformed"),
    (b"[1, 2]", "reject.malformed"),
    (json.dumps({"id": "x1", "move": "ballot.close", "args": {"name": "exile"}, "by": "host"}).encode(),
     "reject.malformed"),  # a phone cannot say who it is: the topic says it
    (json.dumps({"move": "dice.roll"}).encode(), "reject.malformed"),  # no id
    (json.dumps({"id": 5, "move": "dice.roll"}).encode(), "reject.malformed"),
    (json.dumps({"id": "x2", "move": "dice.roll", "args": {"pad": "x" * COMMAND_MAX_BYTES}}).encode(),
     "reject.command_too_large"),
    (json.dumps({"id": "x3", "move": "ballot.close", "args": {"name": "exile"}}).encode(), "reject.not_allowed"),
    (json.dumps({"id": "x4", "move": "no.such.move"}).encode(), "reject.unknown_move"),
]


@pytest.mark.parametrize(("payload", "code"), BAD, ids=[
    "not-utf8", "not-json", "not-an-object", "names-its-sender", "no-id", "id-not-a-string", "oversized",
    "not-allowed-for-a-player", "unknown-move"])
def test_a_bad_command_gets_a_clear_rejection_and_changes_nothing(
        tmp_path: Path, broker: str, payload: bytes, code: str) -> None:
    with running_table(tmp_path, broker) as run:
        host, ana = joined(run, "host"), joined(run, "ana")
        open_ballot(run, host)
        before, public = run.events(), run.referee.view("public")
        ana.publish(run.phones.topics.cmd(run.cred("ana").user), payload)
        got = reply(ana, run, "ana", command_id(payload))
        assert got["ok"] is False
        assert got["reason"]["code"] == code
        assert run.events() == before
        assert run.referee.view("public") == public


def test_announcements_go_out_on_the_events_topic_in_order(tmp_path: Path, broker: str) -> None:
    with running_table(tmp_path, broker) as run:
        host = joined(run, "host")
        open_ballot(run, host)
        assert command(host, run, "host", "h-close", "ballot.close", name="exile")["ok"]
        t = run.phones.topics
        events = [m.json() for m in host.seen if m.topic == t.events]
        while len(events) < 2:
            events.append(host.wait_for(lambda m: m.topic == t.events).json())
        said = run.referee.view("public")["announcements"]
        assert [e["msg"] for e in events] == [a["msg"] for a in said]
        assert [e["n"] for e in events] == [1, 2]


def test_the_referee_says_offline_when_it_stops(tmp_path: Path, broker: str) -> None:
    with running_table(tmp_path, broker) as run:
        watcher = joined(run, "ben")
        t = run.phones.topics
        watcher.got(lambda m: m.topic == t.status and m.payload == b"online")
        run.phones.mirror.stop()
        gone = watcher.wait_for(lambda m: m.topic == t.status and m.payload == b"offline")
        assert gone.topic == t.status


def test_a_spectator_reads_the_public_view_and_may_not_act(tmp_path: Path, broker: str) -> None:
    with running_table(tmp_path, broker, spectators=2) as run:
        spec = run.phones.game.spectators[0]
        t = run.phones.topics
        watcher = Phone(run.phones.address.host, run.phones.address.port, spec.user, spec.password)
        assert not watcher.connect().is_failure
        watcher.subscribe(t.public, t.reply(spec.user))
        assert watcher.wait_for(lambda m: m.topic == t.public).json() == as_sent(run.referee.view("public"))
        before = run.events()
        watcher.publish(t.cmd(spec.user), json.dumps({"id": "s1", "move": "dice.roll"}))
        got = watcher.wait_for(lambda m: m.topic == t.reply(spec.user)).json()
        assert got["reason"]["code"] == "reject.spectator_cannot_act"
        assert run.events() == before


def test_a_new_game_refuses_the_old_games_credentials(tmp_path: Path, broker: str) -> None:
    with running_table(tmp_path, broker) as run:
        old = run.cred("ana")
        ana = phone(run, "ana")
        assert not ana.connect().is_failure
        new = GameCredentials.issue("table1", run.referee.game_id + 1, ["ana", "ben"])
        run.phones.broker.set_game(new)
        again = Phone(run.phones.address.host, run.phones.address.port, old.user, old.password)
        assert again.connect().is_failure
        fresh = new.players["ana"]
        joining = Phone(run.phones.address.host, run.phones.address.port, fresh.user, fresh.password)
        assert not joining.connect().is_failure


def test_the_status_board_shows_the_broker_and_the_phones_connected(tmp_path: Path, broker: str) -> None:
    with running_table(tmp_path, broker) as run:
        changed = threading.Event()
        run.status.listen(changed.set)
        joined(run, "ana")
        joined(run, "ben")

        def phones() -> int | None:
            return next((s.count for s in run.status.snapshot() if s.kind == "phones"), None)

        while phones() != 2:  # Mosquitto says it in $SYS every few seconds; amqtt at once
            assert changed.wait(WAIT_S), f"phones connected: {phones()}"
            changed.clear()
        board = {s.kind: s for s in run.status.snapshot()}
        assert (board["broker"].name, board["broker"].state) == (broker, "ok")


def test_a_referee_that_drops_off_is_announced_offline_by_its_last_will_then_online_again(
        tmp_path: Path, broker: str) -> None:
    with running_table(tmp_path, broker) as run:
        watcher = joined(run, "ben")
        t = run.phones.topics
        watcher.got(lambda m: m.topic == t.status and m.payload == b"online")
        while not watcher.inbox.empty():  # what came before the drop (`got` leaves it queued)
            watcher.inbox.get_nowait()
        connections = run.phones.mirror.connections
        client = run.phones.mirror._client
        sock = client.socket()  # the network drops under the referee: no DISCONNECT sent
        assert sock is not None
        # Hold the client's own reconnection until the broker has noticed the drop; and the mirror's
        # supervision meanwhile, which would take the stopped loop for a dead thread and start a new client.
        run.table.turn_hooks.remove(run.phones.mirror.keep_alive)
        client.loop_stop()
        sock.shutdown(2)
        assert watcher.wait_for(lambda m: m.topic == t.status).payload == b"offline"
        client.loop_start()
        run.table.turn_hooks.append(run.phones.mirror.keep_alive)
        assert watcher.wait_for(lambda m: m.topic == t.status).payload == b"online"  # it came back by itself
        assert run.phones.mirror.connections == connections + 1


def test_only_the_views_that_changed_are_published_again(tmp_path: Path, broker: str) -> None:
    with running_table(tmp_path, broker) as run:
        host, ana, ben = joined(run, "host"), joined(run, "ana"), joined(run, "ben")
        assert command(host, run, "host", "h1", "counter.create", name="gold")["ok"]
        t = run.phones.topics
        ana_view, ben_view, host_view = (t.view(run.cred(w).user) for w in ("ana", "ben", "host"))
        ben.got(lambda m: m.topic == ben_view and "gold" in m.json()["private"]["counters"])

        def count(p: Phone, topic: str) -> int:
            return sum(1 for m in p.seen if m.topic == topic)

        before = {"ben": count(ben, ben_view), "public": count(ben, t.public), "host": count(host, host_view)}
        assert command(ana, run, "ana", "a1", "counter.adjust", name="gold", delta=3)["ok"]  # only ana's secret
        ana.got(lambda m: m.topic == ana_view and m.json()["private"]["counters"].get("gold") == 3)
        assert command(ben, run, "ben", "b1", "counter.adjust", name="gold", delta=4)["ok"]  # a later barrier
        ben.got(lambda m: m.topic == ben_view and m.json()["private"]["counters"].get("gold") == 4)
        assert command(host, run, "host", "h2", "dice.roll")["ok"]  # changes the public view: a second barrier
        ben.got(lambda m: m.topic == t.public and m.json()["table"]["rolls"])
        ben.got(lambda m: m.topic == ben_view and m.json()["table"]["rolls"])  # his view carries the roll too
        host.got(lambda m: m.topic == host_view and m.json()["table"]["rolls"])
        assert count(ben, ben_view) == before["ben"] + 2  # his own change, then the roll; not ana's change
        assert count(ben, t.public) == before["public"] + 1  # the roll only
        assert count(host, host_view) == before["host"] + 3  # the host's history lists every input (no secret)
