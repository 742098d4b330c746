"""Rounds are first-class (issue 29): a table's result carries the round it was seated for, a game seated
by hand does not; the hall scores only each round's seated games and keeps casual games apart; a round of
13 players in pods of 3-4 on three tables gives one bye; the seat lists are drawn, not by rating."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from playwright.sync_api import Browser

from companion import i18n
from companion.hall import protocol
from tests.kits.hall_kit import HallTable, bridged, host, player
from tests.kits.hall_pages_kit import PHONE, TV, opened
from tests.kits.hall_running import result, running_hall, topic, until
from tests.kits.kiosk_fixtures import shots_dir
from tests.kits.phones_kit import WAIT_S

SEATED = [{"id": "somchai-j-4f", "name": "Somchai Jaidee"}, {"id": "p-7k", "name": "สมชาย ใจดี"},
          {"id": "p-9c", "name": "阮文安"}]

__all__ = ["shots_dir"]


def finish(t: HallTable, tag: str) -> None:
    """Each player's gold counter, then the host ends the game ranking by it (first player best)."""
    ids = [p.id for p in t.referee.setup.players]
    assert host(t, "counter.create", f"c-{tag}", name="gold", players=ids).accepted
    for n, pid in enumerate(ids):
        assert player(t, pid, "counter.adjust", f"a-{tag}-{pid}", name="gold", delta=10 - n).accepted
    assert host(t, "game.end", f"end-{tag}", rank_by="gold").accepted


def test_a_result_carries_the_round_it_was_seated_for_and_a_casual_game_none(tmp_path: Path) -> None:
    with bridged(tmp_path / "t1.sqlite3", "t1", "t1-pass-42") as (hall, t):
        heard = hall.hall_client()
        assert host(t, "game.end", "end-0").accepted  # the game the table started with ends
        seating = protocol.seating_payload(seating="e5e5e5e5", round_no=3, game="toolkit", options={}, players=SEATED)
        heard.client.publish(protocol.seating_topic("companion", "t1"), seating, qos=1, retain=True)
        assert t.hall.seating.heard.get(timeout=WAIT_S) == ("applied", "e5e5e5e5")
        number = t.referee.game_id
        finish(t, "r3")
        got = protocol.parse_result(heard.got(lambda m: m.topic == f"{t.base}/results/{number}").payload, "t1")
        assert (got["seating"], got["round"]) == ("e5e5e5e5", 3)
        assert got["ranking"] == [[p["id"]] for p in t.table.views.public["players"]]
        # "Another game" at the table with the same players: a casual game, no round
        assert host(t, "table.new_game", "again", game="toolkit", players=SEATED).accepted
        casual = t.referee.game_id
        finish(t, "casual")
        got = protocol.parse_result(heard.got(lambda m: m.topic == f"{t.base}/results/{casual}").payload, "t1")
        assert (got["seating"], got["round"]) == (None, None)
        heard.close()


NAMES = ["Somchai Jaidee", "Christopher Lee", "Nguyen Van Anh", "Anna-Maria Fitzgerald", "สมชาย ใจดี", "阮文安",
         "Mai", "Ton", "Ploy", "Lek", "Wei", "Li", "Niran"]


def test_a_round_of_13_in_pods_of_3_to_4_scores_its_seated_games_only(
        tmp_path: Path, browser: Browser, shots_dir: Path) -> None:
    with running_hall(tmp_path, tables=("t1", "t2", "t3"), page_port=0) as run:
        ids = [run.hall.actions.add_player(name) for name in NAMES]
        seating = run.hall.actions.send_seating("lab_escape", ids, ["t1", "t2", "t3"], pods=(3, 4), byes=True,
                                                minutes=45)
        tables: dict[str, list[dict[str, str]]] = seating["tables"]
        assert sorted(len(chairs) for chairs in tables.values()) == [4, 4, 4] and len(seating["byes"]) == 1
        assert sorted([*(p["id"] for c in tables.values() for p in c), seating["byes"][0]["id"]]) == sorted(ids)
        assert seating["round"] == 1 and seating["minutes"] == 45
        # each table plays its seated game: the seat order is the ranking (first seat best)
        expected: dict[str, int] = dict.fromkeys(ids, 0)
        for n, (table, chairs) in enumerate(tables.items(), 1):
            sent = run.table(table)
            ranking = [[p["id"]] for p in chairs]
            sent.publish(topic(table, "results/1"), result(
                table, 1, f"00aa00aa{n:04x}", game="lab_escape", players=chairs, ranking=ranking,
                seating=seating["seating"], round_no=1), True)
            for place, p in enumerate(chairs):
                expected[p["id"]] += len(chairs) - place
        # then t1 plays another game with the same players (casual: shown apart, never scored)
        t1 = run.table("t1")
        reversed_ranking = [[p["id"]] for p in reversed(tables["t1"])]
        t1.publish(topic("t1", "results/2"), result("t1", 2, "00aa00bb0001", game="lab_escape",
                                                     players=tables["t1"], ranking=reversed_ranking), True)

        def settled(snap: dict[str, Any]) -> bool:
            return len(snap["casual"]) == 1 and sum(r["games"] for r in snap["standings"]) == 12

        snap = until(run.hall.model, settled)
        assert {r["id"]: r["points"] for r in snap["standings"]} == expected
        assert snap["casual"][0]["table"] == "t1" and snap["casual"][0]["ranking"] == reversed_ranking
        bye = seating["byes"][0]["id"]
        assert next(r for r in snap["standings"] if r["id"] == bye)["games"] == 0
        with opened(browser, f"http://127.0.0.1:{run.hall.page_port}/standings", PHONE) as page:
            page.wait_for_selector("#casual li", timeout=10_000)
            shown = page.locator("#casual li").inner_text()
            assert shown.startswith("t1 · " + i18n.translate("en", "game.lab_escape.title"))
            assert page.locator("#rows tr").count() == 13
            assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]  # fits a phone
            page.screenshot(path=shots_dir / "hall-standings-casual.png", full_page=True)
        with opened(browser, f"http://127.0.0.1:{run.hall.page_port}/", TV) as page:
            clock = page.locator("#round-clock[data-state='running']")
            clock.wait_for(timeout=10_000)
            text = clock.inner_text()  # 45 minutes from when it opened, on the hall's clock
            assert text.startswith("Round 1 · 4") and text.endswith(" left"), text
            page.screenshot(path=shots_dir / "hall-tv-round.png")
