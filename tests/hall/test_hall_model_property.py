"""Whatever a table sends on its topics, the hall's watcher never raises (so paho's thread goes on) and
its snapshot stays JSON the pages can send; nothing but a valid result reaches the league file."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.hall import protocol
from companion.hall.model import HallModel
from companion.hall.store import HallStore
from companion.hall.watch import Router
from tests.kits.hall_running import demo_view, result, topic

scalars = st.none() | st.booleans() | st.integers(-2**60, 2**60) | st.floats(allow_nan=False) | st.text(max_size=20)
values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
    st.text(max_size=10), inner, max_size=4), max_leaves=20)
VIEW = demo_view(8)
KEYS = [*VIEW, "n", "at", "msg", "params", "v", "name", "language", "table", "key", "ranking", "points"]


def mutated(base: dict[str, Any]) -> st.SearchStrategy[bytes]:
    return st.dictionaries(st.sampled_from(KEYS), values, max_size=4).map(
        lambda changes: json.dumps({**base, **changes}).encode())


payloads = (st.binary(max_size=200) | values.map(lambda v: json.dumps(v).encode()) | mutated(VIEW)
            | mutated(json.loads(result("t1"))) | mutated({"v": 1, "name": "T", "language": "en"}))
topics = st.sampled_from([topic(t, n) for t in ("t1", "t2", "zz", "T1") for n in (
    "status", "public", "events", "about", "bridge", "results/1", "results/x", "seat/a/view", "hall/seating")])


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(topics, payloads), max_size=12))
def test_no_payload_stops_the_watcher_or_breaks_the_snapshot(messages: list[tuple[str, bytes]]) -> None:
    with tempfile.TemporaryDirectory() as folder:
        store = HallStore(Path(folder) / "h.sqlite3")
        model = HallModel("H", clock=lambda: 0)
        router = Router("companion", model, store, accept=lambda t: t in ("t1", "t2"))
        for name, payload in messages:
            router.handle(name, payload)  # raises nothing
        snap = json.loads(json.dumps(model.snapshot()))
        assert {t["id"] for t in snap["tables"]} <= {"t1", "t2"}
        for stored in store.results():
            assert stored == protocol.parse_result(protocol.result_payload(**{
                ("round_no" if k == "round" else k): v for k, v in stored.items()}), stored["table"])
