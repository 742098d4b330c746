"""A table's owner against the hall (issue 29): the real hall process (its central Mosquitto, watcher,
league worker and SQLite file) and tables played by real paho clients logged in as their bridges are.

- a result carrying its own points (1000 for one player) changes nothing: the hall computes the points
  from the ranking (a table's word is its ranking);
- results that break the game's rules (an unknown game, too many players, a ranking that leaves a player
  out) are refused and change nothing;
- 1,200 results in a burst from one table: another table's change is on the TV (the hall screen in
  headless Chromium) within 2 s (the issue's acceptance), the flood mostly dropped unread, the league
  recomputed a handful of times, not once per message.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
from playwright.sync_api import Browser

from companion.hall import protocol
from companion.hall.limits import MUTE_AFTER
from tests.kits.hall_pages_kit import TV, opened
from tests.kits.hall_running import Running, demo_view, result, running_hall, table_of, topic, until
from tests.kits.phones_kit import Phone


def roster(run: Running, *names: str) -> list[dict[str, str]]:
    return [{"id": run.hall.actions.add_player(name), "name": name} for name in names]


def seated(run: Running, game: str, players: list[dict[str, str]], table: str = "t1") -> dict[str, Any]:
    """Open a round of `game` for `players` at `table`: the seating key and round a result carries."""
    seating = run.hall.actions.send_seating(game, [p["id"] for p in players], [table])
    return {"seating": seating["seating"], "round_no": seating["round"]}


def standings(run: Running, pred: Any) -> dict[str, dict[str, Any]]:
    """The standings by name once `pred` holds (a player not listed yet: not yet)."""
    def holds(snap: dict[str, Any]) -> bool:
        try:
            return bool(pred({r["name"]: r for r in snap["standings"]}))
        except KeyError:
            return False

    snap = until(run.hall.model, holds)
    return {r["name"]: r for r in snap["standings"]}


def test_a_result_with_its_own_points_scores_what_its_ranking_says(tmp_path: Path) -> None:
    with running_hall(tmp_path) as run:
        ana, ben, cai = roster(run, "Ana", "Ben", "Cai")
        t1 = run.table("t1")
        forged = result("t1", players=[ana, ben, cai], ranking=[[ben["id"]], [cai["id"]], [ana["id"]]],
                        points={ana["id"]: 1000, ben["id"]: 0, cai["id"]: 0},
                        **seated(run, "toolkit", [ana, ben, cai]))
        t1.publish(topic("t1", "results/1"), forged, True)
        rows = standings(run, lambda rows: rows["Ben"]["games"] == 1)
        # placing points from the ranking, 3 players: 3, 2, 1; Ana's 1000 is never read
        assert {name: rows[name]["points"] for name in ("Ana", "Ben", "Cai")} == {"Ana": 1, "Ben": 3, "Cai": 2}
        assert next(r["name"] for r in sorted(rows.values(), key=lambda r: r["rank"])) == "Ben"
        # Lockdown's own 9, 8, 7 (L9.3) come from the ranking too, whatever the result says
        lockdown = result("t1", number=2, key="0123abcd0002", game="lockdown", players=[ana, ben, cai],
                          ranking=[[ana["id"]], [cai["id"]], [ben["id"]]], points={ben["id"]: 1000},
                          **seated(run, "lockdown", [ana, ben, cai]))
        t1.publish(topic("t1", "results/2"), lockdown, True)
        rows = standings(run, lambda rows: rows["Ben"]["games"] == 2)
        assert {name: rows[name]["points"] for name in ("Ana", "Ben", "Cai")} == {"Ana": 10, "Ben": 10, "Cai": 10}


def test_a_result_against_the_games_rules_is_refused(tmp_path: Path) -> None:
    with running_hall(tmp_path) as run:
        players = roster(run, "Ana", "Ben", "Cai")
        ana, ben, cai = (p["id"] for p in players)
        t1 = run.table("t1")
        bad = [
            result("t1", 1, "0123abcd0001", game="chess", players=players, ranking=[[ana], [ben], [cai]]),
            result("t1", 2, "0123abcd0002", players=players, ranking=[[ana], [ben]]),  # Cai left out
            result("t1", 3, "0123abcd0003", game="lab_escape", players=[*players, *(
                {"id": f"x{i}", "name": f"X{i}"} for i in range(12))], ranking=[[ana], [ben, cai]]),
        ]
        for n, payload in enumerate(bad, 1):
            t1.publish(topic("t1", f"results/{n}"), payload, True)
        good = result("t1", 4, "0123abcd0004", players=players, ranking=[[cai], [ben], [ana]],
                      **seated(run, "toolkit", players))
        t1.publish(topic("t1", "results/4"), good, True)
        rows = standings(run, lambda rows: rows["Cai"]["games"] == 1)
        assert {name: (r["games"], r["points"]) for name, r in rows.items()} == {
            "Cai": (1, 3), "Ben": (1, 2), "Ana": (1, 1)}
        assert [r["key"] for r in run.store.results()] == ["0123abcd0004"]
        assert run.hall.watcher.router.refused >= 3


def flood(port: int, password: str, table: str, count: int) -> tuple[int, float]:
    """`count` new, well-formed results from `table` as fast as paho sends them: how many went out before
    the hall took the table off (`limits.MUTE_AFTER` dropped ones; on a busy machine before the last
    left), and the seconds it took."""
    client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=f"{table}-flood")
    client.username_pw_set(table, password)
    client.max_queued_messages_set(0)
    client.connect("127.0.0.1", port)
    client.loop_start()
    try:
        start = time.monotonic()
        infos = [client.publish(topic(table, f"results/{n}"),
                                result(table, n, f"{n:012x}", players=[{"id": f"a{n}", "name": "A"},
                                                                       {"id": f"b{n}", "name": "B"}],
                                       ranking=[[f"a{n}"], [f"b{n}"]]), qos=0)
                 for n in range(1, count + 1)]
        sent = 0
        for info in infos:
            try:
                info.wait_for_publish(30)
            except RuntimeError:  # the connection was lost: the hall took the flooding table off
                break
            sent += 1
        return sent, time.monotonic() - start
    finally:
        client.disconnect()
        client.loop_stop()


def test_one_table_flooding_the_hall_leaves_the_others_live_on_the_tv(tmp_path: Path, browser: Browser) -> None:
    with running_hall(tmp_path, tables=("t1", "t2"), page_port=0) as run:
        t2 = run.table("t2")
        view = demo_view(8)
        t2.publish(topic("t2", "public"), json.dumps(view), True)
        until(run.hall.model, lambda s: table_of(s, "t2")["game"] == "toolkit")
        runs_before = run.hall.league_worker.runs
        with opened(browser, f"http://127.0.0.1:{run.hall.page_port}/", TV) as page:
            page.wait_for_selector(".table-card[data-table='t2']", timeout=10_000)
            # the flood as the issue saw it: 1,200 in about a tenth of a second (here: until the hall mutes it)
            sent, took = flood(run.port, run.store.table_passwords()["t1"], "t1", 1200)
            assert sent > MUTE_AFTER, (sent, took)
            changed = {**view, "phase": "night", "number": 7}
            # the other table is heard meanwhile (how fast is measured, not asserted: bench/bench_hall.py --flood)
            t2.publish(topic("t2", "public"), json.dumps(changed), True)
            page.wait_for_selector(".table-card[data-table='t2'] .number:has-text('7')", timeout=10_000)
        router = run.hall.watcher.router
        until(run.hall.model, lambda s: router.dropped >= MUTE_AFTER, timeout=30)
        kept = len(run.store.results())
        assert kept <= 10, (router.dropped, kept)  # 10 new results at once (limits.py), the rest dropped
        assert run.hall.league_worker.runs - runs_before < kept, "the league is not recomputed once per result"
        # and the flooding table is taken off the central broker for a while: its login is refused
        deadline = time.monotonic() + 30
        refused = False
        while not refused and time.monotonic() < deadline:
            probe = Phone("127.0.0.1", run.port, "t1", run.store.table_passwords()["t1"])
            refused = probe.connect().is_failure
            probe.close()
        assert refused, "the flooding table can still log in"
        t2.publish(topic("t2", "public"), json.dumps({**changed, "number": 8}), True)  # the others still heard
        until(run.hall.model, lambda s: table_of(s, "t2")["number"] == 8)


BAD_PARAMS = [{"toString": 1}, [{"toString": 1}], {"en": {"toString": 1}}, [[1]], "x" * 5000]


def test_a_view_with_bad_announcement_params_leaves_them_out_and_the_screen_serves_every_table(
        tmp_path: Path, browser: Browser) -> None:
    with running_hall(tmp_path, tables=("t1", "t2"), page_port=0) as run:
        t1, t2 = run.table("t1"), run.table("t2")
        bad = demo_view(8)
        bad["announcements"] = [*bad["announcements"][-2:], *(
            {"at": 9000 + i, "msg": "toolkit.timer_expired", "params": {"name": value, "player": value}}
            for i, value in enumerate(BAD_PARAMS))]
        t1.publish(topic("t1", "about"), protocol.about_payload(name="Bad table", language="en"), True)
        t1.publish(topic("t1", "public"), json.dumps(bad), True)
        t2.publish(topic("t2", "about"), protocol.about_payload(name="Good table", language="en"), True)
        t2.publish(topic("t2", "public"), json.dumps(demo_view(8)), True)
        snap = until(run.hall.model, lambda s: table_of(s, "t1")["game"] and table_of(s, "t2")["game"])
        shown = table_of(snap, "t1")["announcements"][-len(BAD_PARAMS):]
        assert [a["params"] for a in shown] == [{}] * len(BAD_PARAMS)  # left out: the page shows them missing
        base = f"http://127.0.0.1:{run.hall.page_port}"
        with opened(browser, f"{base}/", TV) as page:
            page.wait_for_selector(".link[data-state='live']", timeout=10_000)
            page.wait_for_selector(".table-card[data-table='t2'] h2:has-text('Good table')", timeout=10_000)
            news = page.locator(".table-card[data-table='t1'] .news li").all_inner_texts()
            assert news and all("{name}" in line for line in news), news  # missing, said as the catalog's blank
            t2.publish(topic("t2", "public"), json.dumps({**demo_view(8), "number": 5}), True)
            page.wait_for_selector(".table-card[data-table='t2'] .number:has-text('5')", timeout=10_000)
        with opened(browser, f"{base}/cycle?seconds=3", TV) as page:
            page.wait_for_selector(".link[data-state='live']", timeout=10_000)
            for name in ("Bad table", "Good table"):  # each shown in turn, the bad one too
                page.wait_for_selector(f".table-card h2:has-text('{name}')", timeout=10_000)
