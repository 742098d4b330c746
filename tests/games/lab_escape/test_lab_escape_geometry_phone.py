"""Escape the Lab's placing on the phone page, in real Chromium (issue 31, ruling E1.1): the form the
referee offers Ana for a display card (its free spots, its doors) is drawn by the page's own forms.js;
she taps a spot and a blocked door; what the page sends is exactly what the referee then accepts, and
it judges her steps by it. A screenshot is saved (KIOSK_SHOTS to keep it)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page

from tests.kits.kiosk_fixtures import shots_dir
from tests.kits.lab_escape_table import Table
from tests.kits.phone_page_kit import draw_form, form_tab

__all__ = ["shots_dir"]


@pytest.fixture(scope="module")
def page(browser: Browser) -> Iterator[Page]:
    with form_tab(browser) as tab:
        yield tab


@pytest.mark.parametrize(("lang", "spot", "door"), [("en", "0, 1 east", "Garden north"),
                                                     ("zh", "0, 1 东", "花园北门")])
def test_a_card_is_placed_at_a_spot_with_a_blocked_door_on_the_phone(page: Page, lang: str, spot: str, door: str,
                                                                      shots_dir: Path) -> None:
    t = Table().show("garden_corridor", "kitchen_pharmacy")
    prompt = next(p for p in t.prompts("player:ana") if p["move"] == "card.place"
                  and p["fixed"] == {"card": "garden_corridor"})
    draw_form(page, prompt, lang)  # a fresh page: the last case's Send waits for a reply nobody sends
    form = page.locator("form.prompt")
    send = form.locator("button.send")
    assert send.is_disabled()  # no spot yet
    form.get_by_text(spot, exact=True).click()
    form.get_by_role("button", name=door, exact=True).click()
    page.screenshot(path=str(shots_dir / f"phone-lab-place-{lang}.png"), full_page=True)
    send.click()
    sent = page.evaluate("window.sent")
    assert sent == [["card.place", {"card": "garden_corridor", "at": {"x": 0, "y": 1, "rotation": 0},
                                    "blocked": [{"room": "garden", "side": "n"}]}]]
    t.me("card.place", **sent[0][1])
    assert t.state["geometry"]["garden_corridor"] == {"at": {"x": 0, "y": 1, "rotation": 0},
                                                      "blocked": [["garden", "n"]]}
    assert t.my_refusal("step", room="garden") == "reject.lab_escape_door_blocked"
