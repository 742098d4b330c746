"""The whole story of a finished game on the phone page (issue 31), in headless Chromium against a real
broker: the 9-player Lockdown demo, played to its end, announced 124 things and its views keep the last
20. A player's page offers "The whole story": one tap opens every announcement, numbered from the first
to the last, in the page's language, names never ids. The story is the public one: Ana's page holds none
of the other seats' own lines (their HP, room, items), neither in its DOM nor in a WebSocket frame."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import sync_playwright

from companion import games
from companion.core.lines import as_json
from companion.naming import Namer
from tests.kits.phone_page_kit import CHROMIUM, CHROMIUM_ARGS, WAIT_MS, PhonePage, running_game, scan, serving
from tests.phones.test_phone_page_games import frame_of

NINE = games.folder("lockdown") / "demo_games" / "lockdown-9p.jsonl"


def test_a_finished_games_page_tells_the_whole_story_and_no_secret(tmp_path: Path) -> None:
    lines = NINE.read_text(encoding="utf-8").splitlines()
    with running_game(tmp_path, lines) as run, serving(run) as (_, links), sync_playwright() as pw:
        ref = run.referee
        public = ref.view("public")
        assert public["ended"] and public["announced"] == 124 and len(public["announcements"]) == 20
        names = {p["id"]: p["name"] for p in public["players"]}
        told = [Namer.of(public).describe("en", a) for a in ref.story()]
        lockdown = games.registry()["lockdown"]
        others = {pid: as_json(lockdown.private_lines(ref.view(f"player:{pid}")["private"]))
                  for pid in names if pid != "ana"}
        mine = as_json(lockdown.private_lines(ref.view("player:ana")["private"]))
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        phone = PhonePage.open(browser, scan(links["ana"]))
        try:
            phone.online()
            page = phone.page
            page.wait_for_selector("#story:not([hidden])", timeout=WAIT_MS)
            assert not page.locator("#story-list").is_visible()  # folded until asked for
            summary = page.locator("#story-open")
            assert "124" in summary.inner_text() and summary.bounding_box()["height"] >= 48  # type: ignore[index]
            summary.tap()
            items = page.locator("#story-list > li")
            items.first.wait_for(state="visible", timeout=WAIT_MS)
            shown = items.all_inner_texts()
            assert len(shown) == 124
            assert shown[0] == told[0] and shown[-1] == told[-1]  # the first and the last, in words
            assert page.locator("#story-list").get_attribute("start") in (None, "1")
            items.last.scroll_into_view_if_needed()
            page.screenshot(path=str(tmp_path / "story-phone.png"))
            for pid in names:
                assert not any(f" {pid} " in f" {text} " for text in shown), f"an id ({pid}) in the story"
            for pid, own in others.items():  # every seat's own lines that Ana's are not
                for line in own:
                    if line not in mine:
                        assert not phone.holds(frame_of(line)), f"Ana's page holds {pid}'s {line}"
        finally:
            phone.close()
            browser.close()
