"""A demo script as a night's plan (tests/night/): its setup (game, players, options, seed) and its
steps, each an input a person makes (move, args, by) or a moment the table's clock reaches.

The table runs on `HandClock`, which stands where the script's time stands: before each step the
follower sets it to the step's `at`, so every timer runs out exactly where it ran out when the script
was recorded (the table fires what is due before the next input, or on its own next wake for a clock
line). No test waits for wall-clock time.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from companion.games import registry


@dataclass(frozen=True)
class Step:
    move: str | None  # None: a clock line (`{"clock": ms}`)
    by: str
    args: dict[str, Any]
    at: int


@dataclass(frozen=True)
class Script:
    path: Path
    game: str
    players: list[tuple[str, str]]  # (id, name)
    options: dict[str, Any]
    seed: int
    steps: list[Step]

    def inputs(self) -> list[Step]:
        return [s for s in self.steps if s.move is not None]

    def told(self, how: Callable[[Step], Step]) -> Script:
        """The script as people at a table say it: each input through `how` (a real dice roll
        reported as its total, as the forms ask for it), the recording's moments kept."""
        return replace(self, steps=[how(s) if s.move is not None else s for s in self.steps])


def load(path: Path) -> Script:
    lines = [json.loads(line) for line in path.read_text().splitlines() if line.strip() and not line.startswith("#")]
    setup, *rest = lines
    steps = [Step(None, "clock", {}, int(o["clock"])) if "clock" in o
             else Step(o["move"], o["by"], dict(o.get("args") or {}), int(o.get("at", 0))) for o in rest]
    return Script(path, setup["game"], [(p["id"], p["name"]) for p in setup["players"]],
                  dict(setup.get("options") or {}), int(setup["seed"]), steps)


def demo(game: str, name: str) -> Script:
    """One of the game's own demo scripts (companion/games/<id>/demo_games/NAME.jsonl)."""
    module = type(registry()[game]).__module__.rsplit(".", 1)[0]
    folder = Path(__import__(module, fromlist=["_"]).__file__).parent  # type: ignore[arg-type]
    return load(folder / "demo_games" / f"{name}.jsonl")


class HandClock:
    """The table's clock, moved by the test to the script's time (never back)."""

    def __init__(self, ms: int = 0) -> None:
        self._ms = ms
        self._lock = threading.Lock()

    def now_ms(self) -> int:
        with self._lock:
            return self._ms

    def set(self, ms: int) -> None:
        with self._lock:
            self._ms = max(self._ms, ms)
