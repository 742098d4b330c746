"""Scripts: a JSONL file of the same inputs the live app records, to drive any game headless.

The format is documented in docs/scripting.md and is a public interface: keep it stable.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.core.clock import advance
from companion.core.contract import Game
from companion.core.eventlog import EventLog, setup_from_json
from companion.core.inputs import CLOCK, Input
from companion.core.referee import Referee
from companion.core.rejection import Rejected


class ScriptError(Exception):
    """A script line that could not be read or was rejected; `line` is 1-based. `referee`: the game as it
    stood just before the rejected line (None when the setup itself was refused or unreadable)."""

    def __init__(self, line: int, reason: Rejected, referee: Referee | None = None) -> None:
        super().__init__(f"line {line}: {reason}")
        self.line = line
        self.reason = reason
        self.referee = referee


#: Options naming a file or folder (Lockdown's map, Betrayal's data set): a relative path in a script
#: is read from the script's folder, not the working directory (issue 31, docs/scripting.md).
PATH_OPTIONS = ("map_file", "data")


def beside(setup: dict[str, Any], folder: Path | None) -> dict[str, Any]:
    """The setup with its relative path options resolved against `folder` (the script's)."""
    options = setup.get("options")
    if folder is None or not isinstance(options, dict):
        return setup
    resolved = {k: str(folder / v) if k in PATH_OPTIONS and isinstance(v, str) and v and not Path(v).is_absolute()
                else v for k, v in options.items()}
    return {**setup, "options": resolved}


@dataclass(frozen=True)
class ClockStep:
    at: int


Step = Input | ClockStep


def _parse_setup(line: int, obj: Any) -> dict[str, Any]:
    if not isinstance(obj, dict) or "game" not in obj or "players" not in obj:
        raise ScriptError(line, Rejected("reject.malformed", problem="the first line must be the setup"))
    extra = set(obj) - {"game", "players", "options", "seed", "moderator"}
    if extra:
        raise ScriptError(line, Rejected("reject.malformed", problem=f"unknown setup field {sorted(extra)[0]!r}"))
    if not isinstance(obj.get("moderator", False), bool):
        raise ScriptError(line, Rejected("reject.malformed", problem="moderator must be true or false"))
    players = obj["players"]
    if not isinstance(players, list) or not all(
        isinstance(p, str) or (isinstance(p, dict) and isinstance(p.get("id"), str)) for p in players
    ):
        raise ScriptError(line, Rejected("reject.malformed", problem="players must be ids or {id, name}"))
    return obj


def parse(lines: Iterable[str]) -> tuple[dict[str, Any], list[tuple[int, Step]]]:
    """The setup object and the numbered steps of a script."""
    setup: dict[str, Any] | None = None
    steps: list[tuple[int, Step]] = []
    now = 0
    for number, raw in enumerate(lines, start=1):
        text = raw.strip()
        if not text or text.startswith("#"):
            continue
        try:
            obj = json.loads(text)
        except json.JSONDecodeError as err:
            raise ScriptError(number, Rejected("reject.malformed", problem=f"not JSON: {err.msg}")) from None
        if setup is None:
            setup = _parse_setup(number, obj)
            continue
        if isinstance(obj, dict) and set(obj) == {"clock"}:
            if isinstance(obj["clock"], bool) or not isinstance(obj["clock"], int) or obj["clock"] < 0:
                raise ScriptError(number, Rejected("reject.malformed", problem="'clock' must be ms >= 0"))
            now = obj["clock"]
            steps.append((number, ClockStep(now)))
            continue
        if isinstance(obj, dict) and "at" not in obj:
            obj = {**obj, "at": now}
        try:
            inp = Input.from_json(obj)
        except Rejected as reason:
            raise ScriptError(number, reason) from None
        now = inp.at
        steps.append((number, inp))
    if setup is None:
        raise ScriptError(1, Rejected("reject.malformed", problem="the script is empty"))
    return setup, steps


def run(games: Mapping[str, Game], log: EventLog, lines: Iterable[str], created_at: int = 0,
        after: Callable[[Referee], None] | None = None, folder: Path | None = None) -> Referee:
    """Play a script on a fresh game in `log`; raises ScriptError at the first rejected line, carrying the
    game as it stood before it. `after`, if given, sees the referee once started and after every step
    (each state the game went through). `folder`: the script's, where relative file options are found."""
    setup_obj, steps = parse(lines)
    setup_obj = beside(setup_obj, folder)
    try:
        setup = setup_from_json({"seed": 0, **setup_obj})
        referee = Referee.start(games, log, setup, created_at)
    except Rejected as reason:
        raise ScriptError(1, reason) from None
    except (KeyError, TypeError, ValueError) as err:
        raise ScriptError(1, Rejected("reject.malformed", problem=str(err)[:80])) from None
    if after is not None:
        after(referee)
    for number, step in steps:
        if isinstance(step, ClockStep):
            _check(number, advance(referee, step.at), referee)
            continue
        if step.by != CLOCK:
            _check(number, advance(referee, step.at), referee)
        outcome = referee.submit(step)
        if not outcome.accepted:
            assert outcome.reason is not None
            raise ScriptError(number, outcome.reason, referee)
        if after is not None:
            after(referee)
    return referee


def _check(number: int, outcomes: list[Any], referee: Referee) -> None:
    for outcome in outcomes:
        if not outcome.accepted:
            raise ScriptError(number, outcome.reason, referee)


def export(referee: Referee) -> list[str]:
    """The game in `referee` as a script: the setup line, then every logged input in order."""
    lines = [json.dumps(referee.setup.to_json(), ensure_ascii=False)]
    lines += [json.dumps(ev.input.to_json(), ensure_ascii=False) for ev in referee.events]
    return lines
