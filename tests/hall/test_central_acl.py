"""The central broker's ACL (protocol.central_acl_patterns): a table speaks only for itself, reads only its
own seating, and no seat topic ever reaches the central broker; a table added while the hall runs can log
in at once (the broker reloads), and one nobody added cannot."""

from __future__ import annotations

from pathlib import Path

from companion.hall import protocol
from tests.kits.hall_running import result, running_hall, table_of, topic, until
from tests.kits.phones_kit import Phone

SEAT_VIEW = "seat/companion-ana/view"


def test_a_table_cannot_write_another_tables_topics(tmp_path: Path) -> None:
    with running_hall(tmp_path) as run:
        t2 = run.table("t2")
        t2.publish(topic("t1", "status"), "online", True)
        t2.publish(topic("t1", "bridge"), "1", True)
        t2.publish(topic("t1", "about"), protocol.about_payload(name="Not me", language="en"), True)
        t2.publish(topic("t1", "results/1"), result("t1"), True)
        t2.publish(topic("t1", "hall/seating"), b"{}", True)
        t2.publish(topic("t2", "status"), "online", True)  # its own, after the others: this one lands
        snap = until(run.hall.model, lambda s: table_of(s, "t2")["status"] == "online")
        t1 = table_of(snap, "t1")
        assert (t1["status"], t1["name"], t1["online"], t1["game"]) == ("unknown", "t1", False, None)
        assert run.store.results() == []


def test_a_table_reads_its_own_seating_and_no_seat_topic(tmp_path: Path) -> None:
    with running_hall(tmp_path) as run:
        t1 = run.table("t1")
        t1.subscribe("#", topic("+", "seat/#"), topic("t1", "seat/#"), topic("t2", "hall/seating"),
                     topic("t1", "hall/seating"))
        # the hall's own client may write anything under the prefix; a seat topic is still not a table's
        run.hall.watcher.publish(topic("t1", SEAT_VIEW), b'{"secret": "werewolf"}').wait_for_publish(5)
        run.hall.watcher.publish(topic("t2", "hall/seating"), b'{"for": "t2"}').wait_for_publish(5)
        run.hall.watcher.publish(topic("t1", "hall/seating"), b'{"for": "t1"}').wait_for_publish(5)
        got = t1.wait_for(lambda m: m.topic == topic("t1", "hall/seating"))
        assert got.payload == b'{"for": "t1"}'
        assert [m.topic for m in t1.seen] == [topic("t1", "hall/seating")]


def test_no_seat_topic_reaches_a_subscriber_to_everything(tmp_path: Path) -> None:
    """What a table's bridge could push by mistake (a seat view, its host view): the central broker
    refuses it, so even the hall's own login subscribed to `#` never sees one."""
    with running_hall(tmp_path) as run:
        run.hall.watcher.stop()  # its login is the hall's: one client at a time
        everything = Phone("127.0.0.1", run.port, protocol.HALL_USER, run.hall.address.password)
        assert not everything.connect().is_failure
        everything.subscribe("#")
        t1 = run.table("t1")
        for name in (SEAT_VIEW, "seat/companion-host/view", "seat/companion-ana/cmd", "seat/companion-ana/reply"):
            t1.publish(topic("t1", name), b'{"role": "werewolf"}', True)
        t1.publish(topic("t1", "status"), "online", True)
        everything.wait_for(lambda m: m.topic == topic("t1", "status"))
        assert [m.topic for m in everything.seen] == [topic("t1", "status")]
        everything.close()


def test_a_table_added_while_the_hall_runs_logs_in_at_once(tmp_path: Path) -> None:
    with running_hall(tmp_path) as run:
        stranger = Phone("127.0.0.1", run.port, "t3", "guess")
        assert stranger.connect().is_failure  # not a table of this hall
        password = run.hall.actions.add_table("t3")
        t3 = run.table("t3", password)
        t3.publish(topic("t3", "status"), "online", True)
        until(run.hall.model, lambda s: table_of(s, "t3")["status"] == "online")
        assert Phone("127.0.0.1", run.port, "t3", "guess").connect().is_failure
