"""A game's scripted evenings in docs/games/<id>/, replayed by the real script runner on a SQLite log
(what `companion replay` does): the replay, what the table said along it, and the restart check."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from companion.core.eventlog import EventLog
from companion.core.referee import Referee
from companion.games import registry
from companion.scripting import run


def docs(game: str) -> Path:
    """The folder of a game's scripted evenings."""
    return Path(__file__).resolve().parents[2] / "docs" / "games" / game


def replay(script: Path, tmp_path: Path) -> Referee:
    text = script.read_text(encoding="utf-8").splitlines()
    return run(registry(), EventLog(tmp_path / "log.sqlite3"), text)


def said(ref: Referee) -> list[tuple[str, dict[str, Any]]]:
    return [(a["msg"], a["params"]) for a in ref.state["announcements"]]


def assert_each_restarts_to_the_same_end(folder: Path, names: tuple[str, ...], tmp_path: Path) -> None:
    """Each script replayed, then the referee resumed from its log: the same public view."""
    for name in names:
        (tmp_path / name).mkdir()
        ref = replay(folder / name, tmp_path / name)
        again = Referee.resume(registry(), EventLog(tmp_path / name / "log.sqlite3"))
        assert again is not None and again.view("public") == ref.view("public")
