"""The hall's pages in a real browser (headless Chromium) over a hand-written hall (tests/kits/
hall_pages_kit.py): the hall screen on a TV and a phone, live without a reload, an offline table, the
standings, a spectator's table, the cycling screen, the organiser's seating, in English, Chinese and Thai.
Screenshots go to KIOSK_SHOTS when it is set (docs/screenshots/hall/ for docs/hall.md)."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page

from companion import i18n
from tests.kits.hall_pages_kit import KEY, NOW, PHONE, TV, WrittenHall, opened, serving, six_tables, table
from tests.kits.kiosk_fixtures import shots_dir
from tests.kits.phone_page_kit import WAIT_MS

__all__ = ["shots_dir"]


def card(page: Page, tid: str) -> str:
    selector = f".table-card[data-table='{tid}']"
    page.wait_for_selector(selector, timeout=WAIT_MS)
    return selector


def words(lang: str, mid: str, **params: object) -> str:
    return i18n.translate(lang, mid, params)


def test_the_hall_screen_shows_six_tables_and_follows_the_hall_live(browser: Browser, shots_dir: Path) -> None:
    hall = WrittenHall(six_tables())
    with serving(hall) as (pages, _), opened(browser, f"http://127.0.0.1:{pages.port}/") as page:
        page.wait_for_function("() => document.querySelectorAll('.table-card').length === 6", timeout=WAIT_MS)
        page.wait_for_selector(".link[data-state='live']", timeout=WAIT_MS)
        first = page.locator(card(page, "t1"))
        assert first.locator("h2").inner_text() == "Table 1"
        assert first.locator(".game-name").inner_text() == words("en", "game.lockdown.title")
        assert first.locator(".stage").inner_text() == " · ".join([
            words("en", "phone.phase", phase=words("en", "phase.lockdown.action")),
            words("en", "hall.round", round=2), words("en", "phone.turn", name="Ana")])
        assert first.locator(".players").inner_text() == "Ana, Ben"
        assert first.locator(".news li").all_inner_texts() == [words("en", "lockdown.turn", player="Ana"),
                                                                words("en", "lockdown.turn", player="Ben")]
        timer = first.locator(".timer[data-state='running']")
        assert timer.inner_text() in ("1:35", "1:34", "1:33")  # counting down on the hall's clock
        offline = page.locator(card(page, "t5"))
        assert offline.get_attribute("data-status") == "offline"
        assert offline.locator(".status").inner_text() == words("en", "hall.status.offline")
        assert offline.locator(".offline-since").inner_text().startswith("Offline since ")
        assert page.locator(card(page, "t6")).locator(".stage").inner_text() == " ".join([
            words("en", "phone.game_over"), words("en", "phone.ranking", ranking="Dao > Ben / Fay")])
        page.screenshot(path=shots_dir / "hall-tv-en.png")
        page.evaluate("window.notReloaded = true")
        hall.change("t2", round=4, announcements=[{"at": 2, "msg": "room25.turn_started",
                                                   "params": {"turn": 4, "last": 8}}])
        page.wait_for_selector(".table-card[data-table='t2'] .stage:has-text('Round 4')", timeout=WAIT_MS)
        hall.change("t1", online=False, status="offline")
        page.wait_for_selector(".table-card[data-table='t1'][data-status='offline'] .offline-since", timeout=WAIT_MS)
        assert page.evaluate("window.notReloaded") is True


def test_the_hall_screen_on_a_phone_is_one_column(browser: Browser, shots_dir: Path) -> None:
    with serving(WrittenHall(six_tables())) as (pages, _), \
            opened(browser, f"http://127.0.0.1:{pages.port}/", PHONE) as page:
        page.wait_for_function("() => document.querySelectorAll('.table-card').length === 6", timeout=WAIT_MS)
        page.wait_for_selector(".link[data-state='live']", timeout=WAIT_MS)
        # measured in one go in the page: a redraw (the page replaces its cards) cannot come in between
        boxes = page.evaluate("() => [...document.querySelectorAll('.table-card')].map(c => {"
                              " const r = c.getBoundingClientRect(); return {x: r.x, width: r.width}; })")
        assert len(boxes) == 6
        assert all(box["x"] >= 0 and box["x"] + box["width"] <= 390 for box in boxes), boxes
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        page.screenshot(path=shots_dir / "hall-phone-en.png", full_page=True)


@pytest.mark.parametrize("lang", ["zh", "th"])
def test_the_hall_screen_speaks_chinese_and_thai(browser: Browser, shots_dir: Path, lang: str) -> None:
    with serving(WrittenHall(six_tables())) as (pages, _), \
            opened(browser, f"http://127.0.0.1:{pages.port}/?lang={lang}") as page:
        first = page.locator(card(page, "t1"))
        assert page.locator("#title").inner_text() == words(lang, "hall.title")
        assert first.locator(".game-name").inner_text() == words(lang, "game.lockdown.title")
        assert first.locator(".news li").first.inner_text() == words(lang, "lockdown.turn", player="Ana")
        assert page.locator(card(page, "t5")).locator(".status").inner_text() == words(lang, "hall.status.offline")
        page.screenshot(path=shots_dir / f"hall-tv-{lang}.png")
    with serving(WrittenHall(six_tables())) as (pages, _), \
            opened(browser, f"http://127.0.0.1:{pages.port}/?lang={lang}", PHONE) as page:
        page.locator(card(page, "t4"))
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        page.screenshot(path=shots_dir / f"hall-phone-{lang}.png")


def test_a_hundred_tables_fit_the_tv_in_pages(browser: Browser, shots_dir: Path) -> None:
    snap = six_tables()
    snap["tables"] = [table(f"t{i}", f"Table {i}", "lockdown", snap["tables"][0]["players"], phase="action",
                            round=i % 5 + 1, timers=snap["tables"][0]["timers"],
                            announcements=snap["tables"][0]["announcements"]) for i in range(1, 101)]
    with serving(WrittenHall(snap)) as (pages, _), opened(browser, f"http://127.0.0.1:{pages.port}/") as page:
        page.wait_for_function("() => document.querySelectorAll('.table-card').length === 100", timeout=WAIT_MS)
        shown = page.locator(".table-card:not([hidden])")
        count = shown.count()
        assert 20 <= count < 100
        assert page.locator("#page-count").inner_text() == words("en", "hall.page", page=1, pages=-(-100 // count))
        assert all((box := shown.nth(i).bounding_box()) and box["y"] + box["height"] <= TV["height"]
                   for i in range(count))
        page.screenshot(path=shots_dir / "hall-tv-100-tables.png")


def test_the_standings_page_is_the_halls_standings(browser: Browser, shots_dir: Path) -> None:
    hall = WrittenHall(six_tables())
    with serving(hall) as (pages, actions), \
            opened(browser, f"http://127.0.0.1:{pages.port}/standings?lang=th", PHONE) as page:
        page.wait_for_selector("#rows tr", timeout=WAIT_MS)
        rows = [row.locator("td").all_inner_texts() for row in page.locator("#rows tr").all()]
        assert rows == [[str(r["rank"]), r["name"], str(r["games"]), str(r["wins"]), str(r["points"]),
                         f"{r['ordinal']:.1f}"] for r in hall.snapshot()["standings"]]
        assert page.locator("thead th").all_inner_texts()[-1] == words("th", "hall.standings.rating")
        page.screenshot(path=shots_dir / "standings-phone-th.png")
        with page.expect_download() as download:
            page.locator("#csv").click()
        assert download.value.suggested_filename == "league-standings.csv"
        assert Path(download.value.path()).read_text(encoding="utf-8") == actions.standings_csv()


def test_a_spectator_follows_one_table(browser: Browser, shots_dir: Path) -> None:
    hall = WrittenHall(six_tables())
    with serving(hall) as (pages, _), opened(browser, f"http://127.0.0.1:{pages.port}/table/t3", PHONE) as page:
        one = page.locator(card(page, "t3"))
        assert page.locator(".table-card").count() == 1
        assert one.locator(".news li").first.inner_text() == words(
            "en", "betrayal.room_found", player="Eli", room=words("en", "kind.betrayal.room.attic"),
            floor=words("en", "kind.betrayal.floor.upper"))
        page.screenshot(path=shots_dir / "spectator-phone-en.png")
        hall.change("t3", turn="eli-5e")
        page.wait_for_selector(".table-card .stage:has-text('Eli')", timeout=WAIT_MS)
    with serving(hall) as (pages, _), opened(browser, f"http://127.0.0.1:{pages.port}/table/zz", PHONE) as page:
        page.wait_for_selector("#unknown:not([hidden])", timeout=WAIT_MS)
        assert page.locator("#unknown").inner_text() == words("en", "hall.unknown_table")


def test_the_cycling_screen_shows_each_table_in_turn(browser: Browser, shots_dir: Path) -> None:
    with serving(WrittenHall(six_tables())) as (pages, _), \
            opened(browser, f"http://127.0.0.1:{pages.port}/cycle?seconds=3&lang=zh") as page:
        page.locator(card(page, "t1"))
        assert page.locator("#position").inner_text() == words("zh", "hall.cycle.position", index=1, count=6, seconds=3)
        page.screenshot(path=shots_dir / "cycle-tv-zh.png")
        card(page, "t2")  # three seconds on, the next table
        assert page.locator(".table-card").count() == 1


def test_the_organiser_seats_the_next_round_and_the_hall_shows_it(browser: Browser, shots_dir: Path) -> None:
    hall = WrittenHall(six_tables())
    base = ""
    with serving(hall) as (pages, actions):
        base = f"http://127.0.0.1:{pages.port}"
        with opened(browser, f"{base}/organiser") as page:
            assert page.locator("h1").inner_text() == words("en", "hall.organiser.refused_title")
        with opened(browser, f"{base}/organiser?key={KEY}&lang=zh", PHONE) as page:
            page.wait_for_selector("#present input", timeout=WAIT_MS)
            page.select_option("#game", "lockdown")
            page.locator("#seat").click()
            page.wait_for_selector("#problem:not([hidden])", timeout=WAIT_MS)
            assert page.locator("#problem").inner_text() == words("zh", "hall.reject.too_few_players", count=0, low=2)
            assert actions.calls == []
            page.locator("#all-players").click()
            assert page.locator("#present-count").inner_text() == words("zh", "hall.organiser.present_count", count=8)
            offline = page.locator("input[name='tables'][value='t5']")
            assert not offline.is_checked()  # an offline table is not offered by default
            page.screenshot(path=shots_dir / "organiser-phone-zh.png", full_page=True)
            page.locator("#seat").click()
            page.wait_for_selector("#done:not([hidden])", timeout=WAIT_MS)
            assert page.locator("#done").inner_text() == words("zh", "hall.organiser.seated_round", round=1)
        assert actions.calls == [("lockdown", [p["id"] for p in pages.store.players()], ["t1", "t2", "t3", "t4", "t6"])]
        with opened(browser, f"{base}/") as page:
            page.wait_for_selector("#seating-notice:not([hidden])", timeout=WAIT_MS)
            assert page.locator(card(page, "t2")).locator(".seated").inner_text() == words(
                "en", "hall.seated_next_game", game="Lockdown", players="Eli, Fay, สมชาย, 李明")
        with opened(browser, f"{base}/seating", PHONE) as page:
            page.wait_for_selector("#players li", timeout=WAIT_MS)
            found = {li.locator(".who").inner_text(): li.locator(".where").inner_text()
                     for li in page.locator("#players li").all()}
            assert found == {"Ana": "Table 1", "Ben": "Table 1", "Cai": "Table 1", "Dao": "Table 1",
                             "Eli": "Table 2", "Fay": "Table 2", "สมชาย": "Table 2", "李明": "Table 2"}
            page.screenshot(path=shots_dir / "seating-phone-en.png", full_page=True)
            assert KEY not in page.content()
    assert NOW > 0
