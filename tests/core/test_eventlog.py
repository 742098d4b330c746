"""The event log when the disk says no: the input is refused with a reason and nothing changes."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from companion.core.contract import Player, Setup
from companion.core.eventlog import EventLog, LogError
from companion.core.inputs import Input
from companion.core.referee import Referee
from companion.games import registry


def test_a_full_disk_refuses_the_input_and_loses_nothing(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    path = tmp_path / "log.sqlite3"
    setup = Setup("toolkit", (Player("ana", "Ana"), Player("ben", "Ben")), {}, seed=5)
    ref = Referee.start(registry(), EventLog(path), setup, created_at=0)
    assert ref.submit(Input("counter.create", "host", {"name": "hp", "initial": 10, "low": 0, "high": 10}, 0)).accepted
    # SQLite's own "database or disk is full": cap the file at the pages it has now.
    pages = ref.log._db.execute("PRAGMA page_count").fetchone()[0]
    ref.log._db.execute(f"PRAGMA max_page_count = {pages}")
    before = (ref.view("host"), ref.view("player:ana"), len(ref.events))
    refused = None
    with caplog.at_level(logging.ERROR):
        for i in range(2000):  # fill the last free page, then one more
            out = ref.submit(Input("dice.roll", "player:ben", {"count": 20, "sides": 100}, i + 1))
            if not out.accepted:
                refused = out
                break
            before = (ref.view("host"), ref.view("player:ana"), len(ref.events))
    assert refused is not None and refused.reason is not None
    assert refused.reason.code == "reject.storage_failed"
    assert (ref.view("host"), ref.view("player:ana"), len(ref.events)) == before
    assert "full" in caplog.text  # the journal says why
    ref.log.close()
    # Everything acknowledged before the disk filled up is still there after a restart.
    again = Referee.resume(registry(), EventLog(path))
    assert again is not None
    assert (again.view("host"), again.view("player:ana"), len(again.events)) == before


def test_a_log_written_by_a_newer_companion_is_refused_clearly(tmp_path: Path) -> None:
    path = tmp_path / "log.sqlite3"
    EventLog(path)._db.execute("PRAGMA user_version = 99")
    with pytest.raises(LogError, match="newer companion"):
        EventLog(path)


def test_a_file_that_is_not_a_log_is_refused_clearly(tmp_path: Path) -> None:
    path = tmp_path / "notes.txt"
    path.write_text("shopping list: dice, sleeves\n" * 100, encoding="utf-8")
    with pytest.raises(LogError, match="cannot open the event log"):
        EventLog(path)
