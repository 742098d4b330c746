"""The toolkit's tokens (companion/games/toolkit/tokens.py): what a tapped dice or timer token means,
and the chess-clock `timer.tap` move, on a real SQLite log."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from companion.core.inputs import Input
from companion.games.toolkit import GAME
from tests.kits.toolkit_script import host, play, said


@pytest.mark.parametrize(("token_id", "meaning"), [
    ("2d6", ("dice.roll", {"count": 2, "sides": 6})),
    ("d20", ("dice.roll", {"count": 1, "sides": 20})),
    ("20d100", ("dice.roll", {"count": 20, "sides": 100})),
    ("21d6", None), ("0d6", None), ("1d1", None), ("2d101", None), ("dd", None), ("6", None),
])
def test_a_dice_token_names_its_roll(token_id: str, meaning: tuple[str, dict[str, Any]] | None) -> None:
    state = GAME.setup(None, None)  # type: ignore[arg-type]
    assert GAME.on_token(state, "dice", token_id, "table") == meaning


def test_a_timer_token_taps_its_timer_and_other_kinds_mean_nothing() -> None:
    state = GAME.setup(None, None)  # type: ignore[arg-type]
    assert GAME.on_token(state, "timer", "round", "player:ana") == ("timer.tap", {"name": "round"})
    assert GAME.on_token(state, "sword", "x", "table") is None


def test_timer_tap_starts_pauses_and_resumes(tmp_path: Path) -> None:
    ref = play(tmp_path / "t.sqlite3",
               host("timer.create", 0, name="round", seconds=60),
               {"by": "table", "move": "timer.tap", "args": {"name": "round"}, "at": 1_000},
               {"by": "table", "move": "timer.tap", "args": {"name": "round"}, "at": 11_000},
               {"by": "player:ana", "move": "timer.tap", "args": {"name": "round"}, "at": 20_000})
    timer = ref.state["timers"]["round"]
    assert timer["running"] and timer["deadline"] == 20_000 + 50_000
    assert [msg for _, msg, _ in said(ref)] == ["toolkit.timer_started", "toolkit.timer_paused",
                                                 "toolkit.timer_resumed"]


def test_timer_tap_refuses_an_expired_or_unknown_timer(tmp_path: Path) -> None:
    ref = play(tmp_path / "t.sqlite3",
               host("timer.create", 0, name="round", seconds=5),
               {"by": "table", "move": "timer.tap", "args": {"name": "round"}, "at": 0},
               {"by": "clock", "move": "timer.expire", "args": {"name": "round"}, "at": 5_000})
    late = ref.submit(Input("timer.tap", "table", {"name": "round"}, at=60_000))
    assert not late.accepted and late.reason is not None and late.reason.code == "reject.timer_expired"
    unknown = ref.submit(Input("timer.tap", "table", {"name": "nope"}, at=60_000))
    assert not unknown.accepted and unknown.reason is not None and unknown.reason.code == "reject.no_such"
