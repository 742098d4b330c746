"""A tapped pill the player already holds, on the player's phone page in headless Chromium against the real
table (issue 31; rulings L3.3, L7.4): the page asks "You tapped a Pill you already hold: what does it mean?"
with the uses the rules allow in the pharmacy; the player picks "use it at settlement" and sends; the
referee declares the held pill, draws nothing, and the question goes away."""

from __future__ import annotations

import json
from pathlib import Path

from playwright.sync_api import Browser

from companion import i18n
from tests.kits.lockdown_script import by, host, play, prepare, setup_line
from tests.kits.phone_page_kit import WAIT_MS, PhonePage, running_game, serving


def script(tmp_path: Path) -> tuple[list[str], str]:
    setup = setup_line(["ana", "ben"], seed=4, items="physical")
    start = [prepare("ana", 4, 3, 3, "B302"), prepare("ben", 4, 3, 3, "B302"), host("begin_actions")]
    first = play(tmp_path / "first.db", setup, start).state["action_order"][0]
    turn = [by(first, "move", path=["B301"]), by(first, "draw", cards=["pill"]), by(first, "tap", card="pill")]
    return [json.dumps(line) for line in (setup, *start, *turn)], first


def test_the_phone_asks_what_a_tapped_held_pill_means(tmp_path: Path, browser: Browser) -> None:
    lines, first = script(tmp_path)
    with running_game(tmp_path, lines) as run, serving(run) as (_, links):
        phone = PhonePage.open(browser, links[first].url())
        try:
            phone.online()
            form = phone.page.locator(phone.form("lockdown.use_tapped"))
            question = i18n.translate("en", "lockdown.prompt.use_tapped", {"card": "kind.lockdown_item_pill"})
            assert "kind." not in question and i18n.translate("en", "lockdown.item.pill") in question
            assert question in form.inner_text()
            words = [i18n.translate("en", f"kind.lockdown_use_{u}") for u in ("draw", "drop", "declare")]
            assert form.locator("label.choice").all_inner_texts() == words
            phone.page.screenshot(path=str(tmp_path / "phone-tapped-offer.png"), full_page=True)
            form.locator("label.choice", has_text=words[2]).click()
            form.locator("button.send").click()
            phone.page.wait_for_selector("form[data-move='lockdown.use_tapped']", state="detached", timeout=WAIT_MS)
            me = run.referee.state["people"][first]
            assert [c.rsplit("-", 1)[0] for c in me["items"]] == ["pill"] and me["declared"] == me["items"]
        finally:
            phone.close()
