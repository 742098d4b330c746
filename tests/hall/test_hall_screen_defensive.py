"""The hall's pages in headless Chromium trust no field of the snapshot (issue 29): a table whose fields
are not what the hall promises (players an object, an announcement's param an object with its own
`toString`, a ranking of objects) is drawn as a plain card saying its view cannot be shown, or with the
bad announcement left out, and every other table stays on the hall screen, the cycling screen and a
spectator's page, live."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Browser

from companion import i18n
from tests.kits.hall_pages_kit import TV, WrittenHall, opened, serving, six_tables
from tests.kits.phone_page_kit import WAIT_MS


def spoiled() -> dict[str, Any]:
    snap = six_tables()
    t1, t2, t6 = snap["tables"][0], snap["tables"][1], snap["tables"][5]
    t1["players"] = {"toString": 1}  # no list: the card cannot be drawn
    t1["announcements"] = [{"at": 1, "msg": "lockdown.turn", "params": {"player": {"toString": 1}}}]
    t2["announcements"] = [{"at": 1, "msg": "lockdown.turn", "params": {"player": [{"toString": 1}]}},
                           {"at": 2, "msg": "room25.turn_started", "params": {"turn": 4, "last": 8}}]
    t6["ranking"] = [[{"toString": 1}]]
    return snap


def test_a_spoiled_table_does_not_stop_the_hall_screen(browser: Browser) -> None:
    hall = WrittenHall(spoiled())
    with serving(hall) as (pages, _), opened(browser, f"http://127.0.0.1:{pages.port}/", TV) as page:
        page.wait_for_function("() => document.querySelectorAll('.table-card').length === 6", timeout=WAIT_MS)
        page.wait_for_selector(".link[data-state='live']", timeout=WAIT_MS)
        bad = page.locator(".table-card[data-table='t1']")
        assert bad.get_attribute("data-status") == "unreadable"
        assert bad.locator("h2").inner_text() == "Table 1"
        assert bad.locator(".stage").inner_text() == i18n.translate("en", "hall.card_unreadable")
        t2 = page.locator(".table-card[data-table='t2']")
        assert t2.locator(".news li").all_inner_texts() == [
            i18n.translate("en", "room25.turn_started", {"turn": 4, "last": 8})]  # the bad one left out
        assert page.locator(".table-card[data-table='t6'][data-status='unreadable']").count() == 1
        hall.change("t3", phase="end")  # still live for the others
        page.wait_for_selector(".table-card[data-table='t3'] .stage:has-text('end')", timeout=WAIT_MS)
        assert page.locator(".link").get_attribute("data-state") == "live"


def test_a_spoiled_table_does_not_stop_the_cycling_screen_or_a_spectator(browser: Browser) -> None:
    hall = WrittenHall(spoiled())
    with serving(hall) as (pages, _):
        with opened(browser, f"http://127.0.0.1:{pages.port}/cycle?seconds=3", TV) as page:
            page.wait_for_selector(".link[data-state='live']", timeout=WAIT_MS)
            page.wait_for_selector(".table-card[data-table='t1'][data-status='unreadable']", timeout=WAIT_MS)
            page.wait_for_selector(".table-card[data-table='t2'] .news li", timeout=WAIT_MS)  # the next turns
        with opened(browser, f"http://127.0.0.1:{pages.port}/table/t2", TV) as page:
            page.wait_for_selector(".table-card[data-table='t2'] .news li", timeout=WAIT_MS)
            assert page.locator(".link").get_attribute("data-state") == "live"
