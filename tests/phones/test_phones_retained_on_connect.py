"""A phone that connects gets no other seat's retained view, even before it subscribes to anything.

Found by the phone page test (tests/phones/test_phone_page.py) on the embedded broker of the time (amqtt
0.12.1 sent a connecting client the retained messages of *every* client's subscriptions, asking no
ACL); kept as a check of Mosquitto, the one broker since issue 32.
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
