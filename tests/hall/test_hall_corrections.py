"""Corrections from the organiser's page (issue 29), in headless Chromium on the real hall: a result
voided in two taps, a player dropped (and no longer ticked for the next round), the scoring changed, each
logged with who and when, the standings recomputed; a table re-seated within its round keeps the round's
number and its old seating's game turns casual; a correction that cannot be made says why."""

from __future__ import annotations

import json
import urllib.request
from pathlib import Path
from typing import Any
from urllib.error import HTTPError

from playwright.sync_api import Browser

from companion import i18n
from companion.hall.hooks import league, open_store
from companion.hall.pages.server import KEY_HEADER
from companion.hall.run import Hall, HallOptions
from companion.phones.runner import free_port
from tests.kits.hall_pages_kit import TV, opened
from tests.kits.hall_running import Running, result, running_hall, topic, until
from tests.kits.kiosk_fixtures import shots_dir

NAMES = ["Somchai Jaidee", "สมชาย ใจดี", "阮文安", "Anna-Maria Fitzgerald", "Mai", "Ton"]

__all__ = ["shots_dir"]


def play(run: Running, seating: dict[str, Any], number: int) -> None:
    """Each seated table sends its game: the seat order is the ranking."""
    for n, (table, chairs) in enumerate(seating["tables"].items()):
        run.table(table).publish(topic(table, f"results/{number}"), result(
            table, number, f"{number:04x}00cc{n:04x}", game="lab_escape", players=chairs,
            ranking=[[p["id"]] for p in chairs], seating=seating["seating"], round_no=seating["round"]), True)


def points(snap: dict[str, Any]) -> dict[str, float]:
    return {r["id"]: r["points"] for r in snap["standings"]}


def post(run: Running, body: object) -> tuple[int, dict[str, Any]]:
    request = urllib.request.Request(f"http://127.0.0.1:{run.hall.page_port}/correction", json.dumps(body).encode(),
                                     {"Content-Type": "application/json", KEY_HEADER: run.hall.organiser_key})
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return answer.status, json.loads(answer.read())
    except HTTPError as err:
        return err.code, json.loads(err.read())


def test_the_organiser_voids_drops_and_rescores_from_the_page(
        tmp_path: Path, browser: Browser, shots_dir: Path) -> None:
    with running_hall(tmp_path, tables=("t1", "t2"), page_port=0) as run:
        ids = [run.hall.actions.add_player(name) for name in NAMES]
        seating = run.hall.actions.send_seating("lab_escape", ids, ["t1", "t2"], pods=(3, 3))
        play(run, seating, 1)
        snap = until(run.hall.model, lambda s: sum(r["games"] for r in s["standings"]) == 6)
        t1, t2 = seating["tables"]["t1"], seating["tables"]["t2"]
        assert points(snap)[t1[0]["id"]] == 3 and points(snap)[t2[0]["id"]] == 3
        url = f"http://127.0.0.1:{run.hall.page_port}/organiser?key={run.hall.organiser_key}"
        with opened(browser, url, TV) as page:
            line = page.locator("#results li[data-how='scored']").filter(has_text="t2")
            line.wait_for(timeout=10_000)
            line.locator("[data-do='void']").click()  # the first tap only arms it
            assert line.locator("[data-do='void']").inner_text() == i18n.translate("en", "hall.organiser.void_confirm")
            assert len(run.store.corrections()) == 0
            line.locator("[data-do='void']").click()
            page.wait_for_selector("#results li[data-how='void']", timeout=10_000)
            snap = until(run.hall.model, lambda s: sum(r["games"] for r in s["standings"]) == 3)
            assert all(points(snap)[p["id"]] == 0 for p in t2)  # t2's game no longer counts
            dropped = t1[2]
            page.locator(f"#roster li[data-player='{dropped['id']}'] [data-do='drop']").click()
            page.wait_for_selector(f"#roster li[data-player='{dropped['id']}']:has-text('dropped')", timeout=10_000)
            assert not page.locator(f"input[name='present'][value='{dropped['id']}']").is_checked()
            page.select_option("#scoring-rule", "beaten")
            page.click("#scoring-save")
            page.wait_for_selector("#corrected:not([hidden])", timeout=10_000)
            snap = until(run.hall.model, lambda s: points(s)[t1[1]["id"]] == 0.5)
            assert points(snap)[t1[0]["id"]] == 1 and points(snap)[t1[2]["id"]] == 0
            log = page.locator("#log li")
            log.first.wait_for(timeout=10_000)
            assert log.count() == 3 and "organiser's page (127.0.0.1)" in log.first.inner_text()
            said = page.locator("#log li > span").all_inner_texts()  # in words, newest first: names, never ids
            assert said[1].endswith(": " + i18n.translate("en", "hall.organiser.did.drop_player",
                                                             {"player": dropped["name"]})), said
            assert said[2].endswith(": " + i18n.translate("en", "hall.organiser.did.void_result", {"table": "t2"}))
            assert said[0].endswith(": " + i18n.translate("en", "hall.organiser.did.scoring", {
                "rule": i18n.translate("en", "hall.organiser.scoring.beaten")}))
            page.screenshot(path=shots_dir / "hall-organiser-corrections.png", full_page=True)
        kinds = [(c["kind"], c["who"]) for c in run.store.corrections()]
        assert kinds == [(k, "organiser's page (127.0.0.1)") for k in ("void_result", "drop_player", "scoring")]


def test_a_table_reseated_within_its_round_keeps_the_round(tmp_path: Path) -> None:
    with running_hall(tmp_path, tables=("t1", "t2", "t3"), page_port=0) as run:
        ids = [run.hall.actions.add_player(name) for name in NAMES]
        first = run.hall.actions.send_seating("lab_escape", ids, ["t1", "t2"], pods=(3, 3))
        play(run, {**first, "tables": {"t1": first["tables"]["t1"]}}, 1)  # t1 played; t2's table broke
        until(run.hall.model, lambda s: sum(r["games"] for r in s["standings"]) == 3)
        moved = run.hall.actions.send_seating("lab_escape", [p["id"] for p in first["tables"]["t2"]], ["t3"],
                                              reseat=True, who="organiser's page (test)")
        assert moved["round"] == first["round"] == 1 and list(moved["tables"]) == ["t3"]
        play(run, moved, 1)
        snap = until(run.hall.model, lambda s: sum(r["games"] for r in s["standings"]) == 6)
        assert snap["seating"]["round"] == 1
        again = run.hall.actions.send_seating("lab_escape", [p["id"] for p in first["tables"]["t1"]], ["t1"],
                                              reseat=True)  # t1 re-seated too: its first game is now casual
        assert again["round"] == 1
        snap = until(run.hall.model, lambda s: sum(r["games"] for r in s["standings"]) == 3 and len(s["casual"]) == 1)
        assert [(c["kind"], c["args"].get("table")) for c in run.store.corrections()] == [
            ("cancel_seating", "t2"), ("reseat", None), ("cancel_seating", "t1"), ("reseat", None)]
        assert run.hall.actions.send_seating("lab_escape", ids, ["t1", "t2"], pods=(3, 3))["round"] == 2


def test_a_correction_that_cannot_be_made_says_why_and_changes_nothing(tmp_path: Path) -> None:
    with running_hall(tmp_path, tables=("t1",), page_port=0) as run:
        a, b = (run.hall.actions.add_player(name) for name in NAMES[:2])
        for body, code in [
            ({"kind": "void_result", "args": {"table": "t1", "key": "ffff0000"}}, "hall.correction.no_result"),
            ({"kind": "merge_players", "args": {"player": a, "into": a}}, "hall.correction.no_player"),
            ({"kind": "rename_player", "args": {"player": "nobody", "name": "X"}}, "hall.correction.no_player"),
            ({"kind": "scoring", "args": {"scoring": {"rule": "custom", "custom": []}}}, "hall.correction.bad_scoring"),
            ({"kind": "reseat", "args": {}}, "hall.correction.unknown"),
            ({"kind": "void_result"}, "hall.reject.bad_request"),
        ]:
            status, answer = post(run, body)
            assert status == 400 and answer["error"]["code"] == code, (body, answer)
            for lang in i18n.LANGUAGES:
                assert "{" not in i18n.describe(lang, answer["error"]) or code == "hall.reject.bad_request"
        assert run.store.corrections() == []
        status, _ = post(run, {"kind": "rename_player", "args": {"player": b, "name": "สมชาย ใจดี ศรีสวัสดิ์"}})
        assert status == 200 and run.store.players()[1]["name"] == "สมชาย ใจดี ศรีสวัสดิ์"


def test_the_organisers_link_survives_a_restart_until_a_new_one_is_asked_for(tmp_path: Path) -> None:
    with running_hall(tmp_path, tables=("t1",)) as run:
        first = run.hall.organiser_key
    store = open_store(tmp_path / "hall.sqlite3")
    again = Hall(store, league(), HallOptions(name="Test hall", port=free_port(), page_port=None))
    assert again.organiser_key == first and len(first) >= 16
    renewed = Hall(store, league(), HallOptions(name="Test hall", port=free_port(), page_port=None,
                                               new_organiser_key=True))
    assert renewed.organiser_key != first
    assert Hall(store, league(), HallOptions(port=free_port(), page_port=None)).organiser_key == renewed.organiser_key


def test_a_late_entry_from_the_organisers_page_is_on_the_roster_and_ticked(tmp_path: Path, browser: Browser) -> None:
    with running_hall(tmp_path, tables=("t1",), page_port=0) as run:
        for name in NAMES[:3]:
            run.hall.actions.add_player(name)
        url = f"http://127.0.0.1:{run.hall.page_port}/organiser?key={run.hall.organiser_key}"
        with opened(browser, url, TV) as page:
            page.wait_for_selector("input[name='present']", timeout=10_000)
            page.fill("#new-player", "ประยุทธ์ จันทร์โอชา")
            page.click("#add-player")
            page.wait_for_selector("#roster li:has-text('ประยุทธ์ จันทร์โอชา')", timeout=10_000)
            late = next(p for p in run.store.players() if p["name"] == "ประยุทธ์ จันทร์โอชา")
            assert page.locator(f"input[name='present'][value='{late['id']}']").is_checked()
            page.click("#add-player")  # an empty name adds nobody
            assert len(run.store.players()) == 4
        assert [(c["kind"], c["args"]["player"]) for c in run.store.corrections()] == [("add_player", late["id"])]


def test_an_undo_takes_back_one_correction_once_and_says_why_it_cannot(tmp_path: Path) -> None:
    with running_hall(tmp_path, tables=("t1",), page_port=0) as run:
        a, b = (run.hall.actions.add_player(name) for name in NAMES[:2])
        status, renamed = post(run, {"kind": "rename_player", "args": {"player": a, "name": "Somchai J."}})
        assert status == 200 and isinstance(renamed["seq"], int)
        _, dropped = post(run, {"kind": "drop_player", "args": {"player": b}})
        for body, code in [
            ({"kind": "undo", "args": {"seq": dropped["seq"]}}, "hall.correction.cannot_undo"),  # Re-enter is its undo
            ({"kind": "undo", "args": {"seq": 999}}, "hall.correction.cannot_undo"),
            ({"kind": "undo", "args": {"seq": "1"}}, "hall.correction.cannot_undo"),
        ]:
            status, answer = post(run, body)
            assert status == 400 and answer["error"]["code"] == code, (body, answer)
        assert post(run, {"kind": "undo", "args": {"seq": renamed["seq"]}})[0] == 200
        assert run.store.players()[0]["name"] == NAMES[0]  # the name it had
        status, answer = post(run, {"kind": "undo", "args": {"seq": renamed["seq"]}})
        assert status == 400 and answer["error"]["code"] == "hall.correction.undone_already"
        _, removed = post(run, {"kind": "remove_player", "args": {"player": b}})
        assert [p["id"] for p in run.store.players()] == [a]
        assert post(run, {"kind": "undo", "args": {"seq": removed["seq"]}})[0] == 200
        assert {p["id"]: p["name"] for p in run.store.players()} == {a: NAMES[0], b: NAMES[1]}  # back, own id
        assert [c["kind"] for c in run.store.corrections()] == [
            "rename_player", "drop_player", "undo", "remove_player", "undo"]


def test_hostile_check_ins_and_table_names_are_refused_and_change_nothing(tmp_path: Path) -> None:
    with running_hall(tmp_path, tables=("t1",), page_port=0) as run:
        a = run.hall.actions.add_player(NAMES[0])
        code = run.hall.actions.checkin_code()
        base = f"http://127.0.0.1:{run.hall.page_port}"

        def send(path: str, body: bytes, key: bool = False) -> tuple[int, dict[str, Any]]:
            headers = {"Content-Type": "application/json", **({KEY_HEADER: run.hall.organiser_key} if key else {})}
            try:
                with urllib.request.urlopen(urllib.request.Request(base + path, body, headers), timeout=10) as answer:
                    return answer.status, json.loads(answer.read())
            except HTTPError as err:
                return err.code, json.loads(err.read())

        for body, status, error in [
            (json.dumps({"code": "guess", "player": a}).encode(), 403, "hall.checkin.bad_code"),
            (json.dumps({"code": code, "player": "nobody"}).encode(), 403, "hall.correction.no_player"),
            (json.dumps({"code": code, "player": {"$ne": 1}}).encode(), 400, "hall.reject.bad_request"),
            (json.dumps({"code": code, "player": a, "extra": 1}).encode(), 400, "hall.reject.bad_request"),
            (b"[" * 5000, 400, "hall.reject.not_json"),
            (b"\xff\xfe", 400, "hall.reject.not_json"),
        ]:
            got = send("/checkin", body)
            assert got[0] == status and got[1]["error"]["code"] == error, (body[:40], got)
        assert run.hall.actions.checkin_roster(code) == [{"id": a, "name": NAMES[0], "in": False}]
        for name in ["", "x" * 65, "Table\n3", "\u202eTable"]:
            got = send("/table", json.dumps({"name": name}).encode(), key=True)
            assert got[0] == 400 and got[1]["error"]["code"] == "hall.cli.bad_table_name", (name, got)
        assert send("/table", json.dumps({"name": "Table 9"}).encode())[0] == 403  # without the organiser's key
        assert set(run.store.table_passwords()) == {"t1"}
        checked = send("/checkin", json.dumps({"code": code, "player": a}).encode())
        assert checked == (200, {"ok": True, "name": NAMES[0]})
