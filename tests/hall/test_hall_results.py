"""A table's finished games reach the hall (issue 18): each result retained on its own topic, built from
the public view, with a key made of the log's own id and the game's number. Delivered again after the
hall's broker restarts (at least once, the same key; the hall's store ignores the copy), and published
again, with the same key, after the table restarts on the same SQLite file."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from companion.core.eventlog import EventLog
from companion.hall import protocol
from companion.hall.table.results import LOG_ID, result_of
from tests.kits.hall_kit import PREFIX, Central, HallTable, bridged, central, hall_table, host, player, table_config
from tests.kits.phones_kit import Phone

TABLE, PASSWORD = "t2", "t2-pass-77"


def finish(t: HallTable) -> None:
    """Ana 3 gold, Ben 5, Chai 3: the host ends the game ranking by gold."""
    assert host(t, "counter.create", "c1", name="gold", players=["ana", "ben", "chai"]).accepted
    for pid, delta in (("ana", 3), ("ben", 5), ("chai", 3)):
        assert player(t, pid, "counter.adjust", f"a-{pid}", name="gold", delta=delta).accepted
    assert host(t, "game.end", "end", rank_by="gold").accepted


def result_on(watcher: Phone, base: str, number: int) -> dict[str, Any]:
    """The result as the hall's login gets it (live, or retained when it subscribed later)."""
    got = watcher.got(lambda m: m.topic == f"{base}/results/{number}")
    return protocol.parse_result(got.payload, TABLE)


def test_a_result_crosses_and_crosses_again_after_the_hall_restarts(tmp_path: Path) -> None:
    with central({TABLE: PASSWORD}) as hall:
        cfg = table_config(TABLE, PASSWORD, hall.port)
        with hall_table(tmp_path / "t2.sqlite3", cfg) as t:
            watcher = hall.hall_client()
            finish(t)
            first = result_on(watcher, t.base, 1)
            assert first["ranking"] == [["ben"], ["ana", "chai"]]
            assert first["game"] == "toolkit" and first["stopped"] is False and first["points"] is None
            assert [p["id"] for p in first["players"]] == ["ana", "ben", "chai"]
            assert protocol.KEY.match(first["key"])
            watcher.close()  # the hall's one login (one client id): closed before the next one takes it
            late = hall.hall_client()  # retained on the hall's broker: whoever subscribes later gets it
            assert late.got(lambda m: m.topic == f"{t.base}/results/1").retain
            late.close()
            hall.stop()  # the hall's broker goes down and comes back empty (no persistence)
            hall.start()
            again = hall.hall_client()
            assert result_on(again, t.base, 1) == first  # the same result, the same key
            again.close()


def test_a_restarted_table_publishes_its_results_again_with_the_same_key(tmp_path: Path) -> None:
    log_path = tmp_path / "t2.sqlite3"
    with bridged(log_path, TABLE, PASSWORD) as (hall, t):
        watcher = hall.hall_client()
        finish(t)
        first = result_on(watcher, t.base, 1)
        watcher.close()
    log = EventLog(log_path)
    kept = log.setting(LOG_ID)
    log.close()
    assert kept is not None and first["key"].startswith(kept)
    with bridged(log_path, TABLE, PASSWORD) as (fresh, t):  # a hall that has nothing yet, a table anew
        watcher = fresh.hall_client()
        assert result_on(watcher, t.base, 1) == first
        watcher.close()


def public(result: dict[str, Any], players: list[str]) -> dict[str, Any]:
    return {"ended": True, "result": result, "number": 4, "game": "lockdown",
            "players": [{"id": p, "name": p.title()} for p in players]}


def test_points_and_a_stopped_game_as_the_hall_gets_them() -> None:
    ranked = result_of(public({"ranking": [["ana"], ["ben"]], "points": {"ana": 9, "ben": 8}, "hp": {"ana": 3}},
                              ["ana", "ben"]), table=TABLE, key="ab12cd34", finished_ms=5)
    assert ranked is not None
    got = protocol.parse_result(ranked, TABLE)
    assert got["points"] == {"ana": 9, "ben": 8} and got["number"] == 4 and got["finished_ms"] == 5
    assert b"hp" not in ranked  # only what the hall reads: no game's other keys
    stopped = result_of(public({"ranking": [], "winners": [], "stopped": True, "points": {}}, ["ana", "ben"]),
                        table=TABLE, key="ab12cd34", finished_ms=5)
    assert stopped is not None
    got = protocol.parse_result(stopped, TABLE)
    assert got["stopped"] is True and got["ranking"] == [] and got["points"] is None
    going = {"ended": False, "result": None, "number": 4, "game": "lockdown", "players": []}
    assert result_of(going, table=TABLE, key="ab12cd34", finished_ms=5) is None


def test_the_table_sends_about_with_its_name(tmp_path: Path) -> None:
    hall: Central
    with central({TABLE: PASSWORD}) as hall:
        cfg = table_config(TABLE, PASSWORD, hall.port, name="โต๊ะ 2 · 二号桌")
        with hall_table(tmp_path / "t2.sqlite3", cfg) as t:
            # The bridge may cross before or after the hall subscribes (`hall_table` waits for the table's
            # own broker, not for the bridge): the about comes live or retained, either is the table's name.
            about = protocol.about_topic(PREFIX, TABLE)
            watcher = hall.hall_client()
            got = watcher.got(lambda m: m.topic == about)
            assert protocol.parse_about(got.payload)["name"] == "โต๊ะ 2 · 二号桌"
            assert not [m for m in watcher.seen if m.topic.startswith(f"{t.base}/results/")]  # nothing finished
            watcher.close()  # the hall's one login: the fresh one below takes its client id
            # What the hall relies on: the about is retained on its broker, so a hall that starts later (or
            # restarts) still learns the table's name. The central broker has it now, so a fresh login gets
            # that retained copy whatever the order above was.
            late = hall.hall_client()
            kept = late.got(lambda m: m.topic == about)
            assert kept.retain and protocol.parse_about(kept.payload)["name"] == "โต๊ะ 2 · 二号桌"
            late.close()
