"""The registry of games. Each game is a package exporting `GAME` (see companion.core.contract)."""

from __future__ import annotations

from pathlib import Path

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


def demo_script(game_id: str) -> list[str] | None:
    """The lines of a game's first recorded demo game, or None when it has none.

    A game's demos are its complete scripted games in ``docs/games/<id>/``, shipped in the package as
    ``companion/games/<id>/demo_games/`` (a link to that folder): the kiosk's attract loop and
    `companion demo --game` play them.
    """
    folder = Path(__file__).resolve().parent / game_id / "demo_games"
    scripts = sorted(folder.glob("*.jsonl")) if folder.is_dir() else []
    return scripts[0].read_text(encoding="utf-8").splitlines() if scripts else None
