"""Nothing lost when a link drops, nothing sent twice (issues 32 and 28), in Chromium on the managed Mosquitto.

The referee keeps a persistent MQTT session with QoS 1 subscriptions: a vote sent while only the
referee's own TCP connection is cut (a relay between it and the broker) is queued by the broker and
answered once the referee is back, and applied once although the page sent it again meanwhile (same id,
the referee answers the copies as duplicates). A double tap on Send sends one command: Send is disabled
from the tap until the reply.
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser

from companion.phones.mirror import BrokerAddress
from tests.kits.phone_page_kit import WAIT_MS, PhonePage, serving
from tests.kits.phones_kit import WAIT_S, Running, running_table
from tests.kits.tcp_relay import Relay


def host(run: Running, move: str, **args: Any) -> None:
    run.table.put({"by": "host", "move": move, "args": args})


def votes_in_log(run: Running) -> list[tuple[str, dict[str, Any]]]:
    return [(ev.input.by, dict(ev.input.args)) for ev in run.referee.log.events(run.referee.game_id)
            if ev.input.move == "ballot.vote"]


def sent_ids(phone: PhonePage, move: str) -> set[str]:
    """The ids of the commands of `move` the page published (read off its WebSocket frames)."""
    found = set()
    for frame in phone.frames:
        for m in re.finditer(rb'\{"id":"([^"]+)","move":"([^"]+)"', frame):
            if m[2].decode() == move:
                found.add(m[1].decode())
    return found


@pytest.fixture
def relayed(tmp_path: Path) -> Iterator[tuple[Running, Relay]]:
    """A table on the managed Mosquitto whose referee reaches the broker through a relay the test can cut."""
    made: list[Relay] = []

    def route(address: BrokerAddress) -> BrokerAddress:
        made.append(Relay(address.host, address.port))
        return dataclasses.replace(address, host="127.0.0.1", port=made[0].port)

    try:
        with running_table(tmp_path, "mosquitto", players=["ana", "ben"], referee_route=route) as run:
            yield run, made[0]
    finally:
        for r in made:
            r.close()


def test_a_vote_sent_while_the_referees_link_is_cut_is_answered_once_it_is_back(
        relayed: tuple[Running, Relay], browser: Browser) -> None:
    run, relay = relayed
    with serving(run) as (_, links):
        host(run, "ballot.open", name="exile", options=["red", "blue"])
        ana = PhonePage.open(browser, links["ana"].url())
        try:
            ana.online()
            ana.form("ballot.vote")
            connections = run.phones.mirror.connections
            relay.cut()  # only the referee's own TCP connection: the page stays connected to the broker
            ana.page.wait_for_selector("#referee-offline:not([hidden])", timeout=WAIT_MS)  # the referee's will
            assert ana.page.locator(".link[data-state='online']").count() == 1
            ana.choose_and_send("ballot.vote", "red")
            ana.page.wait_for_selector("form[data-move='ballot.vote'] .form-state:has-text('Sending')", timeout=WAIT_MS)
            # the page sends it again while no reply comes (the same id), and the broker keeps every copy
            pending = "JSON.parse(Object.entries(localStorage).find(([k]) => k.startsWith('companion.pending.'))[1])"
            first = ana.page.evaluate(f"() => {pending}[0].at")
            ana.page.wait_for_function(f"(first) => {pending}[0].at > first", arg=first, timeout=WAIT_MS)
            assert votes_in_log(run) == []
            relay.restore()
            ana.toast("Done.")
            ana.page.wait_for_selector(".my-vote:has-text('Your vote: red')", timeout=WAIT_MS)
            assert run.phones.mirror.connections > connections  # it was the reconnected referee that answered
            assert votes_in_log(run) == [("player:ana", {"name": "exile", "option": "red"})]
            assert len(sent_ids(ana, "ballot.vote")) == 1  # one command, however often it was sent
        finally:
            ana.close()


def test_a_double_tap_on_send_sends_one_command(tmp_path: Path, browser: Browser) -> None:
    with running_table(tmp_path, "mosquitto", players=["ana", "ben"]) as run, serving(run) as (_, links):
        host(run, "counter.create", name="coins", initial=4, low=0, high=99)
        ana = PhonePage.open(browser, links["ana"].url())
        try:
            ana.online()
            form = ana.page.locator(ana.form("dice.roll"))
            sends = form.locator("button.send")
            sends.dblclick()
            ana.toast("Done.")
            assert len(sent_ids(ana, "dice.roll")) == 1
            rolls = [ev for ev in run.referee.log.events(run.referee.game_id) if ev.input.move == "dice.roll"]
            assert len(rolls) == 1
            # and Send works again once the reply has come
            ana.page.wait_for_selector("form[data-move='dice.roll'] button.send:not([disabled])", timeout=WAIT_MS)
            assert json.loads(ana.page.evaluate(
                "() => Object.entries(localStorage).find(([k]) => k.startsWith('companion.pending.'))[1]")) == []
        finally:
            ana.close()


def test_send_is_disabled_from_the_tap_until_the_reply(relayed: tuple[Running, Relay], browser: Browser) -> None:
    run, relay = relayed
    with serving(run) as (_, links):
        ana = PhonePage.open(browser, links["ana"].url())
        try:
            ana.online()
            form = ana.page.locator(ana.form("dice.roll"))
            relay.cut()  # no reply can come while the referee is away
            ana.page.wait_for_selector("#referee-offline:not([hidden])", timeout=WAIT_MS)
            form.locator("button.send").click()
            assert form.locator("button.send").is_disabled()
            form.locator("button.send").click(force=True)  # a second tap on the disabled button does nothing
            assert len(sent_ids(ana, "dice.roll")) == 1
            relay.restore()
            ana.toast("Done.")
            ana.page.wait_for_selector("form[data-move='dice.roll'] button.send:not([disabled])", timeout=WAIT_MS)
            assert len([ev for ev in run.referee.log.events(run.referee.game_id) if ev.input.move == "dice.roll"]) == 1
            assert relay.wait_accepted(2, WAIT_S)
        finally:
            ana.close()
