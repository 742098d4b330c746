"""Issue 29's league night, driven from the organiser's page in headless Chromium on the real hall (its
central Mosquitto, watcher, league worker, SQLite file and pages); the tables are paho clients logged in
as their bridges are, sending what a table sends (tests/hall/test_hall_rounds.py has a real table).

Three rounds of Escape the Lab in pods of 3-4 on three of four tables, 12 players with long Latin, Thai and
Chinese names plus a late entry (13), a bye, a drop, a casual game between rounds (not scored), a voided
result and a table re-seated within round 1 (its players moved to another table); round 3 offers two
games (Room 25 at t3: its seat list, the organiser's page and the TV name it, and t3's Escape the Lab
result for that seating is kept apart, never scored). Each table's ranking
follows one fixed order of strength; the hall draws from a seed (as `--draw-seed` does), so who sat
where is the same every run, and the standings equal tables worked out by hand in this file for two
scoring rules chosen on the page (placing points, then players beaten over players one could beat)."""

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
SEED = "hand-worked night"  # the hall's draw seed (`companion hall run --draw-seed`): the seating below
ANNA, SOMCHAI, CHRIS, SOMCHAI_TH, NGUYEN_ZH, OUYANG, PRAYUT, MAX, NGUYEN, ZOE, TON, MAI, PLOY = (
    "Anna-Maria Fitzgerald", "Somchai Jaidee", "Christopher Lee", "สมชาย ใจดี", "阮文安", "欧阳娜娜", "ประยุทธ์ จันทร์โอชา",
    "Maximilian von Hohenberg", "Nguyen Van Anh", "Zoë Ångström-Ødegård", "Ton", "Mai", "Ploy")
# The scored games, each ranked by STRENGTH, in the seating the seed draws (round 1's t2 is voided, t3
# re-seated at t4; Mai has round 2's bye; Ton drops after round 2; the casual game is not here):
GAMES = [[ANNA, CHRIS, MAX, MAI],  # r1 G1 t1
         [SOMCHAI, ZOE, TON, PLOY],  # r1 G2 t4 (t3's players, re-seated)
         [NGUYEN_ZH, CHRIS, OUYANG, ZOE],  # r2 G3 t1
         [NGUYEN, PRAYUT, MAX, TON],  # r2 G4 t2
         [ANNA, SOMCHAI_TH, SOMCHAI, PLOY],  # r2 G5 t3
         [OUYANG, PRAYUT, MAI, PLOY],  # r3 G6 t1
         [SOMCHAI_TH, NGUYEN_ZH, MAX, ZOE],  # r3 G7 t2
         [ANNA, SOMCHAI, CHRIS, NGUYEN]]  # r3 G8 t3
# Tiebreakers chosen on the page: opponents' average, head-to-head, rating (none here reaches rating).
# Placing, 4 players: 4, 3, 2, 1 (8 games x 10 = 80 points in all). (name, points, place):
#   Anna 4+4+4 = 12 (G1, G5, G8); Somchai 4+2+3 = 9; Christopher 3+3+2 = 8;
#   สมชาย ใจดี 3+4 = 7 and 阮文安 4+3 = 7: opponents' average (G5 Anna 12, Somchai 9, Ploy 3; G7 阮文安 7,
#   Max 6, Zoë 5) = 42/6 = 7.0 against (G3 Christopher 8, 欧阳 6, Zoë 5; G7 สมชาย 7, Max 6, Zoë 5) = 37/6 = 6.17;
#   Max 2+2+2, 欧阳 2+4, ประยุทธ์ 3+3 = 6: averages 56/9 = 6.22, 32/6 = 5.33, 26/6 = 4.33;
#   Nguyen 4+1 = 5 (44/6 = 7.33) before Zoë 3+1+1 = 5 (56/9 = 6.22);
#   Mai 1+2, Ploy 1+1+1, Ton 2+1 = 3: averages 41/6 = 6.83, 60/9 = 6.67, 34/6 = 5.67.
PLACING = [(ANNA, 12, 1), (SOMCHAI, 9, 2), (CHRIS, 8, 3), (SOMCHAI_TH, 7, 4), (NGUYEN_ZH, 7, 5), (MAX, 6, 6),
           (OUYANG, 6, 7), (PRAYUT, 6, 8), (NGUYEN, 5, 9), (ZOE, 5, 10), (MAI, 3, 11), (PLOY, 3, 12), (TON, 3, 13)]
# Beaten, 4 players: 3/3, 2/3, 1/3, 0 = 1, 0.6667, 0.3333, 0 (each game's points kept to 4 decimals):
#   Anna 1+1+1 = 3; Somchai 1+0.3333+0.6667 = 2;
#   Christopher 0.6667+0.6667+0.3333, สมชาย 0.6667+1, 阮文安 1+0.6667 = 1.6667: opponents' average
#   (Anna 3, Max 0.9999, Mai 0.3333, 阮文安 1.6667, 欧阳 1.3333, Zoë 0.6667, Anna 3, Somchai 2, Nguyen 1)
#   = 14.0/9 = 1.56, then สมชาย 8.33/6 = 1.39, then 阮文安 7.0/6 = 1.17;
#   ประยุทธ์ 0.6667+0.6667 = 1.3334 just above 欧阳 0.3333+1 = 1.3333; Nguyen 1+0 = 1 above
#   Max 0.3333 x 3 = 0.9999; Zoë 0.6667+0+0; Mai 0+0.3333 and Ton 0.3333+0 = 0.3333: averages
#   (Anna 3, Christopher 1.6667, Max 0.9999, 欧阳 1.3333, ประยุทธ์ 1.3334, Ploy 0) 8.33/6 = 1.39 and
#   (Somchai 2, Zoë 0.6667, Ploy 0, Nguyen 1, ประยุทธ์ 1.3334, Max 0.9999) 6.0/6 = 1.0; Ploy 0.
BEATEN = [(ANNA, 3, 1), (SOMCHAI, 2, 2), (CHRIS, 1.6667, 3), (SOMCHAI_TH, 1.6667, 4), (NGUYEN_ZH, 1.6667, 5),
          (PRAYUT, 1.3334, 6), (OUYANG, 1.3333, 7), (NGUYEN, 1, 8), (MAX, 0.9999, 9), (ZOE, 0.6667, 10),
          (MAI, 0.3333, 11), (TON, 0.3333, 12), (PLOY, 0, 13)]


def seat(page: Page, run: Running, present: list[str] | None, tables: list[str], *,
         reseat: bool = False, games: dict[str, str] | None = None) -> dict[str, Any]:
    """The organiser seats a round on the page (None: "Everyone"; `games`: a table's game when not the
    round's); the seating as the hall saved it."""
    before = run.store.last_seating()
    page.click("#all-players" if present is None else "#no-players")
    for pid in present or []:
        page.locator(f"input[name='present'][value='{pid}']").check()
    for box in page.locator("input[name='tables']").all():
        box.set_checked(box.get_attribute("value") in tables)
    for table, game in (games or {}).items():  # first: the players-per-table fields follow the games
        page.select_option(f"select[name='table-game'][data-table='{table}']", game)
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


def play(run: Running, seating: dict[str, Any], table: str, number: int, casual: bool = False,
         game: str | None = None) -> list[str]:
    """`table` finishes its game (the one it was seated for, unless `game`): ranked by strength; returns
    the ranking's player ids."""
    names = {p["id"]: p["name"] for p in run.store.players()}
    chairs = seating["tables"][table]
    ranked = sorted((p["id"] for p in chairs), key=lambda pid: STRENGTH.index(names[pid]))
    extra = {} if casual else {"seating": seating["seating"], "round_no": seating["round"]}
    run.table(table).publish(topic(table, f"results/{number}"), result(
        table, number, f"{number:06x}{ord(table[-1]):06x}", game=game or seating["games"][table], players=chairs,
        ranking=[[pid] for pid in ranked], **extra), True)
    return ranked


def test_three_rounds_from_the_organisers_page(tmp_path: Path, browser: Browser) -> None:
    with running_hall(tmp_path, tables=("t1", "t2", "t3", "t4"), page_port=0,
                          draw_seed=SEED) as run:
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
            # and among those the seating form can mark present (drawn from the same roster, a moment later)
            page.wait_for_function("() => document.querySelectorAll(\"input[name='present']\").length === 13",
                                   timeout=10_000)
            # round 2: 13 players on t1-t3: one bye
            r2 = seat(page, run, None, ["t1", "t2", "t3"])
            assert r2["round"] == 2 and len(r2["byes"]) == 1
            for n, table in enumerate(r2["tables"], 3):
                scored.append(play(run, r2, table, n))
            # a player drops after round 2
            drop = next(p for p in run.store.players() if p["name"] == "Ton")
            page.locator(f"#roster li[data-player='{drop['id']}'] [data-do='drop']").click()
            page.wait_for_selector(f"#roster li[data-player='{drop['id']}']:has-text('dropped')", timeout=10_000)
            # and so in the seating form, whose "Everyone" leaves them out (drawn a moment after the roster)
            page.wait_for_selector(f"#present label:has(input[value='{drop['id']}']):has-text('dropped')",
                                   timeout=10_000)
            # said in words, and only the words (a drop has no Undo: Re-enter is its way back)
            assert page.inner_text("#corrected").strip() == "Ton dropped: not seated in the next rounds"
            # round 3 offers two games: Room 25 at t3, the round's Escape the Lab at t1 and t2
            r3 = seat(page, run, None, ["t1", "t2", "t3"], games={"t3": "room25"})
            assert r3["round"] == 3 and not r3["byes"]
            assert r3["games"] == {"t1": "lab_escape", "t2": "lab_escape", "t3": "room25"}
            page.wait_for_selector("#answers-list li[data-table='t3'] .table-game:text-is('Room 25')", timeout=10_000)
            with opened(browser, f"http://127.0.0.1:{run.hall.page_port}/cycle", TV) as tv:
                tv.wait_for_selector(".pairing[data-table='t3'] .pairing-game", timeout=10_000)
                assert [tv.locator(f".pairing[data-table='{t}'] .pairing-game").inner_text()
                        for t in ("t1", "t2", "t3")] == ["Escape the Lab", "Escape the Lab", "Room 25"]
            play(run, r3, "t3", 9, game="lab_escape")  # the wrong game for t3's seating: kept, never scored
            assert drop["id"] not in {p["id"] for c in r3["tables"].values() for p in c}
            for n, table in enumerate(r3["tables"], 6):  # t3's is Room 25's result
                scored.append(play(run, r3, table, n))
            games = sum(len(r) for r in scored)
            snap = until(run.hall.model, lambda s: sum(r["games"] for r in s["standings"]) == games)
            assert len(snap["casual"]) == 2  # t1's game between rounds, t3's Escape the Lab in round 3
            names = {p["id"]: p["name"] for p in run.store.players()}
            assert [[names[pid] for pid in r] for r in scored] == GAMES  # the draw seed's seating, as worked by hand
            for rule, table in (("placing", PLACING), ("beaten", BEATEN)):
                page.select_option("#scoring-rule", rule)
                page.select_option("#tiebreakers", "opponents,head_to_head,rating")
                page.click("#scoring-save")
                snap = until(run.hall.model, lambda s, t=table: league_table(s) == t)
            kinds = sorted(c["kind"] for c in run.store.corrections())
            assert kinds == sorted(["cancel_seating", "reseat", "void_result", "add_player", "drop_player", "scoring",
                                    "scoring"])


def league_table(snap: dict[str, Any]) -> list[tuple[str, float, int]]:
    return [(r["name"], r["points"], r["rank"]) for r in snap["standings"]]
