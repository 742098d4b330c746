"""The games this companion referees, found from their packages.

A game is one folder here, ``companion/games/<id>/``: its rules, data, catalogs (``locale/``), demo games
(``demo_games/``), lines and board picture, exported as `GAME` (see `companion.core.contract`). Nothing
outside this folder names a game: the kiosk, the phones, the booth, the enroll screen and the demos find
every game through `registry()`. The package path is extended like a namespace package's, so a game can
also come in its own distribution (or a folder on ``PYTHONPATH``) laid out as ``companion/games/<id>/``.
"""

from __future__ import annotations

import functools
import importlib
import pkgutil
from pathlib import Path

from companion.core.contract import Game

__path__ = pkgutil.extend_path(__path__, __name__)


@functools.cache
def registry() -> dict[str, Game]:
    """Every game by id, in menu order (`Game.menu_rank`, then id)."""
    games: list[Game] = []
    for found in pkgutil.iter_modules(__path__):
        if found.ispkg:
            games.append(importlib.import_module(f"{__name__}.{found.name}").GAME)
    return {g.id: g for g in sorted(games, key=lambda g: (g.menu_rank, g.id))}


def folder(game_id: str) -> Path:
    """The folder of a game's package."""
    module = importlib.import_module(type(registry()[game_id]).__module__)
    return Path(module.__file__ or "").resolve().parent


def locale_folders() -> list[Path]:
    """Every game's ``locale/`` folder, without importing the games (the catalogs are read first). A game
    found twice on the path is the first one, as an import finds it."""
    found: dict[str, Path] = {}
    for entry in __path__:
        for module in pkgutil.iter_modules([entry]):
            if module.ispkg:
                found.setdefault(module.name, Path(entry) / module.name / "locale")
    return sorted(found.values())


def demo_script(game_id: str) -> list[str] | None:
    """The lines of a game's first recorded demo game, or None when it has none.

    A game's demos are its complete scripted games in its package's ``demo_games/`` (for the bundled
    games a link to ``docs/games/<id>/``): the kiosk's attract loop and `companion demo --game` play them.
    """
    demos = folder(game_id) / "demo_games"
    scripts = sorted(demos.glob("*.jsonl")) if demos.is_dir() else []
    return scripts[0].read_text(encoding="utf-8").splitlines() if scripts else None
