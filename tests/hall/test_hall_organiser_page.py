"""The organiser's corrections, made on their page in headless Chromium on the real hall (its central
Mosquitto, watcher, league worker, SQLite file and pages), and the standings page checked against a table
of points worked out by hand (docs/hall.md, "Corrections from the organiser's page").

A small night of three rounds, every round at one table so each game's players are known: a ranking
entered wrong and edited, a person entered twice and merged, a rename, a removal taken back with Undo, a
void taken back, a refusal in words, a table cancelled (its game then played anyway: casual) and its
players re-seated at another table within the round. The tables are paho clients logged in as their
bridges are (tests/hall/test_hall_rounds.py has a real table)."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import numpy as np
import pygame
import zxingcpp
from playwright.sync_api import Browser, Page, expect

from companion.hall import protocol
from tests.kits.hall_pages_kit import PHONE, TV, opened
from tests.kits.hall_running import PREFIX, Running, result, running_hall, table_of, topic, until
from tests.kits.kiosk_fixtures import shots_dir

__all__ = ["shots_dir"]  # screenshots kept in KIOSK_SHOTS when it is set (docs/screenshots/hall/)

PEOPLE = ["Anna-Maria Fitzgerald", "สมชาย ใจดี", "阮文安", "Christopher Lee", "Chris Lee", "Mai", "Walk-in Test"]
WAIT_MS = 10_000

# The hand-worked standings after the night (see the test's comments for each game):
#   placing points, n players: n, n-1, ... 1
#     round 1 (edited): Anna-Maria 4, 阮文安 3, สมชาย 2, Christopher (was "Chris Lee") 1
#     round 2 (void, then undone): สมชาย 5, Mai Tanaka 4, Anna-Maria 3, Christopher 2, 阮文安 1
#     round 3 (t1 cancelled, re-seated at t2): Christopher 4, สมชาย 3, Anna-Maria 2, 阮文安 1
#   beaten: players behind / (n - 1), each game's share to 4 places
PLACING = [  # name, games, wins, points
    ("สมชาย ใจดี", 3, 1, "10"),
    ("Anna-Maria Fitzgerald", 3, 1, "9"),
    ("Christopher Lee", 3, 1, "7"),
    ("阮文安", 3, 0, "5"),
    ("Mai Tanaka", 1, 0, "4"),
    ("Walk-in Test", 0, 0, "0"),
]
BEATEN = [  # 1/3 + 1 + 2/3; 1 + 1/2 + 1/3; 0 + 1/4 + 1; 3/4; 2/3 + 0 + 0
    ("สมชาย ใจดี", 3, 1, "2"),
    ("Anna-Maria Fitzgerald", 3, 1, "1.8333"),
    ("Christopher Lee", 3, 1, "1.25"),
    ("Mai Tanaka", 1, 0, "0.75"),
    ("阮文安", 3, 0, "0.6667"),
    ("Walk-in Test", 0, 0, "0"),
]


def seat(page: Page, run: Running, names: list[str] | None, tables: list[str]) -> dict[str, Any]:
    """The organiser seats a round (names: those present, None: as the form already holds them)."""
    before = run.store.last_seating()
    if names is not None:
        page.click("#no-players")
        for name in names:
            page.locator("#present label.choice", has_text=name).locator("input").check()
    for box in page.locator("input[name='tables']").all():
        box.set_checked(box.get_attribute("value") in tables)
    page.fill("#pod-low", "3")
    page.fill("#pod-high", "5")
    page.click("#seat")
    page.wait_for_selector("#done:not([hidden])", timeout=WAIT_MS)
    seating = run.store.last_seating()
    assert seating is not None and seating != before
    return seating


def play(run: Running, seating: dict[str, Any], table: str, number: int, order: list[str]) -> None:
    """`table` finishes its game with the players ranked as `order` (names) says."""
    chairs = seating["tables"][table]
    ids = {p["name"]: p["id"] for p in run.store.players()}
    assert sorted(p["id"] for p in chairs) == sorted(ids[n] for n in order)
    run.table(table).publish(topic(table, f"results/{number}"), result(
        table, number, f"{number:06x}{ord(table[-1]):06x}", game="toolkit", players=chairs,
        ranking=[[ids[n]] for n in order], seating=seating["seating"], round_no=seating["round"]), True)


def player(page: Page, name: str) -> Any:
    """A player's line on the roster, by their name."""
    return page.locator(f"#roster li:has(> span:text-is('{name}'))")


def scan_checkin_qr(page: Page) -> str:
    """What a phone camera reads off the check-in QR code on the organiser's page (its pixels decoded)."""
    shot = page.locator("#checkin-qr").screenshot()
    gray = pygame.surfarray.array3d(pygame.image.load(io.BytesIO(shot))).mean(axis=2).T.astype(np.uint8)
    found = {str(code.text) for code in zxingcpp.read_barcodes(gray, formats=zxingcpp.BarcodeFormat.QRCode)}
    assert len(found) == 1, found
    return found.pop()


def two_taps(button: Any, armed: str) -> None:
    """A destructive control: the first tap arms it (it says what a second does), the second acts."""
    button.click()
    expect(button).to_have_text(armed)
    button.click()


def said(page: Page, text: str) -> None:
    expect(page.locator("#corrected")).to_contain_text(text, timeout=WAIT_MS)


def standings(page: Page) -> list[tuple[str, int, int, str]]:
    rows = page.locator("#rows tr")
    return [(r.locator("td").nth(1).inner_text(), int(r.locator("td").nth(2).inner_text()),
             int(r.locator("td").nth(3).inner_text()), r.locator("td").nth(4).inner_text()) for r in rows.all()]


def test_the_organiser_corrects_a_night_from_the_page(tmp_path: Path, browser: Browser, shots_dir: Path) -> None:
    with running_hall(tmp_path, tables=("t1", "t2"), page_port=0) as run:
        for name in PEOPLE:
            run.hall.actions.add_player(name)
        base = f"http://127.0.0.1:{run.hall.page_port}"
        with opened(browser, f"{base}/organiser?key={run.hall.organiser_key}", TV) as page:
            page.wait_for_selector("input[name='present']", timeout=WAIT_MS)
            page.select_option("#game", "toolkit")
            # a table added from the page: the lines for its config, its login working at once
            page.fill("#new-table", "Table 3")
            page.click("#add-table")
            expect(page.locator("#table-added-text")).to_contain_text("Table 3 added (its id: table-3)",
                                                                      timeout=WAIT_MS)
            password = run.store.table_passwords()["table-3"]
            assert page.locator("#table-config").inner_text().splitlines()[1:] == [
                "[table]", 'id = "table-3"', "", "[hall]", f'url = "mqtt://127.0.0.1:{run.port}"', 'name = "Table 3"',
                f'password = "{password}"']
            expect(page.locator("input[name='tables'][value='table-3']")).to_have_count(1, timeout=WAIT_MS)
            run.table("table-3", password).close()  # its login works at once
            page.locator("#tables-box").screenshot(path=shots_dir / "organiser-table-added.png")
            # round 1 at t1: its ranking was entered wrong (阮文安 first); the organiser edits it
            # round 1's players check themselves in: the QR code read as a phone's camera would, their names tapped
            link = scan_checkin_qr(page)
            assert link == page.locator("#checkin-link").inner_text() and "/checkin?code=" in link
            first = ["Anna-Maria Fitzgerald", "สมชาย ใจดี", "阮文安", "Chris Lee"]
            with opened(browser, link, PHONE) as phone:
                for name in first:
                    phone.locator("#names button", has_text=name).click()
                    expect(phone.locator("#checked")).to_have_text(f"Thanks, {name}: you are checked in.",
                                                                   timeout=WAIT_MS)
                phone.screenshot(path=shots_dir / "checkin-phone-en.png", full_page=True)
            expect(page.locator("#checkin-count")).to_contain_text("4 checked in", timeout=WAIT_MS)
            page.locator("#checkin").screenshot(path=shots_dir / "organiser-checkin.png")
            page.click("#tick-checked")
            stale = page.request.get(f"{base}/checkin.json?code=old-link")  # not tonight's code: refused, in words
            assert stale.status == 403 and stale.json()["error"]["code"] == "hall.checkin.bad_code"
            r1 = seat(page, run, None, ["t1"])
            assert sorted(p["name"] for p in r1["tables"]["t1"]) == sorted(first)
            play(run, r1, "t1", 1, ["阮文安", "Anna-Maria Fitzgerald", "สมชาย ใจดี", "Chris Lee"])
            line = page.locator("#results li[data-how='scored']")
            expect(line).to_have_count(1, timeout=WAIT_MS)
            line.locator("[data-do='edit']").click()
            editor = line.locator("form[data-editor]")
            page.locator("#corrections").screenshot(path=shots_dir / "organiser-edit-ranking.png")
            for place, name in enumerate(["Anna-Maria Fitzgerald", "阮文安", "สมชาย ใจดี", "Chris Lee"], 1):
                editor.locator("label", has_text=name).locator("select").select_option(str(place))
            editor.get_by_role("button", name="Save").click()
            said(page, "Ranking at t1 changed")
            # "Chris Lee" is Christopher Lee entered twice: merged (two taps)
            player(page, "Chris Lee").locator("[data-do='merge']").click()
            merging = page.locator("#roster [data-editor^='merge:']")
            merging.locator("select").select_option(label="Christopher Lee")
            go = merging.locator("[data-do='merge-go']")
            go.click()
            expect(go).to_have_text("Tap again to merge")
            # between the two taps Mai checks in (her phone's tap, as the check-in page sends it): the page is
            # drawn again, and the name chosen stays chosen (a redraw once put back the list's first name)
            mai = player(page, "Mai").get_attribute("data-player")
            code = link.split("code=", 1)[1]
            assert page.request.post(f"{base}/checkin", data=json.dumps({"code": code, "player": mai}),
                                     headers={"Content-Type": "application/json"}).ok
            expect(page.locator("#checkin-count")).to_contain_text("5 checked in", timeout=WAIT_MS)
            christopher = str(player(page, "Christopher Lee").get_attribute("data-player"))
            expect(merging.locator("select")).to_have_value(christopher)
            go.click()
            said(page, "Chris Lee merged into Christopher Lee")
            expect(player(page, "Chris Lee")).to_have_count(0)
            # a refusal in words: two who played one game are two people
            player(page, "Christopher Lee").locator("[data-do='merge']").click()
            merging.locator("select").select_option(label="Anna-Maria Fitzgerald")
            two_taps(merging.locator("[data-do='merge-go']"), "Tap again to merge")
            expect(page.locator("#correction-problem")).to_have_text(
                "These two played in one game: they are two people, not one.", timeout=WAIT_MS)
            # a rename, and a removal taken back
            player(page, "Mai").locator("[data-do='rename']").click()
            page.fill("#roster input[name='rename']", "Mai Tanaka")
            page.locator("#roster [data-editor^='rename:']").get_by_role("button", name="Save").click()
            said(page, "Mai is now Mai Tanaka")
            two_taps(player(page, "Walk-in Test").locator("[data-do='remove']"),
                     "Tap again to remove")
            said(page, "Walk-in Test removed from the roster")
            expect(player(page, "Walk-in Test")).to_have_count(0)
            page.locator("#corrections").screenshot(path=shots_dir / "organiser-undo.png")
            page.locator("#corrected [data-do='undo-last']").click()
            said(page, "undid: removed Walk-in Test")
            expect(player(page, "Walk-in Test")).to_have_count(1)
            # round 2 at t2: voided by mistake, and the void taken back from the log
            page.fill("#minutes", "40")
            r2 = seat(page, run, ["Anna-Maria Fitzgerald", "สมชาย ใจดี", "阮文安", "Christopher Lee", "Mai Tanaka"],
                      ["t2"])
            page.fill("#minutes", "")
            with opened(browser, f"{base}/cycle", TV) as tv:  # the TV between rounds: pairings and standings
                seats = tv.locator("#between .pairing[data-table='t2'] li")
                expect(seats).to_have_text([f"{n}. {p['name']}" for n, p in enumerate(r2["tables"]["t2"], 1)],
                                           timeout=WAIT_MS)
                expect(tv.locator("#between tbody tr").first).to_contain_text("Anna-Maria Fitzgerald")
                expect(tv.locator("#between tbody tr")).to_have_count(6)
                tv.screenshot(path=shots_dir / "cycle-between-rounds.png")
                run.table("t2").publish(protocol.seated_topic(PREFIX, "t2"), protocol.seated_payload(
                    seating=r2["seating"], round_no=2, state="applied"), True)
                until(run.hall.model, lambda s: (table_of(s, "t2")["seated"] or {}).get("state") == "applied")
                expect(tv.locator("#between")).to_be_hidden(timeout=WAIT_MS)  # under way: the tables, the clock
                expect(tv.locator("#round-clock")).to_contain_text("Round 2")
                expect(tv.locator("#table .table-card")).to_have_count(1)
                tv.screenshot(path=shots_dir / "cycle-round-clock.png")
            play(run, r2, "t2", 2, ["สมชาย ใจดี", "Mai Tanaka", "Anna-Maria Fitzgerald", "Christopher Lee", "阮文安"])
            line = page.locator("#results li[data-how='scored']", has_text="Mai Tanaka")
            expect(line).to_have_count(1, timeout=WAIT_MS)
            two_taps(line.locator("[data-do='void']"), "Tap again to void")
            said(page, "Result of t2 voided")
            until(run.hall.model, lambda s: sum(r["games"] for r in s["standings"]) == 4)
            page.locator("#log li[data-kind='void_result'] [data-do='undo']").click()
            said(page, "undid: voided a result at t2")
            until(run.hall.model, lambda s: sum(r["games"] for r in s["standings"]) == 9)
            # round 3 at t1: the table breaks; cancelled (two taps), its players re-seated at t2
            r3 = seat(page, run, ["Anna-Maria Fitzgerald", "สมชาย ใจดี", "阮文安", "Christopher Lee"], ["t1"])
            table = page.locator("#answers-list li[data-table='t1']")
            cancel = table.locator("[data-do='cancel']")
            cancel.click()
            expect(cancel).to_have_text("Tap again to cancel")
            page.locator("#answers").screenshot(path=shots_dir / "organiser-cancel-armed.png")
            cancel.click()
            said(page, "t1's seating cancelled")
            expect(table).to_have_attribute("data-state", "cancelled")
            table.locator("[data-do='reseat']").click()
            expect(page.locator("#done")).to_contain_text("t1's players are ticked")
            page.locator("input[name='tables'][value='t2']").check()
            moved = seat(page, run, None, ["t2"])
            assert moved["round"] == 3 and list(moved["tables"]) == ["t2"]
            play(run, r3, "t1", 3, ["阮文安", "สมชาย ใจดี", "Anna-Maria Fitzgerald", "Christopher Lee"])  # casual
            play(run, moved, "t2", 4, ["Christopher Lee", "สมชาย ใจดี", "Anna-Maria Fitzgerald", "阮文安"])
            snap = until(run.hall.model, lambda s: sum(r["games"] for r in s["standings"]) == 13 and len(s["casual"]))
            with opened(browser, f"{base}/standings", TV) as board:
                expect(board.locator("#rows tr")).to_have_count(6, timeout=WAIT_MS)
                assert standings(board) == PLACING
                page.select_option("#scoring-rule", "beaten")
                page.click("#scoring-save")
                said(page, "Scoring saved: ")
                expect(board.locator("#rows tr td:nth-child(5)").first).to_have_text("2", timeout=WAIT_MS)
                assert standings(board) == BEATEN
            assert len(snap["casual"]) == 1
            kinds = [c["kind"] for c in run.store.corrections()]
            assert kinds == ["edit_result", "merge_players", "rename_player", "remove_player", "undo", "void_result",
                             "undo", "cancel_seating", "reseat", "scoring"]
