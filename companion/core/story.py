"""The whole story of a game: every announcement it made, in order (issue 31). A state keeps only its
last announcements (`contract.ANNOUNCEMENTS_KEPT`) and views show fewer (`referee.ANNOUNCEMENTS_SHOWN`);
the story refolds the inputs in force from the setup and collects each step's new announcements.
Announcements are public (a game never puts a secret in one), so the story is too."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from companion.core.contract import Game, Setup
from companion.core.fold import initial, step
from companion.core.inputs import Input


def announcements(game: Game, setup: Setup, inputs: Iterable[Input]) -> list[dict[str, Any]]:
    """Every announcement of the game that `inputs` (accepted ones, in order) play from `setup`."""
    state = initial(game, setup)
    told: list[dict[str, Any]] = list(state["announcements"])
    for inp in inputs:
        before = state["announced"]
        state = step(game, state, inp)
        new = state["announced"] - before
        if new:
            told += state["announcements"][-new:]
    return told
