"""The table's bridge to the hall on real Mosquitto processes (issue 18): the managed Mosquitto with the
bridge in its config, bridged to a central Mosquitto with the hall's ACL. What is public crosses (the
retained public view, status, about, the bridge's own "1"); a seat's view never does, checked by the
hall's own login subscribed to `#` on the central broker."""

from __future__ import annotations

from pathlib import Path

from companion.hall import protocol
from companion.hall.table.bridge import connection_text
from tests.kits.hall_kit import PREFIX, central, hall_table, host, player, table_config

TABLE, PASSWORD = "t1", "t1-pass-5e3"


def test_the_bridge_comes_up_and_only_public_topics_cross(tmp_path: Path) -> None:
    with central({TABLE: PASSWORD}) as hall:
        cfg = table_config(TABLE, PASSWORD, hall.port, name="Table by the window")
        with hall_table(tmp_path / "t1.sqlite3", cfg) as t:
            # Mosquitto's own log on the hall: the table's bridge logged in with its persistent session
            line = hall.wait_line(f"as hall-{TABLE}")
            assert "New client connected" in line or "New bridge connected" in line
            assert f"u'{TABLE}'" in line and "c0" in line and "k5" in line  # its login, a kept session, keepalive
            watcher = hall.hall_client()
            base = protocol.base(PREFIX, TABLE)
            assert watcher.got(lambda m: m.topic == f"{base}/bridge").payload == b"1"
            assert watcher.got(lambda m: m.topic == f"{base}/status").payload == b"online"
            about = protocol.parse_about(watcher.got(lambda m: m.topic == f"{base}/about").payload)
            assert about == {"name": "Table by the window", "language": "en"}
            # live or retained, as the bridge's copy crosses before or after this login subscribes
            public = watcher.got(lambda m: m.topic == f"{base}/public")
            assert public.json()["players"] == t.referee.view("public")["players"]
            # a secret: a counter only its player's seat view shows
            assert host(t, "counter.create", "c1", name="gold", players=["ana"]).accepted
            assert player(t, "ana", "counter.adjust", "c2", name="gold", delta=7).accepted
            seat_view = t.phones.topics.view(t.phones.game.players["ana"].user)
            assert t.table.views.player("ana")["private"]["counters"]["gold"] == 7
            # a marker published after the seat views on the same connection: once it is on the hall,
            # anything published before it would be too (one bridge connection keeps QoS 1 order)
            t.phones.mirror.publish_retained(protocol.about_topic(PREFIX, TABLE),
                                             protocol.about_payload(name="marker", language="en"))
            watcher.wait_for(lambda m: m.topic == f"{base}/about" and m.json()["name"] == "marker")
            assert any(m.topic == f"{base}/public" and m.json()["table"]["counters"].get("gold") is not None
                       for m in watcher.seen)
            topics = {m.topic for m in watcher.seen}
            assert seat_view not in topics
            assert not [topic for topic in topics if "/seat/" in topic]
            assert not [m for m in watcher.seen if b'"gold":7' in m.payload]  # the secret value never crosses
            watcher.close()  # the hall's one login (one client id): closed before the next one takes it
            # the public view is retained on the hall: a hall that starts later still gets it
            late = hall.hall_client()
            kept = late.got(lambda m: m.topic == f"{base}/public")
            assert kept.retain and kept.json()["players"] == t.referee.view("public")["players"]
            late.close()


def test_a_dropped_table_leaves_its_bridge_offline_on_the_hall(tmp_path: Path) -> None:
    with central({TABLE: PASSWORD}) as hall:
        cfg = table_config(TABLE, PASSWORD, hall.port)
        watcher = hall.hall_client()
        base = protocol.base(PREFIX, TABLE)
        with hall_table(tmp_path / "t1.sqlite3", cfg):
            watcher.wait_for(lambda m: m.topic == f"{base}/bridge" and m.payload == b"1")
        # the table's broker is gone: Mosquitto's own will for the bridge says so on the hall
        watcher.wait_for(lambda m: m.topic == f"{base}/bridge" and m.payload == b"0")
        watcher.close()


def test_the_bridge_names_each_topic_under_this_table_only() -> None:
    text = connection_text(prefix=PREFIX, table=TABLE, url="mqtt://hall.local:1884", password=PASSWORD, keepalive=5)
    topics = [line.split() for line in text.splitlines() if line.startswith("topic ")]
    base = protocol.base(PREFIX, TABLE)
    assert sorted(t[1] for t in topics if t[2] == "out") == sorted(f"{base}/{n}" for n in protocol.BRIDGED_OUT)
    assert [t[1] for t in topics if t[2] == "in"] == [f"{base}/{n}" for n in protocol.IN]
    assert all(t[3] == "1" and "#" not in t[1] and "/seat/" not in t[1] for t in topics)
    assert "address hall.local:1884" in text and f"remote_clientid hall-{TABLE}" in text
    assert "cleansession false" in text and "notifications true" in text
    assert f"notification_topic {protocol.bridge_topic(PREFIX, TABLE)}" in text
    assert text.count(PASSWORD) == 1  # on its own line, remote_password
