"""What a Lockdown player's phone shows in the states issue 33 found, as the player reads and taps it: a
real table with its phones (the managed Mosquitto) and the phone page in headless Chromium. The forms
themselves are checked against the referee in test_lockdown_offered_now.py and the choices property.

- a trade that no longer fits what the two hold: no Accept; the receiver reads whose trade it was, what
  for what, in words (zh, th, en), and calls it off;
- the morgue (B701) starts with no cards: no Draw form there;
- a gold bar (item 6 of the rule text: "检视所在房间当前所有道具卡并额外选择一张获得，但不可选择金条"): spent
  first, then the pick offers the kinds the room holds, never a kind that is not there."""

from __future__ import annotations

import contextlib
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser

from companion import i18n
from companion.core.inputs import Input
from companion.core.referee import Referee
from companion.games.lockdown import flow, items
from tests.kits import phones_kit
from tests.kits.kiosk_fixtures import shots_dir
from tests.kits.lockdown_script import hand, play, prepare, setup_line
from tests.kits.phone_page_kit import WAIT_MS, PhonePage, StillClock, serving

__all__ = ["shots_dir"]
LOCALES = {"en": "en-US", "zh": "zh-CN", "th": "th-TH"}


def ready(tmp_path: Path, spawn: str, items_mode: str = "digital") -> Referee:
    """Ana, Ben and Chai have set their genes and spawned in `spawn`: round 1's free phase."""
    setup = setup_line(["ana", "ben", "chai"], seed=5, items=items_mode)
    return play(tmp_path / "game.sqlite3", setup, [prepare(p, 4, 3, 3, spawn) for p in ("ana", "ben", "chai")])


def send(ref: Referee, pid: str, move: str, **args: Any) -> None:
    res = ref.submit(Input(f"lockdown.{move}", f"player:{pid}", args))
    assert res.accepted, res


@contextlib.contextmanager
def phone_of(tmp_path: Path, ref: Referee, browser: Browser, pid: str, lang: str = "en") -> Iterator[PhonePage]:
    """`pid`'s phone on `ref`'s table (its clock standing still: no timer runs out), online."""
    with phones_kit.serving(ref, tmp_path, "mosquitto", clock=StillClock(int(ref.state["now"]))) as run, \
            serving(run) as (_, links):
        phone = PhonePage.open(browser, links[pid].url(), locale=LOCALES[lang])
        try:
            phone.online()
            yield phone
        finally:
            phone.close()


def words(lang: str, *kinds: str) -> str:
    return ", ".join(i18n.translate(lang, f"lockdown.item.{k}") for k in kinds)


@pytest.mark.parametrize("lang", ["en", "zh", "th"])
def test_a_trade_that_no_longer_fits_offers_no_accept_and_says_why_in_words(tmp_path: Path, browser: Browser,
                                                                           lang: str, shots_dir: Path) -> None:
    """Ana offers Ben her knife for his water, Chai asks Ben for his water; Ben gives it to Chai on his
    phone. Ana's trade can no longer go through: Ben's phone offers no Accept for it, says whose trade it was
    and what for what (the cards' names, "nothing" for a side that gives none), and Ben calls it off."""
    ref = ready(tmp_path, "B302")
    hand(ref.state, "ana", "knife")
    hand(ref.state, "ben", "water")
    send(ref, "ana", "offer", to="ben", give=["knife"], get=["water"], swap_order=False)
    send(ref, "chai", "offer", to="ben", give=[], get=["water"], swap_order=False)
    with phone_of(tmp_path, ref, browser, "ben", lang) as ben:
        page = ben.page
        accepts = page.locator("form[data-move='lockdown.accept']")
        page.wait_for_function("() => document.querySelectorAll(\"form[data-move='lockdown.accept']\").length == 2",
                               timeout=WAIT_MS)
        assert accepts.nth(0).locator("h3").inner_text() == i18n.translate(
            lang, "lockdown.prompt.accept",
            {"player": "Ana", "give": words(lang, "knife"), "get": words(lang, "water")})
        chai = accepts.filter(has_text="Chai")
        assert chai.locator("h3").inner_text() == i18n.translate(
            lang, "lockdown.prompt.accept",
            {"player": "Chai", "give": i18n.translate(lang, "lockdown.trade.nothing"), "get": words(lang, "water")})
        chai.locator("button.send").click()
        page.wait_for_function("() => !document.querySelector(\"form[data-move='lockdown.accept']\")",
                               timeout=WAIT_MS)
        assert [items.kind_of(c) for c in ref.state["people"]["chai"]["items"]] == ["water"]
        stale = page.locator("form[data-move='lockdown.withdraw']", has_text="Ana")
        assert stale.locator("h3").inner_text() == i18n.translate(
            lang, "lockdown.prompt.trade_stale",
            {"player": "Ana", "give": words(lang, "knife"), "get": words(lang, "water")})
        assert stale.locator("button.send").is_enabled()
        page.screenshot(path=str(shots_dir / f"phone-lockdown-trade-stale-{lang}.png"), full_page=True)
        stale.locator("button.send").click()
        page.wait_for_function("() => !document.querySelector(\"form[data-move='lockdown.withdraw']\")",
                               timeout=WAIT_MS)
        assert ref.state["trades"] == {}
        assert [items.kind_of(c) for c in ref.state["people"]["ana"]["items"]] == ["knife"]


def on_turn(tmp_path: Path, spawn: str, items_mode: str = "digital") -> tuple[Referee, str]:
    """Round 1's action phase, everyone spawned in `spawn`, and whose turn it is."""
    ref = ready(tmp_path, spawn, items_mode)
    assert ref.submit(Input("lockdown.begin_actions", "host", {})).accepted
    pid = flow.current_player(ref.state)
    assert pid is not None
    return ref, pid


@pytest.mark.parametrize("mode", ["digital", "physical"])
def test_the_empty_morgue_offers_no_draw(tmp_path: Path, browser: Browser, mode: str, shots_dir: Path) -> None:
    """B701 starts with no cards (its stock in the rule text is empty): the player who walks in sees the
    vote and the room's other forms, and no Draw form; the warehouse next to the other spawn offers one."""
    ref, pid = on_turn(tmp_path, "B702", mode)
    send(ref, pid, "move", path=["B701"])
    assert ref.state["stocks"]["B701"] == []
    with phone_of(tmp_path, ref, browser, pid) as phone:
        page = phone.page
        phone.form("lockdown.vote")  # the page is drawn with this turn's forms
        assert page.locator("form[data-move='lockdown.draw']").count() == 0
        assert i18n.translate("en", "lockdown.prompt.draw", {"left": 3}) not in phone.text()
        page.screenshot(path=str(shots_dir / f"phone-lockdown-morgue-{mode}.png"), full_page=True)


def test_a_gold_bar_is_spent_first_then_the_pick_offers_only_what_the_room_holds(tmp_path: Path, browser: Browser,
                                                                               shots_dir: Path) -> None:
    """In the warehouse (B501) with a gold bar: the form says the bar shows the room's cards first; after
    Send the phone shows them, kind by kind with how many ("Water ×5"), and the pick offers the kinds the
    stock holds (no gold bar, nothing that is not there); the card picked is the player's."""
    ref, pid = on_turn(tmp_path, "B502")
    send(ref, pid, "move", path=["B501"])
    hand(ref.state, pid, "gold")
    pile = ref.state["stocks"]["B501"]
    for card in [c for c in pile if items.kind_of(c) in ("pistol", "shotgun", "alcohol")]:
        pile.remove(card)
        ref.state["out"].append(card)
    with phone_of(tmp_path, ref, browser, pid) as phone:
        page = phone.page
        spend = page.locator(phone.form("lockdown.gold"))
        assert spend.locator("h3").inner_text() == i18n.translate("en", "lockdown.prompt.gold", {"count": len(pile)})
        assert spend.locator("label.choice").count() == 0  # nothing is picked blind
        spend.locator("button.send").click()
        page.wait_for_selector("form[data-move='lockdown.gold'] label.choice", timeout=WAIT_MS)
        pick = page.locator("form[data-move='lockdown.gold']")
        offered = sorted(pick.locator("label.choice").all_inner_texts())
        held = sorted({items.kind_of(c) for c in pile} - {"gold"})
        assert offered == sorted(i18n.translate("en", f"lockdown.item.{k}") for k in held)
        seen = Counter(items.kind_of(c) for c in pile)  # what the bar showed: the room's cards, kind by kind
        text = phone.text()
        assert i18n.translate("en", "gameboards.lockdown.peek", {"room": "B501", "count": len(pile)}) in text
        for kind, n in seen.items():
            assert i18n.translate("en", "gameboards.lockdown.peek_kind",
                                  {"item": i18n.translate("en", f"lockdown.item.{kind}"), "count": n}) in text
        assert "Pistol" not in offered and "Gold bar" not in offered
        page.screenshot(path=str(shots_dir / "phone-lockdown-gold-pick.png"), full_page=True)
        pick.locator("label.choice", has_text="Knife").click()
        pick.locator("button.send").click()
        page.wait_for_function("() => !document.querySelector(\"form[data-move='lockdown.gold']\")", timeout=WAIT_MS)
        assert [items.kind_of(c) for c in ref.state["people"][pid]["items"]] == ["knife"]


def test_a_draw_offers_no_more_than_the_room_holds(tmp_path: Path, browser: Browser, shots_dir: Path) -> None:
    """The warehouse lets a visit draw 3, but only 2 cards are left in it: the form says 2 left, + stops at
    2 (typing 3 keeps Send disabled), and drawing 2 takes both."""
    ref, pid = on_turn(tmp_path, "B502")
    send(ref, pid, "move", path=["B501"])
    pile = ref.state["stocks"]["B501"]
    ref.state["out"] += pile[2:]
    del pile[2:]
    with phone_of(tmp_path, ref, browser, pid) as phone:
        page = phone.page
        draw = page.locator(phone.form("lockdown.draw"))
        assert draw.locator("h3").inner_text() == i18n.translate("en", "lockdown.prompt.draw", {"left": 2})
        count, more = draw.locator("input[type='number']"), draw.locator("button[aria-label='+1']")
        more.click()
        more.click()
        more.click()
        assert count.input_value() == "2"
        count.fill("3")
        assert draw.locator("button.send").is_disabled()
        page.screenshot(path=str(shots_dir / "phone-lockdown-draw-two-left.png"), full_page=True)
        count.fill("2")
        draw.locator("button.send").click()
        page.wait_for_function("() => !document.querySelector(\"form[data-move='lockdown.draw']\")", timeout=WAIT_MS)
        assert len(ref.state["people"][pid]["items"]) == 2 and ref.state["stocks"]["B501"] == []
