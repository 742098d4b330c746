"""The host's phone page runs the game's timers and ends the game (issue 21), in headless Chromium.

A Lockdown table whose players have sent their secret setup (the free phase's timer runs), its phones on
the managed Mosquitto, and the host's page opened from the host's join link. The host taps "Pause “Free
phase”": the table's timer stops, and the page's button now reads "Resume “Free phase”" (the buttons are
drawn afresh from every view: their words are always what pressing them sends). "+30 s", "Resume", then
"End the game": the game is over on the page and no host button is left. The buttons come from the host
view's `host_menu` (`companion/core/host_controls.py`), worked out from the public view only: a player's
page never gets them. Screenshots go to KIOSK_SHOTS (or a temporary folder).
"""

from __future__ import annotations

import json
from pathlib import Path

from playwright.sync_api import Browser

from companion import i18n
from companion.core.host_controls import EXTEND_S
from tests.kits.kiosk_fixtures import shots_dir
from tests.kits.phone_page_kit import WAIT_MS, PhonePage, running_game, serving

__all__ = ["shots_dir"]

SETUP = {"game": "lockdown", "players": [{"id": "ana", "name": "Ana"}, {"id": "ben", "name": "Ben"}],
         "options": {"free_seconds": 300, "turn_seconds": 120}, "seed": 3}
LINES = [json.dumps(SETUP),
         json.dumps({"at": 1000, "by": "player:ana", "move": "lockdown.prepare",
                     "args": {"force": 4, "speed": 3, "load": 3, "spawn": "B102"}}),
         json.dumps({"at": 2000, "by": "player:ben", "move": "lockdown.prepare",
                     "args": {"force": 2, "speed": 4, "load": 4, "spawn": "B503"}})]


def say(lang: str, msgid: str, **params: object) -> str:
    return i18n.translate(lang, msgid, params)


def button(phone: PhonePage, words: str) -> str:
    selector = f"#host-menu button:text-is('{words}')"
    phone.page.wait_for_selector(selector, timeout=WAIT_MS)
    return selector


def test_the_hosts_phone_pauses_extends_resumes_lockdowns_timer_and_ends_the_game(
        tmp_path: Path, browser: Browser, shots_dir: Path) -> None:
    with running_game(tmp_path, LINES) as run, serving(run) as (_, links):
        run.table.clock.now += 20_000  # type: ignore[attr-defined]  # the free phase has run 20 s
        free = say("en", "timer.lockdown.free")
        chief = PhonePage.open(browser, links["host"].url())
        ana = PhonePage.open(browser, links["ana"].url())
        try:
            chief.online()
            ana.online()
            chief.page.locator(button(chief, say("en", "host.menu.pause", timer=free))).click()
            chief.toast("Done.")
            button(chief, say("en", "host.menu.resume", timer=free))  # its words follow the new view
            assert not chief.page.locator(f"#host-menu button:text-is('{say('en', 'host.menu.pause', timer=free)}')"
                                          ).count()
            timer = run.referee.view("public")["table"]["timers"]["free"]
            assert not timer["running"] and timer["remaining"] == 280_000
            chief.page.screenshot(path=str(shots_dir / "host-page-lockdown-paused.png"), full_page=True)

            chief.page.locator(button(chief, say("en", "host.menu.extend", timer=free, seconds=EXTEND_S))).click()
            chief.page.wait_for_function(
                "() => document.querySelector('.timer') && /^5:10$/.test(document.querySelector('.timer').textContent)",
                timeout=WAIT_MS)  # the page's own timer shows the 30 s added (4:40 + 0:30)
            paused = f".item[data-timer='free'] .meta:text-is('{say('en', 'phone.timer.paused')}')"
            for phone in (chief, ana):  # paused, past its 5:00: still paused, never "not started"
                phone.page.wait_for_selector(paused, timeout=WAIT_MS)
            chief.page.locator(button(chief, say("en", "host.menu.resume", timer=free))).click()
            button(chief, say("en", "host.menu.pause", timer=free))
            assert run.referee.view("public")["table"]["timers"]["free"]["running"]

            # the action turn's timer waits for its phase: no button names it
            assert say("en", "timer.lockdown.turn") not in chief.page.locator("#host-menu").inner_text()
            assert not ana.page.locator("#host-menu button").count()  # a player's page has no host menu
            assert not ana.holds(b"host_menu")

            end = button(chief, say("en", "host.menu.end"))
            chief.page.locator(end).click()  # the first step asks, in words, and sends nothing
            asked = f"#host-menu .confirm:has-text('{say('en', 'phone.end_no')}')"
            chief.page.wait_for_selector(asked, timeout=WAIT_MS)
            assert not run.referee.view("public")["ended"]
            chief.page.locator(f"#host-menu .confirm button:text-is('{say('en', 'phone.end_no')}')").click()
            assert not chief.page.locator("#host-menu .confirm").count() and not run.referee.view("public")["ended"]
            chief.page.locator(end).click()
            chief.page.locator(f"#host-menu .confirm button:text-is('{say('en', 'phone.end_yes')}')").click()
            chief.page.wait_for_selector(f"#status-line:has-text('{say('en', 'phone.game_over')}')", timeout=WAIT_MS)
            chief.page.wait_for_function(  # an ended game: Undo alone, which takes the end back (issue 28)
                "() => [...document.querySelectorAll('#host-menu button')].map((b) => b.dataset.key).join() === 'undo'",
                timeout=WAIT_MS)
            assert run.referee.view("public")["ended"]
            chief.page.screenshot(path=str(shots_dir / "host-page-lockdown-ended.png"), full_page=True)
        finally:
            chief.close()
            ana.close()


def test_the_hosts_page_says_its_buttons_in_the_phones_language(tmp_path: Path, browser: Browser,
                                                                 shots_dir: Path) -> None:
    with running_game(tmp_path, LINES) as run, serving(run) as (_, links):
        chief = PhonePage.open(browser, links["host"].url(), locale="zh-CN")  # a phone set to Chinese
        try:
            chief.online()
            for lang in ("zh", "th"):
                if lang != "zh":
                    chief.page.select_option("#lang", lang)  # the page's own language picker
                free = say(lang, "timer.lockdown.free")
                for words in (say(lang, "host.menu.pause", timer=free),
                              say(lang, "host.menu.extend", timer=free, seconds=EXTEND_S), say(lang, "host.menu.end")):
                    button(chief, words)
                chief.page.screenshot(path=str(shots_dir / f"host-page-lockdown-{lang}.png"), full_page=True)
        finally:
            chief.close()
