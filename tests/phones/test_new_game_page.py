"""Another game from the host's phone (issue 21), in headless Chromium, on each real broker.

A Lockdown table (Ana and Ben have sent their secret setup) with the host's, Ana's and Ben's pages open.
The host ends the game with the host menu's "End the game", then fills the "New game" form: Room 25,
Ana renamed, Ben removed, Chai and Dao added (fresh ids p1, p2), the mode "competition". The table
starts it without a restart: the host's page and Ana's follow their seats into the new game on their
own, Ben's page is dropped and shows nothing of the new game, and Chai's phone joins by the new code.
Then the host ends Room 25 and "Play again" starts the same game again, while Chai's phone sleeps: it
finds its seat in the new game when the page opens again. Screenshots of the host's
page at phone size, in English and Thai, go to KIOSK_SHOTS (or a temporary folder).
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser

from companion import games, i18n, scripting
from companion.core.eventlog import EventLog
from companion.phones.join import seat_links
from tests.kits.kiosk_fixtures import shots_dir
from tests.kits.phone_page_kit import WAIT_MS, PhonePage, StillClock, serving
from tests.kits.phones_kit import BROKERS, Running
from tests.kits.phones_kit import serving as table_serving

__all__ = ["shots_dir"]

SETUP = {"game": "lockdown", "players": [{"id": "ana", "name": "Ana"}, {"id": "ben", "name": "Ben"}],
         "options": {"free_seconds": 300, "turn_seconds": 120}, "seed": 3}
LINES = [json.dumps(SETUP),
         json.dumps({"at": 1000, "by": "player:ana", "move": "lockdown.prepare",
                     "args": {"force": 4, "speed": 3, "load": 3, "spawn": "B102"}}),
         json.dumps({"at": 2000, "by": "player:ben", "move": "lockdown.prepare",
                     "args": {"force": 2, "speed": 4, "load": 4, "spawn": "B503"}})]


@contextlib.contextmanager
def running_game(tmp_path: Path, broker: str) -> Iterator[Running]:
    """The recorded Lockdown start, run at a table with its phones on `broker`, the clock standing still."""
    referee = scripting.run(games.registry(), EventLog(tmp_path / "game.sqlite3"), LINES)
    with table_serving(referee, tmp_path, broker, clock=StillClock(2000)) as run:
        yield run


def say(lang: str, msgid: str, **params: object) -> str:
    return i18n.translate(lang, msgid, params)


def end_the_game(chief: PhonePage, lang: str = "en") -> None:
    selector = f"#host-menu button:text-is('{say(lang, 'host.menu.end')}')"
    chief.page.wait_for_selector(selector, timeout=WAIT_MS)
    chief.page.locator(selector).click()  # the first step only asks
    yes = f"#host-menu .confirm button:text-is('{say(lang, 'phone.end_yes')}')"
    chief.page.wait_for_selector(yes, timeout=WAIT_MS)
    chief.page.locator(yes).click()
    chief.page.wait_for_selector(f"#status-line:has-text('{say(lang, 'phone.game_over')}')", timeout=WAIT_MS)


@pytest.mark.parametrize("broker", BROKERS)
def test_the_host_starts_another_game_from_the_phone_and_a_new_player_joins_by_the_new_code(
        tmp_path: Path, browser: Browser, shots_dir: Path, broker: str) -> None:
    with running_game(tmp_path, broker) as run, serving(run) as (server, links):
        first = run.referee.game_id
        chief = PhonePage.open(browser, links["host"].url())
        ana = PhonePage.open(browser, links["ana"].url())
        ben = PhonePage.open(browser, links["ben"].url())
        pages = [chief, ana, ben]
        try:
            for p in pages:
                p.online()
            assert not chief.page.locator("#new-game").count()  # under way: no "New game" form
            end_the_game(chief)
            form = chief.page.locator("#new-game")
            form.wait_for(timeout=WAIT_MS)
            assert not ana.page.locator("#new-game").count()  # a player's page has no such form
            chief.page.select_option("#new-game-game", "room25")
            form.locator(".new-player[data-player='ana'] input").fill("Ana B.")
            form.locator(".new-player[data-player='ben'] button.remove").click()
            for name in ("Chai", "ดาว"):
                form.locator("#new-game-name").fill(name)
                form.locator("#new-game-add").click()
            assert form.locator(".new-count").inner_text() == say("en", "phone.new_game.count", count=3, low=1, high=6)
            form.locator("label.option[data-option='mode'] select").select_option("competition")
            chief.page.wait_for_selector("#toast", state="hidden", timeout=WAIT_MS)  # the last answer's word goes
            chief.page.screenshot(path=str(shots_dir / "host-page-new-game-en.png"), full_page=True)
            form.locator("#new-game-start").click()

            # the host's page follows its seat into the new game, without a reload
            chief.page.wait_for_selector(".seat-row[data-player='p2'][data-bound='false']", timeout=WAIT_MS)
            assert not chief.page.locator(".seat-row[data-player='ben']").count()
            ana.page.wait_for_selector(f"#who:has-text('{say('en', 'phone.you_are', name='Ana B.')}')", timeout=WAIT_MS)
            ana.online()
            public = run.referee.view("public")
            assert run.referee.game_id == first + 1 and public["game"] == "room25"
            assert public["options"] == {"mode": "competition", "tiles": "digital", "program_seconds": 0}
            assert [(p["id"], p["name"]) for p in public["players"]] == [("ana", "Ana B."), ("p1", "Chai"),
                                                                         ("p2", "ดาว")]
            # Ben's phone: dropped, refused as the new game's seat, back at the join screen
            ben.page.wait_for_selector("#join:not([hidden])", timeout=WAIT_MS)
            new_number = b'"number":%d' % (first + 1)  # the new game's public view it may hear, never a seat's
            assert not any(new_number in f and (b'"private"' in f or b'"host"' in f) for f in ben.frames)
            assert not ben.holds(b'"me":"p1"') and not ben.holds(b'"me":"p2"')

            # Chai joins by the new game's code
            new_links = seat_links(run.phones, f"http://127.0.0.1:{server.port}/")
            assert "ben" not in new_links
            chai = PhonePage.open(browser, new_links["p1"].url())
            pages.append(chai)
            chai.online()
            chai.page.wait_for_selector(f"#who:has-text('{say('en', 'phone.you_are', name='Chai')}')", timeout=WAIT_MS)
            chief.online()
            chief.page.wait_for_selector(".seat-row[data-player='p1'][data-bound='true']", timeout=WAIT_MS)

            # Room 25 ends; "Play again": the same game, players and options, one tap. Chai's phone sleeps
            # through it (its page closed) and finds its seat in the new game when it opens the page again.
            end_the_game(chief)
            chai.page.close()
            chief.page.locator("#play-again").click()
            chief.page.wait_for_function("() => !document.querySelector('#play-again')", timeout=WAIT_MS)
            chai.page = chai.context.new_page()
            chai.page.goto(f"http://127.0.0.1:{server.port}/")  # no code: the seat it holds, from before
            chai.page.wait_for_selector(f"#who:has-text('{say('en', 'phone.you_are', name='Chai')}')", timeout=WAIT_MS)
            chai.online()
            held = json.loads(chai.page.evaluate("() => localStorage.getItem('companion.seat')"))
            assert held["user"].endswith(f".g{first + 2}.p.p1")
            again = run.referee.view("public")
            assert run.referee.game_id == first + 2 and again["options"] == public["options"]
            assert again["players"] == public["players"] and not again["ended"]
            chief.page.select_option("#lang", "th")
            chief.page.wait_for_selector(f"#new-game h2:has-text('{say('th', 'phone.section.new_game')}')",
                                         timeout=WAIT_MS)
            assert not chief.page.locator("#new-game details[open]").count()  # not begun: folded away
            chief.page.locator("#new-game summary").click()
            chief.page.wait_for_selector("#new-game-start:visible", timeout=WAIT_MS)
            assert chief.page.locator("#new-game-start").inner_text() == say(
                "th", "phone.new_game.start", title=say("th", "game.room25.title"))
            chief.page.wait_for_selector("#toast", state="hidden", timeout=WAIT_MS)
            chief.page.screenshot(path=str(shots_dir / "host-page-new-game-th.png"), full_page=True)
            for p in pages:
                assert not [line for line in p.console if line.startswith("pageerror")]
        finally:
            for p in pages:
                p.close()
