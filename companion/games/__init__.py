"""The registry of games. Each game is a package exporting `GAME` (see companion.core.contract)."""

from __future__ import annotations

from companion.core.contract import Game
from companion.games.betrayal import GAME as BETRAYAL
from companion.games.jailbreak import GAME as JAILBREAK
from companion.games.lab_escape import GAME as LAB_ESCAPE
from companion.games.lockdown import GAME as LOCKDOWN
from companion.games.room25 import GAME as ROOM25
from companion.games.toolkit import GAME as TOOLKIT


def registry() -> dict[str, Game]:
    """Every game this companion referees, by id, in menu order."""
    return {g.id: g for g in (TOOLKIT, LOCKDOWN, ROOM25, JAILBREAK, BETRAYAL, LAB_ESCAPE)}
