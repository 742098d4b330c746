"""A table's own Mosquitto bridged to the hall's central one, as Mosquitto federates them: even a bridge
configured to push everything of its table (a mistake) brings only the table's public topics; a seat
topic is refused by the central broker's ACL, so a client with the hall's login subscribed to `#` never
sees one. The bridge's notification says "1", and when the table's broker dies its will says "0": the
hall shows the table offline. (The table's real bridge config is companion/hall/table/'s; this one is
written here to test the central side.)"""

from __future__ import annotations

import json
import os
import select
import signal
import subprocess
import threading
from pathlib import Path

from companion.hall import protocol
from companion.hall.watch import Watcher
from companion.phones.runner import free_port
from tests.kits.hall_running import PREFIX, demo_view, result, running_hall, table_of, topic, until
from tests.kits.phones_kit import WAIT_S, Phone


def table_port(folder: Path) -> int:
    return int((folder / "table.port").read_text())


EVERYTHING = ("#",)  # a bridge pushing all of its table's topics: the mistake the central ACL guards against
OUT = protocol.BRIDGED_OUT  # what a table's bridge pushes


def table_broker(folder: Path, port: int, central: int, password: str,
                 out: tuple[str, ...] = EVERYTHING) -> subprocess.Popen[str]:
    (folder / "table.port").write_text(str(port))
    conf = folder / "table.conf"
    conf.write_text("\n".join([
        "per_listener_settings false", "allow_anonymous true", "persistence false",
        "log_dest stderr", "log_type all", f"listener {port} 127.0.0.1",
        "connection t1", f"address 127.0.0.1:{central}", "remote_username t1", f"remote_password {password}",
        "remote_clientid t1", "notifications true", f"notification_topic {topic('t1', 'bridge')}",
        "keepalive_interval 5", "restart_timeout 1",
        *(f"topic {protocol.base(PREFIX, 't1')}/{name} out 1" for name in out),
        f"topic {protocol.seating_topic(PREFIX, 't1')} in 1", ""]))
    proc = subprocess.Popen(["mosquitto", "-c", str(conf)], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True)
    assert proc.stderr is not None
    for line in proc.stderr:
        if " running" in line:
            threading.Thread(target=proc.stderr.read, daemon=True).start()  # keep its log pipe drained
            return proc
    raise AssertionError("the table's broker did not start")


def test_only_public_topics_cross_a_bridge_and_its_will_turns_the_table_offline(tmp_path: Path) -> None:
    with running_hall(tmp_path) as run:
        run.hall.watcher.stop()  # the hall's login is used by the `#` subscriber first
        everything = Phone("127.0.0.1", run.port, protocol.HALL_USER, run.hall.address.password)
        assert not everything.connect().is_failure
        everything.subscribe("#")
        local_port = free_port()
        table = table_broker(tmp_path, local_port, run.port, run.store.table_passwords()["t1"])
        try:
            local = Phone("127.0.0.1", local_port, None, None)  # the referee on the table's own broker
            assert not local.connect().is_failure
            local.publish(topic("t1", "seat/companion-ana/view"), b'{"role": "werewolf"}', True)
            local.publish(topic("t1", "public"), json.dumps(demo_view(8)), True)
            local.publish(topic("t1", "status"), "online", True)
            local.publish(topic("t1", "seat/companion-host/view"), b'{"roles": "all of them"}', True)
            local.publish(topic("t1", "events"), json.dumps({"n": 99, "at": 1, "msg": "x.y", "params": {}}))
            everything.wait_for(lambda m: m.topic == topic("t1", "events"))
            crossed = {m.topic for m in everything.seen}
            assert {topic("t1", "public"), topic("t1", "status"), topic("t1", "bridge")} <= crossed
            assert not [t for t in crossed if "/seat/" in t]
            everything.close()

            back = Watcher(run.hall.address, PREFIX, run.hall.model, run.store, accept=lambda t: t == "t1")
            back.start()
            try:
                snap = until(run.hall.model, lambda s: table_of(s, "t1")["online"])
                assert table_of(snap, "t1")["game"] == "toolkit"
                local.close()
                table.kill()  # the table's Pi loses power: its bridge's will, on the central broker
                table.wait()
                snap = until(run.hall.model, lambda s: not table_of(s, "t1")["online"])
                assert table_of(snap, "t1")["status"] == "offline"
            finally:
                back.stop()
        finally:
            if table.poll() is None:
                table.kill()
                table.wait()


def test_the_central_broker_killed_mid_game_comes_back_and_the_hall_catches_up_once(tmp_path: Path) -> None:
    with running_hall(tmp_path) as run:
        assert run.hall.broker is not None
        table = table_broker(tmp_path, free_port(), run.port, run.store.table_passwords()["t1"], OUT)
        try:
            local = Phone("127.0.0.1", table_port(tmp_path), None, None)
            assert not local.connect().is_failure
            local.publish(topic("t1", "status"), "online", True)
            local.publish(topic("t1", "results/1"), result("t1", key="bbbbbbbb0001"), True)
            until(run.hall.model, lambda s: table_of(s, "t1")["online"] and len(run.store.results()) == 1)

            pid = run.hall.broker.pid
            assert pid is not None
            gone = os.pidfd_open(pid)
            try:
                os.kill(pid, signal.SIGKILL)  # the hall's broker dies; the hall starts it again
                select.select([gone], [], [], WAIT_S)
            finally:
                os.close(gone)
            # the game goes on at the table meanwhile: it ends, its result retained on the table's broker
            local.publish(topic("t1", "results/2"), result("t1", number=2, key="bbbbbbbb0002"), True)
            until(run.hall.model, lambda s: len(run.store.results()) == 2, timeout=3 * WAIT_S)
            local.publish(topic("t1", "status"), "headless", True)
            snap = until(run.hall.model, lambda s: table_of(s, "t1")["status"] == "headless", timeout=3 * WAIT_S)
            assert table_of(snap, "t1")["online"]
            assert [r["key"] for r in run.store.results()] == ["bbbbbbbb0001", "bbbbbbbb0002"]  # none doubled
            assert run.hall.broker.pid != pid
            local.close()
        finally:
            table.kill()
            table.wait()
