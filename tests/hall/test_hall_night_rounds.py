"""Issue 29's league night, driven from the organiser's page in headless Chromium on the real hall (its
central Mosquitto, watcher, league worker, SQLite file and pages); the tables are paho clients logged in
as their bridges are, sending what a table sends (tests/hall/test_hall_rounds.py has a real table).

Three rounds of Escape the Lab in pods of 3-4 on three of four tables, 12 players with long Latin, Thai and
Chinese names plus a late entry (13), a bye, a drop, a casual game between rounds (not scored), a voided
result and a table re-seated within round 1 (its players moved to another table). Each table's ranking
follows one fixed order of strength, so every game's points follow from who sat where; the standings
are checked against the points worked out in this file for two scoring rules (placing points, then
players beaten over players one could beat, chosen on the page)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page

from tests.kits.hall_pages_kit import TV, opened
from tests.kits.hall_running import Running, result, running_hall, topic, until

STRENGTH = ["Anna-Maria Fitzgerald", "สมชาย ใจดี", "阮文安", "Somchai Jaidee", "Christopher Lee", "Nguyen Van Anh",
            "欧阳娜娜", "ประยุทธ์ จันทร์โอชา", "Maximilian von Hohenberg", "Zoë Ångström-Ødegård", "Mai", "Ton",
            "Ploy"]  # the strongest first; "ประยุทธ์ จันทร์โอชา" comes late
LATE = "ประยุทธ์ จันทร์โอชา"


def seat(page: Page, run: Running, present: list[str] | None, tables: list[str], *,
         reseat: bool = False) -> dict[str, Any]:
    """The organiser seats a round on the page (None: "Everyone"); the seating as the hall saved it."""
    before = run.store.last_seating()
    page.click("#all-players" if present is None else "#no-players")
    for pid in present or []:
        page.locator(f"input[name='present'][value='{pid}']").check()
    for box in page.locator("input[name='tables']").all():
        box.set_checked(box.get_attribute("value") in tables)
    page.fill("#pod-low", "3")
    page.fill("#pod-high", "4")
    page.locator("#byes").set_checked(True)
    page.fill("#minutes", "40")
    page.locator("#reseat").set_checked(reseat)
    page.click("#seat")
    page.wait_for_selector("#done:not([hidden])", timeout=10_000)
    seating = run.store.last_seating()
    assert seating is not None and seating != before
    return seating


def play(run: Running, seating: dict[str, Any], table: str, number: int, casual: bool = False) -> list[str]:
    """`table` finishes its game: ranked by strength; returns the ranking's player ids."""
    names = {p["id"]: p["name"] for p in run.store.players()}
    chairs = seating["tables"][table]
    ranked = sorted((p["id"] for p in chairs), key=lambda pid: STRENGTH.index(names[pid]))
    extra = {} if casual else {"seating": seating["seating"], "round_no": seating["round"]}
    run.table(table).publish(topic(table, f"results/{number}"), result(
        table, number, f"{number:06x}{ord(table[-1]):06x}", game="lab_escape", players=chairs,
        ranking=[[pid] for pid in ranked], **extra), True)
    return ranked


def test_three_rounds_from_the_organisers_page(tmp_path: Path, browser: Browser) -> None:
    with running_hall(tmp_path, tables=("t1", "t2", "t3", "t4"), page_port=0) as run:
        for name in STRENGTH:
            if name != LATE:
                run.hall.actions.add_player(name)
        url = f"http://127.0.0.1:{run.hall.page_port}/organiser?key={run.hall.organiser_key}"
        scored: list[list[str]] = []  # the rankings that count, as this test expects them
        with opened(browser, url, TV) as page:
            page.wait_for_selector("input[name='present']", timeout=10_000)
            page.select_option("#game", "lab_escape")
            # round 1: 12 players on t1-t3, pods of 4
            r1 = seat(page, run, None, ["t1", "t2", "t3"])
            assert r1["round"] == 1 and sorted(len(c) for c in r1["tables"].values()) == [4, 4, 4]
            scored.append(play(run, r1, "t1", 1))
            play(run, r1, "t2", 1)  # entered wrong: voided below
            # t3's table breaks before its game: its players are re-seated at t4, within round 1
            moved = seat(page, run, [p["id"] for p in r1["tables"]["t3"]], ["t4"], reseat=True)
            assert moved["round"] == 1 and list(moved["tables"]) == ["t4"]
            scored.append(play(run, moved, "t4", 1))
            until(run.hall.model, lambda s: sum(r["games"] for r in s["standings"]) == 12)
            line = page.locator("#results li[data-how='scored']").filter(has_text="t2")
            line.locator("[data-do='void']").click()
            line.locator("[data-do='void']").click()  # two taps: void
            until(run.hall.model, lambda s: sum(r["games"] for r in s["standings"]) == 8)
            # between rounds t1 plays a casual game, and a late entry arrives
            play(run, r1, "t1", 2, casual=True)
            page.fill("#new-player", LATE)
            page.click("#add-player")
            page.wait_for_selector(f"#roster li:has-text('{LATE}')", timeout=10_000)
            # round 2: 13 players on t1-t3: one bye
            r2 = seat(page, run, None, ["t1", "t2", "t3"])
            assert r2["round"] == 2 and len(r2["byes"]) == 1
            for n, table in enumerate(r2["tables"], 3):
                scored.append(play(run, r2, table, n))
            # a player drops after round 2
            drop = next(p for p in run.store.players() if p["name"] == "Ton")
            page.locator(f"#roster li[data-player='{drop['id']}'] [data-do='drop']").click()
            page.wait_for_selector(f"#roster li[data-player='{drop['id']}']:has-text('dropped')", timeout=10_000)
            r3 = seat(page, run, None, ["t1", "t2", "t3"])
            assert r3["round"] == 3 and not r3["byes"]
            assert drop["id"] not in {p["id"] for c in r3["tables"].values() for p in c}
            for n, table in enumerate(r3["tables"], 6):
                scored.append(play(run, r3, table, n))
            games = sum(len(r) for r in scored)
            snap = until(run.hall.model, lambda s: sum(r["games"] for r in s["standings"]) == games)
            assert len(snap["casual"]) == 1
            roster = [p["id"] for p in run.store.players()]
            placing = expected(scored, roster, beaten=False)
            assert {r["id"]: r["points"] for r in snap["standings"]} == placing
            page.select_option("#scoring-rule", "beaten")
            page.click("#scoring-save")
            beaten = expected(scored, roster, beaten=True)
            snap = until(run.hall.model, lambda s: {r["id"]: r["points"] for r in s["standings"]} == beaten)
            kinds = sorted(c["kind"] for c in run.store.corrections())
            assert kinds == sorted(["cancel_seating", "reseat", "void_result", "add_player", "drop_player", "scoring"])


def expected(rankings: list[list[str]], roster: list[str], *, beaten: bool) -> dict[str, float]:
    """Each roster player's points from the scored games (every player ranked alone), worked out here:
    placing, n players: n, n-1, ... 1; beaten: players behind over players one could beat."""
    points: dict[str, float] = dict.fromkeys(roster, 0.0)
    for ranking in rankings:
        n = len(ranking)
        for ahead, pid in enumerate(ranking):
            points[pid] += round((n - 1 - ahead) / (n - 1), 4) if beaten else n - ahead
    return {pid: (int(v) if v == int(v) else round(v, 4)) for pid, v in points.items()}
