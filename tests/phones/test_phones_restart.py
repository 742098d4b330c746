"""A broker restart mid-game and phones that drop and come back, against both real brokers:
no command is lost or applied twice, and everyone gets the current views back."""

from __future__ import annotations

import json
import queue
from pathlib import Path

import pytest

from tests.kits.phones_kit import BROKERS, Phone, Running, as_sent, joined, running_table

pytestmark = pytest.mark.parametrize("broker", BROKERS)
COMMANDS = 12
RESTART_AFTER = 4
RETRY_S = 2.0  # how long a phone waits for a reply before it sends the same command again
ATTEMPTS = 15


def send_until_answered(run: Running, p: Phone, who: str, cid: str, move: str, args: dict[str, object],
                        restart: bool = False) -> tuple[dict[str, object], int]:
    """What a phone does: send, wait for the reply, resend the same id if none came. (reply, sends)."""
    t, user = run.phones.topics, run.cred(who).user
    payload = json.dumps({"id": cid, "move": move, "args": args})
    for attempt in range(1, ATTEMPTS + 1):
        p.publish(t.cmd(user), payload)
        if restart and attempt == 1:
            run.phones.restart_broker()  # the reply to this very command may be lost with the broker
        try:
            got = p.wait_for(lambda m: m.topic == t.reply(user) and m.json().get("id") == cid, RETRY_S)
            return got.json(), attempt
        except queue.Empty:
            continue
    raise AssertionError(f"no reply to {cid} after {ATTEMPTS} sends")


def test_a_broker_restart_mid_game_loses_and_doubles_no_command(tmp_path: Path, broker: str) -> None:
    with running_table(tmp_path, broker) as run:
        host = joined(run, "host")
        got, _ = send_until_answered(run, host, "host", "h1", "counter.create", {"name": "gold", "players": ["ana"]})
        assert got["ok"]
        ana = joined(run, "ana")
        sends = 0
        for k in range(COMMANDS):
            got, n = send_until_answered(run, ana, "ana", f"n{k}", "counter.adjust", {"name": "gold", "delta": 1},
                                         restart=k == RESTART_AFTER)
            assert got["ok"], got
            sends += n
        applied = [ev for ev in run.referee.log.events(run.referee.game_id) if (ev.input.id or "").startswith("n")]
        assert len(applied) == COMMANDS  # each once, though some were sent more than once
        assert run.referee.view("player:ana")["private"]["counters"]["gold"] == COMMANDS
        assert run.phones.mirror.connections >= 2  # the referee came back after the restart
        # someone joining now gets the current views from the retained messages the referee republished
        t = run.phones.topics
        late = joined(run, "ben")
        assert late.got(lambda m: m.topic == t.public).json() == as_sent(run.referee, "public")
        mine = joined(run, "ana").got(lambda m: m.topic == t.view(run.cred("ana").user)).json()
        assert mine["private"]["counters"]["gold"] == COMMANDS
        assert late.got(lambda m: m.topic == t.status).payload == b"online"


def test_a_phone_that_drops_and_rejoins_gets_what_it_missed(tmp_path: Path, broker: str) -> None:
    with running_table(tmp_path, broker) as run:
        host, ana = joined(run, "host"), joined(run, "ana")
        ana.close()  # the phone sleeps
        got, _ = send_until_answered(run, host, "host", "h1", "ballot.open",
                                     {"name": "exile", "options": ["ana", "ben"]})
        assert got["ok"]
        back = joined(run, "ana")  # and wakes up with the same credential
        t, user = run.phones.topics, run.cred("ana").user
        view = back.got(lambda m: m.topic == t.view(user)).json()
        assert view["private"]["ballots"]["exile"] == {"eligible": True, "my_vote": None}
        got, _ = send_until_answered(run, back, "ana", "v1", "ballot.vote", {"name": "exile", "option": "ben"})
        assert got["ok"]


def test_a_command_whose_reply_was_lost_is_applied_once_when_sent_again(tmp_path: Path, broker: str) -> None:
    with running_table(tmp_path, broker) as run:
        host = joined(run, "host")
        got, _ = send_until_answered(run, host, "host", "h1", "counter.create", {"name": "gold", "players": ["ana"]})
        assert got["ok"]
        t, user = run.phones.topics, run.cred("ana").user
        ana = joined(run, "ana")
        payload = json.dumps({"id": "once", "move": "counter.adjust", "args": {"name": "gold", "delta": 5}})
        ana.client.publish(t.cmd(user), payload, qos=1).wait_for_publish(10)  # the broker has it...
        ana.close()  # ...and the phone is gone before any reply can reach it
        again = joined(run, "ana")
        answers = [send_until_answered(run, again, "ana", "once", "counter.adjust", {"name": "gold", "delta": 5})[0]]
        answers += [m.json() for m in again.seen if m.topic == t.reply(user) and m.json() not in answers]
        assert {a["seq"] for a in answers} == {answers[0]["seq"]} and all(a["ok"] for a in answers)
        once = [ev for ev in run.referee.log.events(run.referee.game_id) if ev.input.id == "once"]
        assert len(once) == 1  # whether the first send got through or not, the command counts once
        assert run.referee.view("player:ana")["private"]["counters"]["gold"] == 5
