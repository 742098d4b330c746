"""What the phone page says, in a real browser (headless Chromium) against a real broker and the table.

Timers by their translated names; a header that fits a 360-pixel phone in every language; who has
acted or is ready (never what); and a host's form whose words follow the view: "End Ana's turn now"
once Ana's turn has begun, and pressing it ends Ana's turn.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from playwright.sync_api import Browser

from companion import games, i18n
from tests.kits.kiosk_fixtures import shots_dir
from tests.kits.phone_page_kit import WAIT_MS, PhonePage, running_game, serving
from tests.kits.phones_kit import running_table

__all__ = ["shots_dir"]

SMALL_PHONE = {"width": 360, "height": 740}


def lockdown(upto: int, **options: object) -> list[str]:
    """The recorded Lockdown game's first `upto` lines, its options changed by `options`."""
    script = games.demo_script("lockdown")
    assert script is not None
    head = json.loads(script[2])
    head["options"] = {**head["options"], **options}
    return [*script[:2], json.dumps(head), *script[3:upto]]


def test_timers_are_shown_by_their_translated_names(tmp_path: Path, browser: Browser) -> None:
    with running_game(tmp_path, lockdown(43, turn_seconds=120)) as run, serving(run) as (_, links):
        ana = PhonePage.open(browser, links["ana"].url(), locale="zh-CN")
        try:
            ana.online()
            ana.page.wait_for_selector(".timer[data-state='running']", timeout=WAIT_MS)
            names = ana.page.locator("#timers .name").all_inner_texts()
            assert names == [i18n.translate("zh", "timer.lockdown.turn")] == ["行动回合"]
        finally:
            ana.close()


def test_a_toolkit_timer_without_a_catalog_name_is_shown_as_named(tmp_path: Path, browser: Browser) -> None:
    with running_table(tmp_path, "mosquitto", players=["ana"]) as run, serving(run) as (_, links):
        run.table.put({"by": "host", "move": "timer.create", "args": {"name": "sunrise", "seconds": 90}})
        ana = PhonePage.open(browser, links["ana"].url(), locale="zh-CN")
        try:
            ana.online()
            ana.page.wait_for_selector("#timers .name", timeout=WAIT_MS)
            assert ana.page.locator("#timers .name").all_inner_texts() == ["sunrise"]
        finally:
            ana.close()


def header_fits(phone: PhonePage, shot: Path, title: str, name: str = "Ana") -> None:
    """The header's screenshot in `shot`; the game's whole title and the seat's player name shown, nothing
    cut or past the screen's edge."""
    phone.page.wait_for_function("t => document.querySelector('#title').textContent === t", arg=title,
                                 timeout=WAIT_MS)
    phone.page.locator("header.bar").screenshot(path=str(shot))
    h1 = phone.page.locator("#title")
    assert h1.inner_text() == title
    assert phone.page.locator("#seat-name").inner_text() == name
    for part in ("#title", "#link", "#seat-name"):
        node = phone.page.locator(part)
        clipped = node.evaluate("e => e.scrollWidth > e.clientWidth || e.scrollHeight > e.clientHeight")
        assert not clipped, f"{part} is cut: {node.inner_text()!r}"
    for part in ("#title", "#link", "#seat-name", "#lang"):
        box = phone.page.locator(part).bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= SMALL_PHONE["width"], part
    assert phone.page.evaluate("document.documentElement.scrollWidth") <= SMALL_PHONE["width"]


@pytest.mark.parametrize("lang,locale", [("en", "en-US"), ("zh", "zh-CN"), ("th", "th-TH")])
def test_the_header_fits_a_360_pixel_phone_and_names_the_game_and_the_player(
        tmp_path: Path, browser: Browser, lang: str, locale: str) -> None:
    with running_table(tmp_path, "mosquitto", players=["ana"]) as run, serving(run) as (_, links):
        ana = PhonePage.open(browser, links["ana"].url(), locale=locale, **SMALL_PHONE)
        try:
            ana.online()
            header_fits(ana, tmp_path / f"header-{lang}-online.png", i18n.translate(lang, "game.toolkit.title"))
            run.phones.broker.stop()  # the longest link state: reconnecting
            ana.page.wait_for_selector(".link[data-state='reconnecting']", timeout=WAIT_MS)
            header_fits(ana, tmp_path / f"header-{lang}-reconnecting.png", i18n.translate(lang, "game.toolkit.title"))
        finally:
            ana.close()


LONG_THAI = "การทรยศที่บ้านบนเนินเขาฉบับพิเศษสำหรับผู้เล่นหกคนพร้อมกฎเพิ่มเติมของโต๊ะนี้"


@pytest.mark.parametrize("lang,locale", [("th", "th-TH"), ("zh", "zh-CN")])
def test_the_header_names_the_new_game_after_table_new_game(
        tmp_path: Path, browser: Browser, shots_dir: Path, lang: str, locale: str) -> None:
    """The host starts Betrayal (the longest title in Thai) at the toolkit's table: Ana's page follows
    her seat into it (a view with the next `number`) and its header says so, on a 360x740 phone."""
    with running_table(tmp_path, "mosquitto", players=["ana", "ben", "chai"]) as run, \
            serving(run) as (_, links):
        ana = PhonePage.open(browser, links["ana"].url(), locale=locale, **SMALL_PHONE)
        try:
            ana.online()
            header_fits(ana, tmp_path / "before.png", i18n.translate(lang, "game.toolkit.title"))
            first = run.referee.game_id
            players = [{"id": p, "name": p.title()} for p in ("ana", "ben", "chai")]
            run.table.put({"by": "host", "move": "table.new_game", "args": {"game": "betrayal", "players": players}})
            header_fits(ana, tmp_path / "after.png", i18n.translate(lang, "game.betrayal.title"))
            assert run.referee.game_id == first + 1
            assert ana.page.title().startswith(i18n.translate(lang, "game.betrayal.title"))
            ana.page.screenshot(path=str(shots_dir / f"phone-header-betrayal-{lang}-360x740.png"))
            # a title longer than any catalog's: two lines, then an ellipsis, still inside the phone
            lines = ana.page.evaluate("""long => {
                const h1 = document.querySelector('#title'); h1.textContent = long;
                const style = getComputedStyle(h1);
                return h1.getBoundingClientRect().height / parseFloat(style.lineHeight); }""", LONG_THAI)
            assert lines < 2.5
            box = ana.page.locator("#title").bounding_box()
            assert box is not None and box["x"] + box["width"] <= SMALL_PHONE["width"]
            ana.page.locator("header.bar").screenshot(path=str(shots_dir / f"phone-header-long-{lang}-360.png"))
        finally:
            ana.close()


def test_who_is_ready_in_lockdowns_setup_reaches_the_other_page_without_what_they_chose(
        tmp_path: Path, browser: Browser) -> None:
    with running_game(tmp_path, lockdown(3)) as run, serving(run) as (_, links):
        ben = PhonePage.open(browser, links["ben"].url())
        try:
            ben.online()
            ben.form("lockdown.prepare")
            assert "Ready:" not in ben.text()
            run.table.put({"by": "player:ana", "move": "lockdown.prepare",
                           "args": {"spawn": "B201", "force": 0, "speed": 4, "load": 6}})
            ben.page.wait_for_selector("#acted:has-text('Ready: Ana')", timeout=WAIT_MS)
            assert "Ben" not in ben.page.locator("#acted").inner_text()
            assert ben.holds(b'"spawn":null')  # Ben's own (not chosen yet): the check would find Ana's
            assert not ben.holds(b'"spawn":"B201"') and not ben.holds(b'"speed":4')  # Ana's choice stays hers
        finally:
            ben.close()


def test_the_host_sees_who_has_voted_and_never_the_vote(tmp_path: Path, browser: Browser) -> None:
    with running_table(tmp_path, "mosquitto", players=["ana", "ben"]) as run, serving(run) as (_, links):
        run.table.put({"by": "host", "move": "ballot.open", "args": {"name": "exile", "options": ["red", "blue"]}})
        chief = PhonePage.open(browser, links["host"].url())
        try:
            chief.online()
            chief.page.wait_for_selector(".ballot .meta:has-text('0 of 2 voted')", timeout=WAIT_MS)
            assert "Voted:" not in chief.text()
            run.table.put({"by": "player:ana", "move": "ballot.vote", "args": {"name": "exile", "option": "red"}})
            chief.page.wait_for_selector(".ballot .voted:has-text('Voted: Ana')", timeout=WAIT_MS)
            assert "Ben" not in chief.page.locator(".ballot .voted").inner_text()
            assert not chief.holds(b'"my_vote"') and not chief.holds(b'"votes"')
            assert not chief.holds(b'"ana":"red"')
        finally:
            chief.close()


def test_the_hosts_end_turn_form_names_the_current_player_and_ends_that_turn(
        tmp_path: Path, browser: Browser) -> None:
    with running_game(tmp_path, lockdown(43)) as run, serving(run) as (_, links):
        chief = PhonePage.open(browser, links["host"].url())
        try:
            chief.online()
            heading = chief.page.locator(chief.form("lockdown.force_end_turn")).locator("h3")
            assert heading.inner_text() == "End Ben's turn now"  # the player's name, not the id "ben"
            run.table.put({"by": "host", "move": "lockdown.force_end_turn", "args": {}})  # from the kiosk
            chief.page.wait_for_selector("#news-list:has-text(\"Time is up for Ben's turn.\")", timeout=WAIT_MS)
            chief.page.wait_for_selector("#status-line:has-text(\"Ana's turn\")", timeout=WAIT_MS)
            chief.page.wait_for_function(
                "() => document.querySelector(\"form[data-move='lockdown.force_end_turn'] h3\").textContent"
                " === \"End Ana's turn now\"", timeout=WAIT_MS)
            chief.page.locator(chief.form("lockdown.force_end_turn")).locator("button.send").click()
            chief.toast("Done.")
            chief.page.wait_for_selector("#news-list:has-text(\"Time is up for Ana's turn.\")", timeout=WAIT_MS)
        finally:
            chief.close()


def test_who_has_programmed_in_room25_reaches_the_other_page_without_the_plan(
        tmp_path: Path, browser: Browser) -> None:
    script = games.demo_script("room25")
    assert script is not None
    with running_game(tmp_path, script[:5]) as run, serving(run) as (_, links):
        ben = PhonePage.open(browser, links["ben"].url())
        try:
            ben.online()
            ben.page.wait_for_selector("#acted:has-text('Waiting for: Ana, Ben, Chai')", timeout=WAIT_MS)
            assert "programmed" not in ben.page.locator("#acted").inner_text()
            run.table.put({"by": "player:ana", "move": "plan", "args": {"actions": ["look", "move"]}})
            ben.page.wait_for_selector("#acted:has-text('Actions programmed: Ana')", timeout=WAIT_MS)
            assert "Waiting for: Ben, Chai" in ben.page.locator("#acted").inner_text()
            assert ben.holds(b'"plan":null')  # Ben's own, empty: the check would find Ana's
            assert not ben.holds(b'["look","move"]')  # what Ana programmed stays hers
        finally:
            ben.close()
