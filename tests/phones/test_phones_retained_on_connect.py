"""A phone that connects gets no other seat's retained view, even before it subscribes to anything.

Found by the phone page test (tests/phones/test_phone_page.py): amqtt 0.12.1's Broker.client_connected, after
the CONNACK, sends the connecting client the retained messages of *every* filter in its subscription
table (all clients' subscriptions, not this session's) and asks no ACL, so while Ana's phone was
subscribed to her own seat's view, Ben's phone received Ana's retained private view when it connected.
The embedded broker now sends only the session's own subscriptions' matches, through the ACL.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.kits.phones_kit import BROKERS, WAIT_S, joined, phone, running_table


@pytest.mark.parametrize("broker", BROKERS)
def test_a_connecting_phone_gets_no_other_seats_retained_view(tmp_path: Path, broker: str) -> None:
    with running_table(tmp_path, broker, players=["ana", "ben"]) as run:
        run.table.put({"by": "host", "move": "ballot.open", "args": {"name": "exile", "options": ["a", "b"]}})
        ana = joined(run, "ana")  # subscribed to her own seat's view, which is retained
        ana_view = run.phones.topics.view(run.cred("ana").user)
        ana.wait_for(lambda m: m.topic == ana_view and bool(m.json()["table"]["ballots"]))
        ben = phone(run, "ben")
        assert not ben.connect().is_failure
        t = run.phones.topics
        ben.subscribe(t.status)  # anything, to know that what the broker sends on connect has arrived
        ben.wait_for(lambda m: m.topic == t.status, timeout=WAIT_S)
        foreign = [m.topic for m in ben.seen if "/seat/" in m.topic]
        assert foreign == [], f"{broker}: Ben's phone received {foreign}"
        ana.close()
        ben.close()
