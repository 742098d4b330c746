"""The hall process as the organiser sees it on the hall screen: tables (real paho clients logged in to the
hall's real central Mosquitto as their bridges do) publish per protocol.py, and the hall's snapshot and
its league file (real SQLite) show exactly that, once per result, whatever a hostile table sends."""

from __future__ import annotations

import importlib.util
import json
import threading
from pathlib import Path

import paho.mqtt.client as mqtt

from companion.hall import protocol
from companion.hall.central import CentralMosquitto
from companion.hall.hooks import league, open_store
from companion.hall.run import Hall, HallOptions
from companion.hall.watch import Watcher
from companion.phones.runner import free_port
from companion.phones.topics import VIEW_MAX_BYTES
from tests.kits.hall_running import demo_view, result, running_hall, table_of, topic, until
from tests.kits.mqtt_wire import ACCEPTED, CONNECT, PUBLISH, Will, Wire, connack, connect_body, packet, string
from tests.kits.phones_kit import WAIT_S, Phone


def test_a_tables_public_view_status_and_about_reach_the_hall_screen(tmp_path: Path) -> None:
    with running_hall(tmp_path, clock=lambda: 50_000) as run:
        t1 = run.table("t1")
        view = demo_view(8)  # the toolkit demo: the day timer started at 2 s, 90 s long
        t1.publish(topic("t1", "about"), protocol.about_payload(name="Table by the window", language="th"), True)
        t1.publish(topic("t1", "public"), json.dumps(view), True)
        t1.publish(topic("t1", "status"), "headless", True)
        t1.publish(topic("t1", "bridge"), "1", True)
        snap = until(run.hall.model, lambda s: table_of(s, "t1")["online"])
        shown = table_of(snap, "t1")
        assert (shown["name"], shown["language"], shown["status"]) == ("Table by the window", "th", "headless")
        assert (shown["game"], shown["number"], shown["ended"], shown["ranking"]) == ("toolkit", 1, False, None)
        assert shown["players"] == [{"id": p["id"], "name": p["name"]} for p in view["players"]]
        assert shown["announcements"] == view["announcements"][-8:]
        # the hall counts the running timer down on its own clock: at 50 s, 42 s are left of the day
        assert shown["timers"] == [{"name": "day", "running": True, "deadline_ms": 92_000, "remaining_ms": 42_000,
                                    "duration_ms": 90_000}]
        assert table_of(snap, "t2")["status"] == "unknown" and not table_of(snap, "t2")["online"]
        json.dumps(snap)  # JSON-able, as the pages send it


def test_an_announcement_on_the_events_topic_is_added_once(tmp_path: Path) -> None:
    with running_hall(tmp_path) as run:
        t1 = run.table("t1")
        view = demo_view(8)
        t1.publish(topic("t1", "public"), json.dumps(view), True)
        until(run.hall.model, lambda s: table_of(s, "t1")["game"] == "toolkit")
        old = {"n": view["announced"], **view["announcements"][-1]}
        new = {"n": view["announced"] + 1, "at": 9000, "msg": "toolkit.dice_rolled", "params": {"total": 7}}
        for item in (old, new, new):
            t1.publish(topic("t1", "events"), json.dumps(item))
        snap = until(run.hall.model, lambda s: table_of(s, "t1")["announcements"][-1]["at"] == 9000)
        assert table_of(snap, "t1")["announcements"] == [*view["announcements"][-7:], {
            "at": 9000, "msg": "toolkit.dice_rolled", "params": {"total": 7}}]


def test_a_result_is_stored_once_published_twice_and_after_the_halls_client_reconnects(tmp_path: Path) -> None:
    with running_hall(tmp_path) as run:
        t1 = run.table("t1")
        t1.publish(topic("t1", "results/1"), result("t1"), True)
        t1.publish(topic("t1", "results/1"), result("t1"), True)  # the bridge brings it again
        t1.publish(topic("t1", "status"), "online", True)  # after both, on the same link
        until(run.hall.model, lambda s: table_of(s, "t1")["status"] == "online")
        assert [r["key"] for r in run.store.results()] == ["0123abcd0001"]

        # the hall's client goes away; a game ends meanwhile (QoS 1, not retained: only its session keeps it)
        run.hall.watcher.stop()
        t1.publish(topic("t1", "results/2"), result("t1", number=2, key="0123abcd0002"))
        back = Watcher(run.hall.address, "companion", run.hall.model, run.store, accept=lambda t: t in ("t1", "t2"))
        back.start()
        try:
            assert back.connected.wait(WAIT_S)  # the queued result comes first, then the retained one again
            t1.publish(topic("t1", "status"), "headless", True)
            until(run.hall.model, lambda s: table_of(s, "t1")["status"] == "headless")
            assert [r["key"] for r in run.store.results()] == ["0123abcd0001", "0123abcd0002"]
            assert [r["number"] for r in run.store.results()] == [1, 2]
        finally:
            back.stop()


def test_the_bridges_will_turns_a_table_offline(tmp_path: Path) -> None:
    with running_hall(tmp_path) as run:
        # the table's bridge: logged in as t1 with "0" as its will, as Mosquitto's bridge sets it
        wire = Wire("127.0.0.1", run.port, WAIT_S)
        will = Will(topic("t1", "bridge"), b"0", qos=1, retain=True)
        password = run.store.table_passwords()["t1"]
        assert wire.send(packet(CONNECT, 0, connect_body("t1", "t1", password, will)))
        assert connack(wire) == ACCEPTED
        for name, payload in (("status", b"online"), ("bridge", b"1")):  # QoS 0, retained
            assert wire.send(packet(PUBLISH, 0x01, string(topic("t1", name)) + payload))
        until(run.hall.model, lambda s: table_of(s, "t1")["online"])
        wire.drop()  # the link is lost: the central broker publishes the bridge's will
        snap = until(run.hall.model, lambda s: not table_of(s, "t1")["online"])
        assert table_of(snap, "t1")["status"] == "offline"
        assert table_of(snap, "t2")["status"] == "unknown"


def hostile(table: str) -> list[tuple[str, bytes]]:
    """What a broken or hostile table may send on each of its out topics (none is what the topic carries)."""
    nested = b"[" * 200_000
    bad_utf8 = b'{"v": 1, "name": "\xff\xfe"}'
    wrong = json.dumps({"v": 1, "name": 5, "language": "en", "game": 5, "number": "1", "players": "all",
                        "ended": "no", "n": "x", "msg": 3}).encode()
    out = []
    for name, limit in (("status", 64), ("bridge", 64), ("about", 4096), ("public", VIEW_MAX_BYTES),
                        ("events", 16 * 1024), ("results/1", protocol.MAX_RESULT_BYTES)):
        huge = b'{"v": 1, "x": "' + b"a" * limit + b'"}'
        out += [(topic(table, name), p) for p in (b"", huge, nested, bad_utf8, wrong)]
    out += [(topic(table, "status"), b"ONLINE"), (topic(table, "bridge"), b"2"),
            (topic(table, "results/1"), result("t2")),  # a result naming another table
            (topic(table, "results/2"), result(table)),  # its number is not the topic's
            (topic(table, "results/1"), result(table, ranking=[["ana", "ana"]])),
            (topic(table, "public"), json.dumps({**demo_view(8), "players": [{"id": "Ana!", "name": "A"}]}).encode()),
            (topic(table, "public"), json.dumps({**demo_view(8), "table": {"timers": {"day": {
                "duration": 1, "running": True, "deadline": None, "remaining": 1}}}}).encode()),
            (topic(table, "events"), json.dumps({"n": -1, "at": 1, "msg": "x", "params": {}}).encode()),
            (topic(table, "results/999999999999999999999"), result(table))]
    return out


def test_hostile_payloads_on_every_out_topic_change_nothing_and_the_hall_keeps_listening(tmp_path: Path) -> None:
    with running_hall(tmp_path) as run:
        t1 = run.table("t1")
        t1.publish(topic("t1", "about"), protocol.about_payload(name="Window", language="en"), True)
        t1.publish(topic("t1", "public"), json.dumps(demo_view(8)), True)
        t1.publish(topic("t1", "results/1"), result("t1", key="aaaaaaaa0001"), True)
        t1.publish(topic("t1", "bridge"), "1", True)
        t1.publish(topic("t1", "status"), "online", True)
        before = until(run.hall.model, lambda s: table_of(s, "t1")["online"] and table_of(s, "t1")["name"] == "Window")
        results_before = run.store.results()
        refused_before = run.hall.watcher.router.refused
        sent = hostile("t1")
        for name, payload in sent:
            t1.publish(name, payload, True)
        t1.publish(topic("t1", "status"), "headless", True)  # valid, after them all on the same link
        after = until(run.hall.model, lambda s: table_of(s, "t1")["status"] == "headless")
        assert {**table_of(after, "t1"), "status": "online"} == table_of(before, "t1")
        assert run.store.results() == results_before
        assert run.hall.watcher.router.refused - refused_before == len(sent)  # each one logged and dropped
        t1.publish(topic("t1", "results/2"), result("t1", number=2, key="aaaaaaaa0002"), True)
        t1.publish(topic("t1", "status"), "online", True)
        until(run.hall.model, lambda s: table_of(s, "t1")["status"] == "online")
        assert [r["key"] for r in run.store.results()] == ["aaaaaaaa0001", "aaaaaaaa0002"]


def test_a_table_the_organiser_did_not_add_is_not_heard(tmp_path: Path) -> None:
    with running_hall(tmp_path) as run:
        hall_client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2)  # nothing to log in with: refused
        refused = threading.Event()
        hall_client.on_connect = lambda c, u, f, rc, p=None: refused.set() if rc.is_failure else None
        hall_client.connect("127.0.0.1", run.port)
        hall_client.loop_start()
        try:
            assert refused.wait(WAIT_S)
        finally:
            hall_client.loop_stop()
        run.hall.watcher.router.handle(topic("t9", "status"), b"online")  # as an external broker might bring it
        assert [t["id"] for t in run.hall.model.snapshot()["tables"]] == ["t1", "t2"]


def test_an_external_central_broker_is_only_connected_to(tmp_path: Path) -> None:
    """The organiser's own broker (here a real Mosquitto the test provisions with the hall's ACL): the hall
    logs in with the URL's credentials and hears the tables as with its managed one."""
    store = open_store(tmp_path / "hall.sqlite3")
    store.add_table("t1")
    port = free_port()
    theirs = CentralMosquitto("companion", "127.0.0.1", port, "organisers-secret", store.table_passwords())
    theirs.start()
    try:
        url = f"mqtt://{protocol.HALL_USER}:organisers-secret@127.0.0.1:{port}"
        hall = Hall(store, league(), HallOptions(port=port, page_port=None, broker="external", url=url))
        hall.start()
        try:
            assert hall.broker is None and hall.watcher.connected.wait(WAIT_S)
            t1 = Phone("127.0.0.1", port, "t1", store.table_passwords()["t1"])
            assert not t1.connect().is_failure
            t1.publish(topic("t1", "status"), "online", True)
            until(hall.model, lambda s: table_of(s, "t1")["status"] == "online")
        finally:
            hall.stop()
    finally:
        theirs.close()


def test_the_hall_serves_its_pages_through_the_pages_hook_when_they_are_installed(tmp_path: Path) -> None:
    """companion/hall/pages/server.py's `serve_pages(model, store, actions, port)`, built beside this
    branch: the hall starts it when it is there and runs without pages (saying so in its log) when not."""
    installed = importlib.util.find_spec("companion.hall.pages") is not None
    with running_hall(tmp_path, page_port=0) as run:  # 0: a port of its own (never the broker's)
        assert run.hall.serving_pages == installed
