"""`/hall.json` under many pages: the pages woken by one change share one encoding of the snapshot
(bench/bench_hall.py found ten pages cost the hall five times what one does), yet a page never gets a
snapshot older than the last change, nor one whose clock (`now_ms`) is more than `MAX_AGE` old."""

from __future__ import annotations

import gzip
import http.client
import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.hall.model import HallModel
from companion.hall.pages.server import HallPages
from companion.hall.pages.snapshots import MAX_AGE, Snapshots
from tests.kits.hall_pages_kit import KEY, Roster
from tests.kits.hall_running import demo_view

TABLES = [f"table-{n}" for n in range(1, 9)]


class Clocks:
    """The hall's wall clock (ms, the snapshot's `now_ms`) and the pages' monotonic one (s), moved together."""

    def __init__(self) -> None:
        self.wall_ms = 1_700_000_000_000

    def wall(self) -> int:
        return self.wall_ms

    def monotonic(self) -> float:
        return self.wall_ms / 1000

    def tick(self, ms: int) -> None:
        self.wall_ms += ms


class Watching:
    """The organiser's actions, never taken here: these pages are only looked at."""

    def send_seating(self, game: str, present_ids: list[str], tables: list[str]) -> Any:
        raise ValueError("not in this test")

    def standings_csv(self) -> str:
        return ""


def hall_of_eight(clocks: Clocks) -> HallModel:
    model = HallModel("League night", clocks.wall)
    model.know_tables(TABLES)
    view = json.dumps(demo_view(8)).encode()
    for t in TABLES:
        model.on_status(t, b"online")
        model.on_bridge(t, b"1")
        model.on_public(t, view)
    return model


def shown(encoded: bytes) -> dict[str, Any]:
    return dict(json.loads(encoded))


def test_pages_woken_by_one_change_share_one_encoding_and_the_next_change_is_seen() -> None:
    clocks = Clocks()
    model = hall_of_eight(clocks)
    snapshots = Snapshots(model, clocks.monotonic)
    tv, phone = snapshots.current(), snapshots.current()
    assert tv is phone and snapshots.made == 1
    assert shown(tv.body) == model.snapshot()
    assert tv.gzipped is not None and gzip.decompress(tv.gzipped) == tv.body

    model.on_status("table-3", b"offline")  # a table drops: the very next fetch shows it
    after = snapshots.current()
    assert snapshots.made == 2
    assert {t["id"]: t["status"] for t in shown(after.body)["tables"]}["table-3"] == "offline"


def test_at_one_version_the_snapshot_is_made_again_once_it_is_max_age_old() -> None:
    clocks = Clocks()
    model = hall_of_eight(clocks)
    snapshots = Snapshots(model, clocks.monotonic)
    first = shown(snapshots.current().body)
    clocks.tick(int(MAX_AGE * 1000) - 1)
    assert shown(snapshots.current().body)["hall"]["now_ms"] == first["hall"]["now_ms"]
    clocks.tick(1)
    assert shown(snapshots.current().body)["hall"]["now_ms"] == clocks.wall_ms  # the timers' clock is fresh


steps = st.lists(st.one_of(
    st.tuples(st.just("status"), st.sampled_from(TABLES), st.sampled_from([b"online", b"headless", b"offline"])),
    st.tuples(st.just("tick"), st.integers(0, 400)),
    st.tuples(st.just("fetch")),
), max_size=30)


@settings(max_examples=60, deadline=None)
@given(steps)
def test_a_fetch_shows_every_change_before_it_and_a_clock_at_most_max_age_old(ops: list[tuple[Any, ...]]) -> None:
    clocks = Clocks()
    model = hall_of_eight(clocks)
    snapshots = Snapshots(model, clocks.monotonic)
    for op in ops:
        if op[0] == "status":
            model.on_status(op[1], op[2])
        elif op[0] == "tick":
            clocks.tick(op[1])
        else:
            got, now = shown(snapshots.current().body), model.snapshot()
            assert got["tables"] == now["tables"] and got["standings"] == now["standings"]
            assert clocks.wall_ms - MAX_AGE * 1000 < got["hall"]["now_ms"] <= clocks.wall_ms


def test_the_pages_send_the_shared_encoding_gzipped_or_not() -> None:
    clocks = Clocks()
    model = hall_of_eight(clocks)
    pages = HallPages(model, Roster([]), Watching(), "127.0.0.1", 0, organiser_key=KEY)
    pages.start()
    try:
        answers = []
        for encoding in ("gzip", "gzip", "identity"):
            conn = http.client.HTTPConnection("127.0.0.1", pages.port, timeout=10)
            conn.request("GET", "/hall.json", headers={"Accept-Encoding": encoding})
            response = conn.getresponse()
            answers.append((response.getheader("Content-Encoding"), response.read()))
            conn.close()
    finally:
        pages.stop()
    (enc1, tv), (enc2, phone), (enc3, plain) = answers
    assert (enc1, enc2, enc3) == ("gzip", "gzip", None)
    assert tv == phone and gzip.decompress(tv) == plain
    assert shown(plain) == model.snapshot()
    assert pages.snapshots.made == 1
