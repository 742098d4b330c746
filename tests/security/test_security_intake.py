"""Hostile commands at the door (issue 16, items 2 and 3), against both real brokers started here.

One player's phone (ana's) sends what no honest page sends, on her own seat's command topic: an id
holding a lone UTF-16 surrogate, a string with one as a key, JSON nested thousands deep inside the
4 KiB limit, NaN and a number that parses to infinity, an integer of 300 digits, a string of 3,900
characters, and bytes that are not UTF-8. Each must get a clear `reject.malformed` on her own reply
topic (strict JSON, as the page's JSON.parse reads it), change nothing, and leave the table's loop and
the mirror's MQTT thread running: another phone's next command is answered.

And one layer down, for the bugs not found yet: the table's loop outlives a reply callback or an
output that raises, and says so in the journal without the payload.
"""

from __future__ import annotations

import json
import logging
import queue
import threading
from pathlib import Path
from typing import Any

import pytest

from companion.core.contract import Player, Setup
from companion.core.eventlog import EventLog
from companion.core.referee import Outcome, Referee
from companion.games import registry
from companion.table.loop import Table
from companion.table.views import Views
from tests.kits.phones_kit import BROKERS, WAIT_S, Message, Running, command, joined, running_table


def _obj(head: str, tail: str = "}") -> bytes:
    return (head + tail).encode()


# name: (payload, the id the reply carries, words of the problem it names)
HOSTILE: dict[str, tuple[bytes, str | None, str]] = {
    "surrogate-id": (b'{"id":"\\ud800","move":"dice.roll"}', None, "not valid Unicode"),
    "surrogate-key": (b'{"id":"k1","move":"dice.roll","args":{"\\udc00":1}}', "k1", "not valid Unicode"),
    "deep-bare": (b"[" * 4000, None, "nested deeper"),
    "deep-in-args": (_obj('{"id":"d1","move":"dice.roll","args":{"x":' + "[" * 2000 + "]" * 2000, "}}"),
                     "d1", "nested deeper"),  # the id still read, from the first bytes
    "nan": (b'{"id":"n1","move":"counter.adjust","args":{"name":"gold","delta":NaN}}', "n1", "not finite"),
    "infinity": (b'{"id":"n2","move":"counter.adjust","args":{"name":"gold","delta":1e400}}', "n2", "not finite"),
    "huge-int": (_obj('{"id":"i1","move":"counter.adjust","args":{"name":"gold","delta":' + "9" * 300, "}}"),
                 "i1", "integer"),
    "huge-string": (_obj('{"id":"s1","move":"counter.adjust","args":{"delta":1,"name":"' + "x" * 3900, '"}}'),
                    "s1", "longer than"),
    "not-utf8": (b'{"id":"\xed\xa0\x80","move":"dice.roll"}', None, "not UTF-8"),  # an encoded surrogate
}


def strict(payload: bytes) -> Any:
    """JSON as a browser's JSON.parse reads it: UTF-8, no NaN or Infinity."""
    def refuse(word: str) -> Any:
        raise ValueError(f"not JSON: {word}")
    return json.loads(payload.decode("utf-8"), parse_constant=refuse)


def state(run: Running) -> tuple[int, dict[str, Any], dict[str, Any]]:
    return run.events(), run.referee.view("public"), run.referee.view("player:ana")


@pytest.mark.parametrize("broker", BROKERS)
@pytest.mark.parametrize("name", list(HOSTILE))
def test_a_hostile_command_is_refused_at_the_door_and_the_table_plays_on(tmp_path: Path, broker: str,
                                                                         name: str) -> None:
    payload, cid, problem = HOSTILE[name]
    assert len(payload) <= 4096  # inside the size limit: the size check alone does not catch it
    with running_table(tmp_path, broker) as run:
        host, ana, ben = joined(run, "host"), joined(run, "ana"), joined(run, "ben")
        assert command(host, run, "host", "h1", "counter.create", name="gold")["ok"]
        before = state(run)
        reply_topic = run.phones.topics.reply(run.cred("ana").user)
        ana.publish(run.phones.topics.cmd(run.cred("ana").user), payload)

        def answer(m: Message) -> bool:
            return m.topic == reply_topic and strict(m.payload).get("id") == cid

        got = strict(ana.wait_for(answer).payload)
        assert got["ok"] is False
        assert got["reason"]["code"] == "reject.malformed", got
        assert problem in got["reason"]["params"]["problem"], got
        assert state(run) == before  # nothing changed
        assert command(ben, run, "ben", "b1", "dice.roll")["ok"]  # the mirror and the table's loop still run
        assert command(ana, run, "ana", "a1", "counter.adjust", name="gold", delta=1)["ok"]  # ana too
        assert run.thread.is_alive()
        assert run.events() == before[0] + 2


MARKER = "hostile-marker-\ud800"


class BrokenOutput:
    """An output with a bug: it raises on every change, quoting what it was given."""

    def changed(self, views: Views, outcomes: list[Outcome]) -> None:
        raise ValueError(f"cannot show {MARKER}")


def test_the_tables_loop_outlives_a_failing_reply_and_a_failing_output(tmp_path: Path,
                                                                       caplog: pytest.LogCaptureFixture) -> None:
    setup = Setup("toolkit", (Player("ana", "Ana"),), {}, seed=1)
    told: list[int] = []

    class Recording:
        def changed(self, views: Views, outcomes: list[Outcome]) -> None:
            told.append(len(table.referee.events))

    table = Table(Referee.start(registry(), EventLog(tmp_path / "game.sqlite3"), setup, created_at=0),
                  outputs=[BrokenOutput(), Recording()])
    def broken_hook() -> None:  # a turn hook with a bug
        raise ZeroDivisionError("division by zero")

    table.turn_hooks.append(broken_hook)
    answers: queue.Queue[Outcome] = queue.Queue()

    def unencodable_reply(outcome: Outcome) -> None:
        MARKER.encode("utf-8")  # what the mirror's reply did with a lone surrogate in the id

    thread = threading.Thread(target=table.run, name="table", daemon=True)
    caplog.set_level(logging.ERROR, logger="companion.table.loop")
    thread.start()
    try:
        table.put({"move": "dice.roll", "by": "player:ana", "args": {}, "id": "a1"}, unencodable_reply)
        table.put({"move": "dice.roll", "by": "player:ana", "args": {}, "id": "a2"}, answers.put)
        assert answers.get(timeout=WAIT_S).accepted  # the loop went on, and answered the next input
        assert thread.is_alive()
        assert told == [1, 2]  # the output after the broken one was still told, each time
        logged = [r.getMessage() for r in caplog.records]
        assert any("a reply failed: UnicodeEncodeError" in m for m in logged), logged
        assert any("output BrokenOutput failed: ValueError" in m for m in logged), logged
        assert any("ZeroDivisionError" in m for m in logged), logged
        assert not any("hostile-marker" in m or "\ud800" in m for m in logged)  # never the payload
    finally:
        table.stop()
        thread.join(WAIT_S)
        table.referee.log.close()
