"""How `companion run` attaches the phones: the starter says which broker runs, puts it on the status
board, and keeps the game going without phones when no broker can start; an external broker gets the
game's credentials through the provisioning command (here a real Mosquitto started by the test)."""

from __future__ import annotations

import json
import os
import socket
import stat
import threading
from pathlib import Path

import pytest

from companion import config as configuration
from companion import i18n
from companion.core.contract import Player, Setup
from companion.core.eventlog import EventLog
from companion.core.referee import Referee
from companion.games import registry
from companion.phones.mosquitto import ManagedMosquitto
from companion.phones.runner import free_ports, start_phones
from companion.status import StatusBoard
from companion.table.loop import Table
from companion.wiring import start_features
from tests.kits.phones_kit import Phone


def table(tmp_path: Path) -> Table:
    setup = Setup("toolkit", (Player("ana", "Ana"), Player("ben", "Ben")), {}, seed=1)
    return Table(Referee.start(registry(), EventLog(tmp_path / "g.sqlite3"), setup, created_at=0))


def cfg(tmp_path: Path, **mqtt: object) -> configuration.Config:
    """Phones only: no readers configured, so the readers' starter stays out of these tests."""
    flags = {"storage.path": str(tmp_path / "g.sqlite3"), "readers.devices": [],
             **{f"mqtt.{k}": v for k, v in mqtt.items()}}
    return configuration.load(flags=flags, env={}, system_path=None, user_path=None)


def test_companion_run_starts_the_managed_mosquitto_and_says_so(tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    t, status = table(tmp_path), StatusBoard()
    broker_ok = threading.Event()  # the mirror connects on its own thread: the status turns ok when it has

    def watch() -> None:
        if ("broker", "mosquitto", "ok") in {(s.kind, s.name, s.state) for s in status.snapshot()}:
            broker_ok.set()

    status.listen(watch)
    started = start_features(t, cfg(tmp_path, port=0, ws_port=0), status)
    try:
        assert len(started.running()) == 1  # the phones: broker, mirror (and the phone page beside them)
        said = capsys.readouterr().err.splitlines()
        head = i18n.translate("en", "phones.broker_started", {"broker": "mosquitto", "url": "\x00"}).split("\x00")[0]
        assert said[0].startswith(head + "ws://")
        assert broker_ok.wait(10), status.snapshot()
    finally:
        started.stop()
        t.referee.log.close()


def test_ports_left_to_the_machine_are_different_ports_free_at_once() -> None:
    """`mqtt.port = 0` and `mqtt.ws_port = 0` (and the tests' own brokers) take ports the kernel picks: two
    picked one after another were once the same (CI: the MQTT and websocket listeners both on 60999, and
    Mosquitto would not start). Picked together, they differ, and each can be bound."""
    for _ in range(20):
        ports = free_ports(8)
        assert len(set(ports)) == 8, ports
        with socket.socket() as a, socket.socket() as b:
            a.bind(("127.0.0.1", ports[0]))
            b.bind(("127.0.0.1", ports[-1]))


def test_without_a_broker_the_game_goes_on_and_the_host_is_told_why(tmp_path: Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    with socket.socket() as taken:
        taken.bind(("0.0.0.0", 0))
        taken.listen()
        port = taken.getsockname()[1]
        t, status = table(tmp_path), StatusBoard()
        started = start_features(t, cfg(tmp_path, port=port, ws_port=0), status)
        assert started.running() == []
        assert "mosquitto" in capsys.readouterr().err
        assert [(s.kind, s.state) for s in status.snapshot()] == [("broker", "error")]
        done = threading.Event()
        t.put({"by": "host", "move": "dice.roll"}, lambda outcome: done.set() if outcome.accepted else None)
        worker = threading.Thread(target=t.run, daemon=True)
        worker.start()
        assert done.wait(10)  # the referee serves the table without phones
        t.stop()
        worker.join(10)
        t.referee.log.close()


def test_an_external_broker_gets_the_games_credentials_through_the_provisioning_command(tmp_path: Path) -> None:
    referee_password = "referee-secret-for-this-test"
    port, ws_port = free_ports(2)
    broker = ManagedMosquitto("companion", "127.0.0.1", port, ws_port, referee_password)  # "someone else's"
    broker.start()
    script = tmp_path / "provision.sh"
    script.write_text('#!/bin/sh\ncp "$1" "$(dirname "$1")/provisioned.json"\n')
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    t = table(tmp_path)
    try:
        url = f"mqtt://companion-referee:{referee_password}@127.0.0.1:{port}"
        phones = start_phones(t, broker="external", url=url, provision=str(script), state_dir=tmp_path)
        provisioned = json.loads((tmp_path / "provisioned.json").read_text())
        assert provisioned["users"] == phones.game.phone_users()
        assert stat.S_IMODE(os.stat(tmp_path / "mqtt-credentials.json").st_mode) == 0o600
        broker.set_game(phones.game)  # what the operator's script does on a real broker
        assert phones.mirror.connected.wait(10)
        join = phones.join(phones.game.players["ana"])
        ana = Phone("127.0.0.1", port, join["user"], join["password"])
        assert not ana.connect().is_failure
        ana.subscribe(join["view"])
        assert ana.wait_for(lambda m: m.topic == join["view"]).json()["me"] == "ana"
        phones.stop()
        watcher = Phone("127.0.0.1", port, phones.game.players["ben"].user, phones.game.players["ben"].password)
        assert not watcher.connect().is_failure
        watcher.subscribe(join["status"])
        assert watcher.wait_for(lambda m: m.topic == join["status"]).payload == b"offline"  # left behind, retained
    finally:
        broker.close()
        t.referee.log.close()
