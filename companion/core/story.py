"""The whole story of a game: every announcement it made, in order (issue 31). A state keeps only its
last announcements (`contract.ANNOUNCEMENTS_KEPT`) and views show fewer (`referee.ANNOUNCEMENTS_SHOWN`);
the story refolds the inputs in force from the setup and collects each step's new announcements.
Announcements are public (a game never puts a secret in one), so the story is too."""

from __future__ import annotations

import copy
from collections.abc import Iterable
from typing import Any

from companion.core.contract import Game, Setup
from companion.core.fold import states
from companion.core.inputs import Input


def announcements(game: Game, setup: Setup, inputs: Iterable[Input]) -> list[dict[str, Any]]:
    """Every announcement of the game that `inputs` (the inputs in force, in order) play from `setup`,
    folded as the referee folds them (`fold.states`: a clock input no longer due after a correction is
    skipped, as in the state itself)."""
    told: list[dict[str, Any]] = []
    before = 0
    for state in states(game, setup, inputs):
        new = state["announced"] - before
        if new:
            told += copy.deepcopy(state["announcements"][-new:])  # the state goes on changing in place
        before = state["announced"]
    return told
