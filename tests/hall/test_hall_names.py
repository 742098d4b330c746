"""Identity that fits real names (issue 29): one limit for ids and names from hall to table
(companion/core/identity.py). The hall's league ids always fit a table; long names in Latin, Thai and
Chinese are kept whole in the league and seated at a real table (bridged to a real central Mosquitto)
as the table shows them; a table that refuses a seating says why, and the hall hears it."""

from __future__ import annotations

import unicodedata
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st
from playwright.sync_api import Browser

from companion import i18n
from companion.core.identity import SEAT_ID, SEAT_NAME_MAX, seat_name
from companion.hall import protocol
from companion.hall.store import HallStore
from tests.kits.hall_kit import PREFIX, bridged
from tests.kits.hall_pages_kit import PHONE, opened
from tests.kits.hall_running import running_hall, topic
from tests.kits.kiosk_fixtures import shots_dir
from tests.kits.phones_kit import WAIT_S

REAL_NAMES = ["Somchai Jaidee", "Christopher Lee", "Nguyen Van Anh", "Anna-Maria Fitzgerald",
              "สมชาย ใจดี", "阮文安", "Maximilian Alexander von Hohenberg-Schwarzenfeld",
              "ประยุทธ์ จันทร์โอชา ณ อยุธยา ศรีสวัสดิ์", "欧阳娜娜", "Zoë Ångström-Ødegård"]

__all__ = ["shots_dir"]


def test_league_ids_of_long_names_in_every_script_fit_a_table(tmp_path: Path) -> None:
    store = HallStore(tmp_path / "hall.sqlite3")
    ids = [store.add_player(name) for name in REAL_NAMES * 3]
    assert len(set(ids)) == len(ids)
    assert all(SEAT_ID.fullmatch(pid) for pid in ids), ids
    assert [pid.rsplit("-", 1)[0] for pid in ids[:10]] == [
        "somchai-j", "christopher-l", "nguyen-van-a", "anna-maria-f", "p", "p", "maximilian-a", "p", "p",
        "zoe-angstrom"]
    assert [p["name"] for p in store.players()][:len(REAL_NAMES)] == REAL_NAMES  # kept whole in the league


def test_a_name_longer_than_a_table_shows_is_cut_at_a_character_boundary() -> None:
    assert seat_name("Anna-Maria Fitzgerald") == "Anna-Maria Fitzgerald"
    assert seat_name("Maximilian Alexander von Hohenberg-Schwarzenfeld") == "Maximilian Alexander vo…"
    cut = seat_name("ประยุทธ์ จันทร์โอชา ณ อยุธยา ศรีสวัสดิ์")
    assert len(cut) <= SEAT_NAME_MAX and cut.endswith("…")
    assert unicodedata.category(cut[-2])[0] != "M" or cut[:-1] == "ประยุทธ์ จันทร์โอชา ณ อยุธยา ศรีสวัสดิ์"[:len(cut) - 1]


@given(st.text(min_size=1, max_size=80).filter(lambda s: s.strip()))
def test_a_seat_name_always_fits_and_starts_the_name(name: str) -> None:
    shown = seat_name(name)
    assert 0 < len(shown) <= SEAT_NAME_MAX
    whole = name.strip()
    assert shown == whole or (shown.endswith("…") and whole.startswith(shown[:-1].rstrip()))
    if shown != whole:  # never cut between a letter and its sign
        assert unicodedata.category(whole[len(shown[:-1].rstrip())])[0] != "M" or not shown[:-1].rstrip()


def test_a_table_seats_long_names_and_answers_why_it_refuses(tmp_path: Path) -> None:
    store = HallStore(tmp_path / "hall.sqlite3")
    seated = [{"id": store.add_player(n), "name": seat_name(n)} for n in REAL_NAMES[4:8]]
    with bridged(tmp_path / "t1.sqlite3", "t1", "t1-pass-42") as (hall, t):
        watcher = sender = hall.hall_client()  # the hall's one login: it hears everything and seats
        good = protocol.seating_payload(seating="c3c3c3c3", round_no=1, game="toolkit", options={}, players=seated)
        sender.client.publish(protocol.seating_topic(PREFIX, "t1"), good, qos=1, retain=True).wait_for_publish(WAIT_S)
        assert t.hall.seating.heard.get(timeout=WAIT_S) == ("applied", "c3c3c3c3")
        assert [{"id": p.id, "name": p.name} for p in t.referee.setup.players] == seated
        answer = protocol.parse_seated(watcher.got(lambda m: m.topic.endswith("/seated")).payload)
        assert (answer["seating"], answer["round"], answer["state"]) == ("c3c3c3c3", 1, "applied")
        # an id longer than a table takes (a hall's league file from before the shared limit)
        t.table.handle({"by": "host", "move": "game.end", "id": "end-1", "args": {}})
        old = [{"id": "anna-maria-fitzgerald-x4", "name": "Anna-Maria"}, *seated[1:]]
        bad = protocol.seating_payload(seating="d4d4d4d4", round_no=2, game="toolkit", options={}, players=old)
        sender.client.publish(protocol.seating_topic(PREFIX, "t1"), bad, qos=1, retain=True).wait_for_publish(WAIT_S)
        assert t.hall.seating.heard.get(timeout=WAIT_S) == ("refused", "d4d4d4d4")
        answer = protocol.parse_seated(watcher.got(
            lambda m: m.topic.endswith("/seated") and b"d4d4d4d4" in m.payload).payload)
        assert answer["state"] == "refused" and answer["reason"]["code"] == "reject.new_game.player_id"
        watcher.close()


def test_the_organisers_page_says_which_table_refused_its_seating_and_why(
        tmp_path: Path, browser: Browser, shots_dir: Path) -> None:
    with running_hall(tmp_path, tables=("t1", "t2"), page_port=0) as run:
        for name in REAL_NAMES[:8]:
            run.hall.actions.add_player(name)
        url = f"http://127.0.0.1:{run.hall.page_port}/organiser?key={run.hall.organiser_key}"
        with opened(browser, url, PHONE) as page:
            page.wait_for_selector("input[name='present']", timeout=10_000)
            page.select_option("#game", "lab_escape")
            page.click("#all-players")
            for table in ("t1", "t2"):
                box = page.locator(f"input[name='tables'][value='{table}']")
                if not box.is_checked():
                    box.click()
            page.click("#seat")
            page.wait_for_selector("#done:not([hidden])", timeout=10_000)
            seating = run.store.last_seating()
            assert seating is not None and set(seating["tables"]) == {"t1", "t2"}
            assert all(len(p["name"]) <= SEAT_NAME_MAX for chairs in seating["tables"].values() for p in chairs)
            page.wait_for_selector("#answers li[data-table='t1'][data-state='sent']", timeout=10_000)
            t1, t2 = run.table("t1"), run.table("t2")
            reason = {"code": "reject.new_game.player_id", "params": {"id": "anna-maria-fitzgerald-x4"}}
            t1.publish(topic("t1", "seated"), protocol.seated_payload(
                seating=seating["seating"], round_no=seating["round"], state="refused", reason=reason), True)
            t2.publish(topic("t2", "seated"), protocol.seated_payload(
                seating=seating["seating"], round_no=seating["round"], state="applied"), True)
            refused = page.locator("#answers li[data-table='t1'][data-state='refused']")
            refused.wait_for(timeout=10_000)
            assert refused.locator(".answer").inner_text() == i18n.translate("en", "hall.organiser.answer.refused", {
                "table": "t1", "reason": i18n.translate("en", reason["code"], reason["params"])})
            page.wait_for_selector("#answers li[data-table='t2'][data-state='applied']", timeout=10_000)
            page.screenshot(path=shots_dir / "hall-organiser-refused.png", full_page=True)
