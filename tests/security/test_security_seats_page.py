"""The real phone page (headless Chromium) takes a seat with its code, and a photo of the code does not.

Ana's page opens her seat's join link (read off the QR code as a camera would), claims the seat with a
password it made itself, shows her own view, and still holds the seat after a reload. A second phone
(its own browser context) opening the same link is told the seat is taken and never receives Ana's
view. The host releases the seat from the host's page: Ana's page says so, and the seat's new code
takes a new phone.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser

from companion import i18n
from companion.phones.join import seat_links
from tests.kits.phone_page_kit import WAIT_MS, PhonePage, scan, serving
from tests.kits.phones_kit import BROKERS, Running, running_table


def host(run: Running, move: str, **args: Any) -> None:
    run.table.put({"by": "host", "move": move, "args": args})


def stored(phone: PhonePage, key: str) -> Any:
    return json.loads(phone.page.evaluate(f"localStorage.getItem({json.dumps(key)}) ?? 'null'"))


def problem(phone: PhonePage, text: str) -> None:
    phone.page.wait_for_selector(f"#join:not([hidden]) #join-problem:not([hidden]):has-text({json.dumps(text)})",
                                 timeout=WAIT_MS)


@pytest.mark.parametrize("broker", BROKERS)
def test_the_page_takes_its_seat_keeps_it_after_a_reload_and_a_photo_of_the_code_is_refused(
        tmp_path: Path, broker: str, browser: Browser) -> None:
    with running_table(tmp_path, broker, players=["ana", "ben"]) as run, serving(run) as (_, links):
        host(run, "counter.create", name="coins", initial=0, low=0, high=999)
        run.table.put({"by": "player:ana", "move": "counter.adjust", "args": {"name": "coins", "delta": 417}})
        url = scan(links["ana"])  # the code on the setup screen: Ana scans it, Ben photographs it
        ana = PhonePage.open(browser, url)
        photo: PhonePage | None = None
        try:
            ana.online()
            ana.page.wait_for_selector(".counter .secret:has-text('Yours: 417')", timeout=WAIT_MS)
            assert ana.page.locator("#who").inner_text() == "You are Ana"
            seat = stored(ana, "companion.seat")
            assert seat["user"] == run.cred("ana").user and seat["user"] != links["ana"].user
            assert seat["pass"] == run.cred("ana").password  # the seat's password is the one the page made
            assert seat["pass"] != links["ana"].password and len(seat["pass"]) == 24
            assert stored(ana, "companion.claim") is None
            seats = run.phones.seating.bound()
            assert (seats["players"], seats["host"]) == ({"ana": True, "ben": False}, False)
            assert list(seats["codes"]) == ["ben"]  # the free seat's code, for the host's page

            ana.page.reload()  # a reload (or the phone waking) keeps the seat: no new claim
            ana.online()
            ana.page.wait_for_selector(".counter .secret:has-text('Yours: 417')", timeout=WAIT_MS)
            assert stored(ana, "companion.seat") == seat

            photo = PhonePage.open(browser, url)  # another phone, the same code
            problem(photo, i18n.translate("en", "reject.seat_taken"))
            assert stored(photo, "companion.seat") is None and stored(photo, "companion.claim") is None
            assert ana.holds(b'"coins":417')  # the check finds Ana's secret where it belongs ...
            assert not photo.holds(b'"coins":417') and not photo.holds(b"Yours:")  # ... not on the photo's page
            assert not photo.holds(f"seat/{run.cred('ana').user}/".encode())
            assert not photo.holds(seat["pass"].encode())
            ana.page.wait_for_selector(".link[data-state='online']", timeout=WAIT_MS)  # Ana kept her seat
        finally:
            ana.close()
            if photo is not None:
                photo.close()


def test_the_host_releases_a_seat_from_the_hosts_page_and_the_new_code_takes_a_new_phone(
        tmp_path: Path, browser: Browser) -> None:
    with running_table(tmp_path, "mosquitto", players=["ana", "ben"]) as run, serving(run) as (server, links):
        chief, ana = PhonePage.open(browser, scan(links["host"])), PhonePage.open(browser, scan(links["ana"]))
        newcomer: PhonePage | None = None
        try:
            chief.online()
            ana.online()
            assert chief.page.locator("#who").inner_text() == "You are the host"
            row = chief.page.locator("#phone-seats .seat-row[data-player='ana']")
            chief.page.wait_for_selector("#phone-seats .seat-row[data-player='ana'][data-bound='true']",
                                         timeout=WAIT_MS)
            assert row.inner_text().startswith("Ana: on a phone")
            assert chief.page.locator("#phone-seats .seat-row[data-player='ben']").inner_text() == "Ben: no phone yet"
            assert not ana.page.locator("#phone-seats .seat-row").count()  # only the host's page shows seats

            row.locator("button.release").click()  # the first step asks
            assert run.phones.seating.holds("ana")
            yes = i18n.translate("en", "phone.seat.release_yes")
            chief.page.locator(f"#phone-seats .confirm button:text-is('{yes}')").click()
            chief.toast("Done.")
            problem(ana, i18n.translate("en", "phone.seat_released"))
            assert stored(ana, "companion.seat") is None
            chief.page.wait_for_selector("#phone-seats .seat-row[data-player='ana'][data-bound='false']",
                                         timeout=WAIT_MS)

            fresh = seat_links(run.phones, f"http://127.0.0.1:{server.port}/")
            assert fresh["ana"].password != links["ana"].password  # the seat has a new code
            newcomer = PhonePage.open(browser, scan(fresh["ana"]))
            newcomer.online()
            assert newcomer.page.locator("#who").inner_text() == "You are Ana"
            chief.page.wait_for_selector("#phone-seats .seat-row[data-player='ana'][data-bound='true']",
                                         timeout=WAIT_MS)
            ana.page.goto(f"http://127.0.0.1:{server.port}/")  # the old phone, opened again: nothing kept
            ana.page.wait_for_selector("#join:not([hidden])", timeout=WAIT_MS)
        finally:
            for phone in (chief, ana, newcomer):
                if phone is not None:
                    phone.close()
