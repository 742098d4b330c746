"""The attract loop's game: a recorded script replayed one input at a time on its own in-memory
referee (never the table's), looping forever. The demo's public view is all the screen sees."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from companion import scripting
from companion.core.clock import advance
from companion.core.contract import Game
from companion.core.eventlog import EventLog, setup_from_json
from companion.core.referee import PUBLIC, Referee
from companion.games import demo_script

__all__ = ["Demo", "demo_script"]

DEFAULT_SCRIPT = Path(__file__).resolve().parent.parent / "scripts" / "toolkit-demo.jsonl"


class Demo:
    def __init__(self, games: Mapping[str, Game], lines: list[str] | None = None) -> None:
        self.games = games  # read only: a game is imported when the demo plays it
        text = lines if lines is not None else DEFAULT_SCRIPT.read_text(encoding="utf-8").splitlines()
        self.setup, self.steps = scripting.parse(text)
        self.log = EventLog(":memory:")
        self.referee: Referee | None = None
        self.restart()

    def restart(self) -> None:
        self.referee = Referee.start(self.games, self.log, setup_from_json({"seed": 0, **self.setup}), 0)
        self.index = 0
        self.at = 0  # the script's clock: the demo's timers count against it

    @property
    def finished(self) -> bool:
        return self.index >= len(self.steps)

    def advance(self) -> None:
        """Play the next line of the script (starting over after the last)."""
        if self.finished:
            self.restart()
            return
        assert self.referee is not None
        _, step = self.steps[self.index]
        self.index += 1
        self.at = max(self.at, step.at)
        advance(self.referee, step.at)
        if isinstance(step, scripting.ClockStep) or step.by == "clock":
            return
        self.referee.submit(step)

    def public(self) -> dict[str, Any]:
        assert self.referee is not None
        return self.referee.view(PUBLIC)

    def close(self) -> None:
        self.log.close()
