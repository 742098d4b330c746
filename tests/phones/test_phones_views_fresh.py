"""No phone's view is ever stale: the mirror publishes a view only when its bytes changed, and the public
view before the seats' views are made (docs/performance.md, "Pi Zero 2 W budget"); after every input
of the 9-player Lockdown demo game, on both real brokers, what each seat's phone, the host's phone and
the public topic last received equals the view computed afresh from the referee's state, and at the
end a phone that connects anew gets exactly those views as the broker's retained messages."""

from __future__ import annotations

import contextlib
import json
import queue
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from companion.core.eventlog import EventLog, setup_from_json
from companion.core.referee import HOST_VIEW, PUBLIC, Outcome, Referee
from companion.games import registry
from companion.table.views import encode, with_lines
from tests.kits.phone_page_kit import StillClock
from tests.kits.phones_kit import BROKERS, WAIT_S, Message, Phone, Running, phone, serving

SCRIPT = Path(__file__).resolve().parents[2] / "docs" / "games" / "lockdown" / "lockdown-9p.jsonl"


def script() -> tuple[dict[str, Any], list[dict[str, Any]]]:
    lines = [json.loads(t) for t in SCRIPT.read_text(encoding="utf-8").splitlines() if t and not t.startswith("#")]
    return lines[0], lines[1:]


def fresh(run: Running, audience: str) -> bytes:
    """The view as the phones are sent it, computed now from the referee's state (no `Views` kept)."""
    public = run.referee.view(PUBLIC)
    view = with_lines(run.referee.view(audience), public)
    seats = run.phones.mirror.phone_seats
    if audience == HOST_VIEW and seats is not None:
        view["phone_seats"] = seats()
    return encode(view)


def watchers(run: Running) -> dict[str, tuple[Phone, str]]:
    """audience -> (a phone subscribed to that audience's topic with its own credential, the topic)."""
    t, out = run.phones.topics, {}
    for who in ["host", *(p.id for p in run.referee.setup.players)]:
        p = phone(run, who)
        assert not p.connect().is_failure
        topic = t.view(run.cred(who).user)
        p.subscribe(topic, *([t.public] if who == "host" else []))
        out[HOST_VIEW if who == "host" else f"player:{who}"] = (p, topic)
    out[PUBLIC] = (out[HOST_VIEW][0], t.public)
    return out


def last_on(p: Phone, topic: str, want: bytes) -> bytes:
    """What `p` last received on `topic` once it received `want` there (or the last before the wait ran out)."""
    got = [m.payload for m in p.seen if m.topic == topic]
    if got and got[-1] == want:
        return want
    with contextlib.suppress(queue.Empty):
        p.wait_for(lambda m: m.topic == topic and m.payload == want)
    return [m.payload for m in p.seen if m.topic == topic][-1]


def on(topic: str) -> Callable[[Message], bool]:
    return lambda m: m.topic == topic


@pytest.mark.parametrize("broker", BROKERS)
def test_after_every_input_each_phone_holds_the_view_computed_afresh(tmp_path: Path, broker: str) -> None:
    setup, inputs = script()
    referee = Referee.start(registry(), EventLog(tmp_path / "game.sqlite3"), setup_from_json(setup), created_at=0)
    clock = StillClock(0)
    with serving(referee, tmp_path, broker, clock=clock) as run:
        watching = watchers(run)
        answers: queue.Queue[Outcome] = queue.Queue()
        for k, line in enumerate(inputs):
            clock.now = line["at"]  # the recorded game's time: its timers run out where they did
            run.table.put({key: v for key, v in line.items() if key != "at"}, answers.put)
            assert answers.get(timeout=WAIT_S).accepted, (k, line)
            for audience, (p, topic) in watching.items():
                want = fresh(run, audience)
                assert last_on(p, topic, want) == want, (k, line, audience)
        assert run.referee.view(PUBLIC)["ended"]
        for audience, (_, topic) in watching.items():  # what the broker keeps for a phone that joins now
            who = "host" if audience in (HOST_VIEW, PUBLIC) else audience.split(":", 1)[1]
            late = phone(run, who)
            assert not late.connect().is_failure
            late.subscribe(topic)
            kept = late.wait_for(on(topic))
            assert kept.retain and kept.payload == fresh(run, audience), audience
            late.close()
