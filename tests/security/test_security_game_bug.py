"""A game's own bug meets an input it did not foresee: the referee refuses that input, changes nothing,
says where in the journal without quoting anything, and the table plays on (issue 16: no input stops
the process or a thread)."""

from __future__ import annotations

import logging
import threading
from pathlib import Path
from typing import Any

import pytest

from companion.core.contract import Player, Setup, State
from companion.core.eventlog import EventLog
from companion.core.referee import Outcome, Referee
from companion.games.toolkit.game import Toolkit
from companion.table.loop import Table

SECRET = "wolf-is-ana"  # what the buggy code holds when it fails: must reach no one


class ToolkitWithABug(Toolkit):
    """The toolkit, whose end check fails once anyone has rolled dice (a real bug's shape: a KeyError)."""

    id = "toolkit_with_a_bug"

    def result(self, state: State) -> dict[str, Any] | None:
        if state["rolls"]:
            raise KeyError(SECRET)
        return super().result(state)


def test_a_failing_game_refuses_the_input_changes_nothing_and_the_table_plays_on(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    game = ToolkitWithABug()
    log = EventLog(tmp_path / "game.sqlite3")
    setup = Setup(game.id, (Player("ana", "Ana"), Player("ben", "Ben")), {}, seed=5)
    referee = Referee.start({game.id: game}, log, setup, created_at=0)
    table = Table(referee)
    loop = threading.Thread(target=table.run, name="table", daemon=True)
    loop.start()
    answers: dict[str, Outcome] = {}
    answered = threading.Event()

    def reply(name: str) -> Any:
        def got(outcome: Outcome) -> None:
            answers[name] = outcome
            if len(answers) == 3:
                answered.set()
        return got

    before_events = len(referee.events)
    with caplog.at_level(logging.INFO):
        table.put({"by": "player:ana", "move": "dice.roll", "args": {"count": 2, "sides": 6}}, reply("roll"))
        table.put({"by": "host", "move": "counter.create", "args": {"name": "gold"}}, reply("after"))
        table.put({"by": "player:ben", "move": "dice.roll", "args": {"count": 1, "sides": 6}}, reply("again"))
        assert answered.wait(10)
    table.stop()
    loop.join(10)

    assert not answers["roll"].accepted and answers["roll"].reason is not None
    assert answers["roll"].reason.code == "reject.referee_failed"
    assert not answers["again"].accepted
    assert answers["after"].accepted  # the table played on: the next input is taken
    assert len(referee.events) == before_events + 1  # only the counter: nothing of the failed rolls
    failed = [r for r in caplog.records if "failed on" in r.getMessage()]
    assert len(failed) == 2 and all("KeyError" in r.getMessage() for r in failed)
    assert all(SECRET not in r.getMessage() and not r.exc_info for r in caplog.records)
    reopened = Referee.resume({game.id: game}, EventLog(tmp_path / "game.sqlite3"))
    assert reopened is not None and len(reopened.events) == before_events + 1
