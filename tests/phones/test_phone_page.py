"""The phone page in a real browser (headless Chromium) against a real broker, the mirror and the table.

Two players join by their seats' QR codes, vote in secret in the toolkit game, and the tally reaches
both pages; neither page's DOM, WebSocket frames or console ever holds the other player's vote. A page
that reloads rejoins with the seat it stored and shows the current state; a vote sent while the broker
is down is applied once when it is back.
"""

from __future__ import annotations

import json
import logging
import time
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser

from companion import i18n
from companion.phones.join import JoinLink
from tests.kits.phone_page_kit import WAIT_MS, PhonePage, scan, serving
from tests.kits.phones_kit import BROKERS, Running, running_table


def host(run: Running, move: str, **args: Any) -> None:
    """The host acts at the table (the kiosk or the console), not through a phone."""
    run.table.put({"by": "host", "move": move, "args": args})


def votes_in_log(run: Running) -> list[tuple[str, dict[str, Any]]]:
    return [(ev.input.by, dict(ev.input.args)) for ev in run.referee.log.events(run.referee.game_id)
            if ev.input.move == "ballot.vote"]


@pytest.mark.parametrize("broker", BROKERS)
def test_two_players_vote_in_secret_and_the_tally_reaches_both_pages_without_the_others_vote(
        tmp_path: Path, broker: str, browser: Browser) -> None:
    with running_table(tmp_path, broker, players=["ana", "ben", "chai"]) as run, serving(run) as (_, links):
        urls = {who: scan(links[who]) for who in ("ana", "ben")}
        assert urls == {who: links[who].url() for who in ("ana", "ben")}  # the QR code carries the link
        host(run, "ballot.open", name="exile", options=["red", "blue", "green"], voters=["ana", "ben"])
        ana, ben = PhonePage.open(browser, urls["ana"]), PhonePage.open(browser, urls["ben"])
        try:
            for phone in (ana, ben):
                phone.online()
                assert "#" not in phone.page.url  # the credential left the address bar at once
            ana.choose_and_send("ballot.vote", "red")
            ana.toast("Done.")
            ben.choose_and_send("ballot.vote", "blue")
            ben.toast("Done.")
            ana.page.wait_for_selector(".my-vote:has-text('Your vote: red')", timeout=WAIT_MS)
            ben.page.wait_for_selector(".my-vote:has-text('Your vote: blue')", timeout=WAIT_MS)
            assert votes_in_log(run) == [("player:ana", {"name": "exile", "option": "red"}),
                                         ("player:ben", {"name": "exile", "option": "blue"})]

            host(run, "ballot.close", name="exile")
            for phone in (ana, ben):
                phone.page.wait_for_selector(".ballot .winner:has-text('No winner')", timeout=WAIT_MS)
                totals = phone.page.locator(".ballot .totals li").all_inner_texts()
                assert [" ".join(t.split()) for t in totals] == ["red 1", "blue 1", "green 0"]

            # The check finds each vote where it belongs (so it would find a leak) ...
            assert ana.holds(b'"my_vote":"red"') and ben.holds(b'"my_vote":"blue"')
            assert "Your vote: red" in ana.text() and "Your vote: blue" in ben.text()
            # ... and never on the other player's page: not in the DOM, a frame or the console.
            for phone, other, vote in ((ana, "ben", "blue"), (ben, "ana", "red")):
                cred = run.cred(other)
                assert not phone.holds(f'"my_vote":"{vote}"'.encode())
                assert not phone.holds(f"Your vote: {vote}".encode())
                assert not phone.holds(cred.user.encode()), f"{other}'s seat topic reached a foreign page"
                assert not phone.holds(cred.password.encode())
                assert not any(vote in line for line in phone.console), phone.console
        finally:
            ana.close()
            ben.close()


def test_a_reloaded_page_rejoins_with_its_stored_seat_and_sees_the_current_state(
        tmp_path: Path, browser: Browser) -> None:
    with running_table(tmp_path, "mosquitto", players=["ana", "ben"]) as run, serving(run) as (server, links):
        ana = PhonePage.open(browser, scan(links["ana"]))
        try:
            ana.online()
            ana.page.wait_for_selector("#forms form[data-move='dice.roll']", timeout=WAIT_MS)
            ana.page.close()  # the phone sleeps; the table goes on
            host(run, "ballot.open", name="exile", options=["red", "blue"])
            host(run, "counter.create", name="coins", initial=4, low=0, high=9)

            # Opening the page's plain address (no fragment: the credential comes from localStorage)
            ana.page = ana.context.new_page()
            ana.page.on("websocket", ana._watch)
            ana.page.goto(f"http://127.0.0.1:{server.port}/")
            ana.online()
            ana.page.wait_for_selector(".counter .secret:has-text('Yours: 4')", timeout=WAIT_MS)
            ana.choose_and_send("ballot.vote", "blue")
            ana.toast("Done.")

            ana.page.reload()  # and a reload keeps the seat too
            ana.online()
            ana.page.wait_for_selector(".my-vote:has-text('Your vote: blue')", timeout=WAIT_MS)
            assert "Ana" in ana.page.locator("#who").inner_text()
            assert votes_in_log(run) == [("player:ana", {"name": "exile", "option": "blue"})]
        finally:
            ana.close()


def test_a_vote_sent_while_the_broker_is_down_is_applied_once_when_it_is_back(
        tmp_path: Path, browser: Browser) -> None:
    with running_table(tmp_path, "mosquitto", players=["ana", "ben"]) as run, serving(run) as (_, links):
        host(run, "ballot.open", name="exile", options=["red", "blue"])
        ana = PhonePage.open(browser, links["ana"].url())
        try:
            ana.online()
            ana.form("ballot.vote")
            run.phones.broker.stop()
            ana.page.wait_for_selector(".link[data-state='reconnecting']", timeout=WAIT_MS)
            ana.choose_and_send("ballot.vote", "red")  # queued on the phone, kept in its storage
            ana.page.wait_for_selector("form[data-move='ballot.vote'] .form-state:has-text('Sending')",
                                       timeout=WAIT_MS)
            run.phones.broker.start()
            run.phones.broker.set_game(run.phones.game)
            ana.toast("Done.")
            ana.page.wait_for_selector(".my-vote:has-text('Your vote: red')", timeout=WAIT_MS)
            assert votes_in_log(run) == [("player:ana", {"name": "exile", "option": "red"})]
        finally:
            ana.close()


def test_the_host_closes_the_vote_from_a_phone_and_a_spectator_sees_only_the_table(
        tmp_path: Path, browser: Browser) -> None:
    with running_table(tmp_path, "mosquitto", players=["ana", "ben"], spectators=1) as run, \
            serving(run) as (_, links):
        host(run, "ballot.open", name="exile", options=["red", "blue"])
        run.table.put({"by": "player:ana", "move": "ballot.vote", "args": {"name": "exile", "option": "blue"}})
        chief, fan = PhonePage.open(browser, links["host"].url()), PhonePage.open(browser, links["spectator1"].url())
        try:
            chief.online()
            fan.online()
            assert chief.page.locator("#who").inner_text() == "You are the host"
            assert fan.page.locator("#who").inner_text() == "You are watching"
            fan.page.wait_for_selector(".ballot .meta:has-text('1 of 2 voted')", timeout=WAIT_MS)
            assert fan.page.locator("#actions").is_hidden()
            chief.page.locator(chief.form("ballot.close")).locator("button.send").click()
            chief.toast("Done.")
            for phone in (chief, fan):
                phone.page.wait_for_selector(".ballot .winner:has-text('Result: blue')", timeout=WAIT_MS)
                assert not phone.page.locator(".my-vote").count()  # neither seat has a vote to show
            assert not fan.holds(b'"my_vote"') and not fan.holds(b"/seat/")  # nothing of any seat reached it
        finally:
            chief.close()
            fan.close()


class BehindClock:
    """A Pi without a network clock: an hour behind the phone's."""

    def now_ms(self) -> int:
        return time.time_ns() // 1_000_000 - 3_600_000


def test_timers_count_down_on_the_tables_clock_even_when_the_phones_clock_differs(
        tmp_path: Path, browser: Browser) -> None:
    with running_table(tmp_path, "mosquitto", players=["ana"]) as run:
        run.table.clock = BehindClock()  # before the page server reads it and before any timer starts
        with serving(run) as (_, links):
            host(run, "timer.create", name="round", seconds=90)
            host(run, "timer.start", name="round")
            ana = PhonePage.open(browser, links["ana"].url())
            try:
                ana.online()
                shown = ana.page.locator(".timer[data-state='running']")
                shown.wait_for(timeout=WAIT_MS)
                # counting on the phone's own clock would show 0:00 (the deadline looks an hour past)
                ana.page.wait_for_function(
                    "() => /^1:[0-2][0-9]$/.test(document.querySelector('.timer').textContent)", timeout=WAIT_MS)
                minutes, seconds = shown.inner_text().split(":")
                assert 60 < int(minutes) * 60 + int(seconds) <= 90
            finally:
                ana.close()


def test_the_credential_never_reaches_the_server(tmp_path: Path, browser: Browser,
                                                 caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG, logger="companion.phones.pageserver")
    with running_table(tmp_path, "mosquitto", players=["ana"]) as run, serving(run) as (_, links):
        phone = PhonePage.open(browser, links["ana"].url())
        try:
            phone.online()
        finally:
            phone.close()
    requests = [r.getMessage() for r in caplog.records if r.name == "companion.phones.pageserver"]
    assert any('"GET / HTTP/1.1" 200' in line for line in requests), requests  # the server did log requests
    assert any("/i18n/en.json" in line for line in requests)
    for secret in (run.cred("ana").password, run.cred("ana").user, "#"):
        assert not any(secret in line for line in requests), (secret, requests)


def test_a_command_made_offline_on_a_view_that_changed_is_told_in_the_players_language(
        tmp_path: Path, browser: Browser) -> None:
    with running_table(tmp_path, "mosquitto", players=["ana", "ben"]) as run, serving(run) as (_, links):
        host(run, "ballot.open", name="exile", options=["red", "blue"])
        ana = PhonePage.open(browser, links["ana"].url(), locale="th-TH")
        try:
            ana.online()
            ana.form("ballot.vote")
            run.phones.broker.stop()  # Ana's phone loses the table for a moment ...
            ana.page.wait_for_selector(".link[data-state='reconnecting']", timeout=WAIT_MS)
            ana.choose_and_send("ballot.vote", "red")
            host(run, "ballot.close", name="exile")  # ... and the vote closes before her vote arrives
            run.phones.broker.start()
            run.phones.broker.set_game(run.phones.game)
            # made on a view that changed meanwhile, it is not sent: she is told why, in her language
            ana.toast(i18n.translate("th", "phone.stale_command"))
            assert votes_in_log(run) == []
            assert ana.page.evaluate("localStorage.getItem('companion.pending.' + "
                                     f"{json.dumps(run.cred('ana').user)})") == "[]"  # answered: not resent again
        finally:
            ana.close()


def test_a_refused_seat_goes_back_to_the_join_screen_in_the_phones_language(
        tmp_path: Path, browser: Browser) -> None:
    with running_table(tmp_path, "mosquitto", players=["ana"]) as run, serving(run) as (_, links):
        stale = links["ana"]
        wrong = JoinLink(stale.page, stale.ws, stale.base, stale.user, "not-the-password")
        phone = PhonePage.open(browser, wrong.url(), locale="zh-CN")
        try:
            phone.page.wait_for_selector("#join:not([hidden]) #join-problem:not([hidden])", timeout=WAIT_MS)
            assert "二维码" in phone.page.locator("#join").inner_text()
            assert phone.page.evaluate("localStorage.getItem('companion.seat')") is None  # forgotten
        finally:
            phone.close()
