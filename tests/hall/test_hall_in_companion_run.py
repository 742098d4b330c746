"""`companion run`'s wiring with `[hall].url` set (companion/wiring.py): the phones' managed Mosquitto
carries the bridge, the table publishes its about on the hall and takes the hall's seating; without a
hall nothing of it starts."""

from __future__ import annotations

import threading
from pathlib import Path

from companion import config as configuration
from companion.core.contract import Player, Setup
from companion.core.eventlog import EventLog
from companion.core.referee import Referee
from companion.games import registry
from companion.hall import protocol
from companion.status import StatusBoard
from companion.table.loop import Table
from companion.wiring import start_features
from tests.kits.hall_kit import PREFIX, central
from tests.kits.phones_kit import WAIT_S

TABLE, PASSWORD = "t9", "t9-pass-1"


def table(tmp_path: Path) -> Table:
    setup = Setup("toolkit", (Player("ana", "Ana"), Player("ben", "Ben")), {}, seed=1)
    return Table(Referee.start(registry(), EventLog(tmp_path / "g.sqlite3"), setup, created_at=0))


def cfg(tmp_path: Path, **flags: object) -> configuration.Config:
    base = {"storage.path": str(tmp_path / "g.sqlite3"), "readers.devices": [], "table.id": TABLE,
            "mqtt.broker": "mosquitto", "mqtt.port": 0, "mqtt.ws_port": 0, "mqtt.page_port": 0}
    return configuration.load(flags={**base, **flags}, env={}, system_path=None, user_path=None)


def test_with_a_hall_the_run_bridges_publishes_its_about_and_takes_a_seating(tmp_path: Path) -> None:
    with central({TABLE: PASSWORD}) as hall:
        t = table(tmp_path)
        started = start_features(t, cfg(tmp_path, **{"hall.url": f"mqtt://127.0.0.1:{hall.port}",
                                                      "hall.password": PASSWORD, "hall.name": "二号桌"}),
                                 StatusBoard())
        loop = threading.Thread(target=t.run, daemon=True)
        loop.start()
        try:
            assert started.hall is not None and started.hall in started.running()
            watcher = hall.hall_client()
            about = watcher.got(lambda m: m.topic == protocol.about_topic(PREFIX, TABLE))
            assert protocol.parse_about(about.payload) == {"name": "二号桌", "language": "en"}
            players = [{"id": "mai-4f", "name": "Mai"}, {"id": "som-1b", "name": "Som"}]
            watcher.client.publish(protocol.seating_topic(PREFIX, TABLE), protocol.seating_payload(
                seating="5eed5eed", round_no=1, game="toolkit", options={}, players=players), qos=1, retain=True)
            assert started.hall.seating.heard.get(timeout=WAIT_S) == ("applied", "5eed5eed")
            public = watcher.wait_for(lambda m: m.topic == f"{protocol.base(PREFIX, TABLE)}/public"
                                      and m.json()["number"] == 2)  # the new game, seen on the hall
            assert public.json()["players"] == players
            watcher.close()
        finally:
            t.stop()
            loop.join(WAIT_S)
            started.stop()
            t.referee.log.close()


def test_without_a_hall_nothing_of_it_starts(tmp_path: Path) -> None:
    t = table(tmp_path)
    started = start_features(t, cfg(tmp_path), StatusBoard())
    try:
        assert started.hall is None and started.phones is not None
        assert started.phones.phones.mirror.subscriptions == {}
        assert "connection" not in started.phones.phones.broker.extra  # type: ignore[attr-defined]
    finally:
        started.stop()
        t.referee.log.close()
