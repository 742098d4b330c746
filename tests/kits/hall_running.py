"""A running hall for tests: its real central Mosquitto and watcher on a free port, its real SQLite store,
and tables played by real paho clients that log in with their table id and publish what protocol.py says
a table's bridge brings."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion import scripting
from companion.core.eventlog import EventLog
from companion.games import registry
from companion.hall import protocol
from companion.hall.hooks import Store, league, open_store
from companion.hall.model import HallModel
from companion.hall.run import Hall, HallOptions
from companion.phones.runner import free_port
from tests.kits.phones_kit import WAIT_S, Phone

PREFIX = "companion"
DEMO = (Path(scripting.__file__).parent / "scripts" / "toolkit-demo.jsonl").read_text().splitlines()


@dataclass
class Running:
    hall: Hall
    store: Store
    port: int

    def table(self, table_id: str, password: str | None = None) -> Phone:
        """A table's link to the central broker (as its bridge logs in: user = table id)."""
        t = Phone("127.0.0.1", self.port, table_id, password or self.store.table_passwords()[table_id])
        assert not t.connect().is_failure
        return t


@contextlib.contextmanager
def running_hall(tmp_path: Path, tables: tuple[str, ...] = ("t1", "t2"), clock: Callable[[], int] | None = None,
                 page_port: int | None = None, draw_seed: str | None = None) -> Iterator[Running]:
    store = open_store(tmp_path / "hall.sqlite3")
    for t in tables:
        store.add_table(t)
    port = free_port()
    options = HallOptions(name="Test hall", prefix=PREFIX, host="127.0.0.1", port=port, page_port=page_port,
                          draw_seed=draw_seed)
    hall = Hall(store, league(), options, **({"clock": clock} if clock else {}))
    hall.start()
    try:
        assert hall.watcher.connected.wait(WAIT_S)
        yield Running(hall, store, port)
    finally:
        hall.stop()


def topic(table: str, name: str) -> str:
    return f"{protocol.base(PREFIX, table)}/{name}"


def until(model: HallModel, pred: Callable[[dict[str, Any]], bool], timeout: float = WAIT_S) -> dict[str, Any]:
    """The first snapshot for which `pred` holds, waiting on the model's changes (never a sleep)."""
    version = model.version
    deadline = time.monotonic() + timeout  # overall: changes that do not satisfy `pred` do not extend it
    while True:
        snap = model.snapshot()
        if pred(snap):
            return snap
        moved = model.wait_changed(version, max(0.0, deadline - time.monotonic()))
        assert moved != version, f"no change within {timeout} s; last snapshot: {snap}"
        version = moved


def table_of(snap: dict[str, Any], table_id: str) -> dict[str, Any]:
    return next(t for t in snap["tables"] if t["id"] == table_id)


def demo_view(lines: int) -> dict[str, Any]:
    """The toolkit demo's public view after its first `lines` lines."""
    return scripting.run(registry(), EventLog(":memory:"), DEMO[:lines]).view("public")


def result(table: str, number: int = 1, key: str = "0123abcd0001", **changes: Any) -> bytes:
    fields: dict[str, Any] = {
        "table": table, "key": key, "number": number, "game": "toolkit",
        "players": [{"id": "ana", "name": "Ana"}, {"id": "ben", "name": "Ben"}],
        "ranking": [["ana"], ["ben"]], "points": None, "stopped": False, "finished_ms": 1_700_000_000_000}
    return protocol.result_payload(**{**fields, **changes})
