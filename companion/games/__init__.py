"""The games this companion referees, found from their packages.

A game is one folder here, ``companion/games/<id>/``: its rules, data, catalogs (``locale/``), demo games
(``demo_games/``), lines and board picture, exported as `GAME` (see `companion.core.contract`). Nothing
outside this folder names a game: the kiosk, the phones, the booth, the enroll screen and the demos find
every game through `registry()`. The package path is extended like a namespace package's, so a game can
also come in its own distribution (or a folder on ``PYTHONPATH``) laid out as ``companion/games/<id>/``.

A game's package may name its place in the menus, ``MENU_RANK``, in its ``__init__.py`` and export
`GAME` lazily (a module ``__getattr__``): then the registry lists and orders it without importing its
rules, forms and pictures, which are imported the first time the game itself is asked for
(``registry()[id]``). A kiosk that shows the game list imports only the games it plays or opens, which
keeps about 2 MiB of an evening's memory free (docs/perf/rss.md). A package without ``MENU_RANK`` is
imported to read `Game.menu_rank`.

What the new-game screens read of a game (who may play, the host's options) is its box, `box()`: a package
that names ``MIN_PLAYERS`` and ``MAX_PLAYERS`` too and exports its ``Options`` model lazily from a small
module of its own (``options.py``, nothing else of the game) is seated and set up without importing its
rules; they are imported when the game is played (docs/perf/rss.md). Any other package's box is its
`GAME`.
"""

from __future__ import annotations

import functools
import importlib
import pkgutil
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

from companion.core.contract import Args, Game, GameBox

__path__ = pkgutil.extend_path(__path__, __name__)


@dataclass(frozen=True)
class Box:
    """A game's box read from its package's constants and its options module (a `GameBox`)."""

    id: str
    min_players: int
    max_players: int
    Options: type[Args]
    menu_rank: int


class Games(Mapping[str, Game]):
    """Every game by id (its package's name), in menu order; a game's package is imported for its `GAME`
    the first time that game is looked up, not when the games are listed."""

    def __init__(self, names: list[str]) -> None:
        self._packages = {name: importlib.import_module(f"{__name__}.{name}") for name in names}
        ranks = {name: _rank(package) for name, package in self._packages.items()}
        self._ids = sorted(self._packages, key=lambda name: (ranks[name], name))

    def __getitem__(self, game_id: str) -> Game:
        if game_id not in self._packages:
            raise KeyError(game_id)
        game: Game = self._packages[game_id].GAME
        return game

    def __iter__(self) -> Iterator[str]:
        return iter(self._ids)

    def __len__(self) -> int:
        return len(self._ids)

    def __contains__(self, game_id: object) -> bool:
        return game_id in self._packages

    def box(self, game_id: str) -> GameBox:
        """What the game's box says (`GameBox`), without importing its rules when its package names them."""
        package = self._packages[game_id]
        if all(hasattr(package, name) for name in ("MIN_PLAYERS", "MAX_PLAYERS", "Options")):
            return Box(game_id, int(package.MIN_PLAYERS), int(package.MAX_PLAYERS), package.Options, _rank(package))
        return self[game_id]

    def minutes(self, game_id: str) -> tuple[int, int] | None:
        """How long a game of it takes, in minutes (its package's ``PLAY_MINUTES``), if the box says."""
        found = getattr(self._packages[game_id], "PLAY_MINUTES", None)
        return (int(found[0]), int(found[1])) if found is not None else None

    def folder(self, game_id: str) -> Path:
        """The folder of a game's package (without importing its rules)."""
        return Path(self._packages[game_id].__file__ or "").resolve().parent

    def box_picture(self, game_id: str, lang: str) -> Path | None:
        """The small picture of the game's board on its box, in `lang` (its package's ``box/board-<lang>.png``,
        made by ``python -m companion.kiosk.box_pictures``), if the package has one."""
        path = self.folder(game_id) / "box" / f"board-{lang}.png"
        return path if path.is_file() else None


def _rank(package: ModuleType) -> int:
    rank = getattr(package, "MENU_RANK", None)
    return int(rank if rank is not None else package.GAME.menu_rank)


@functools.cache
def registry() -> Games:
    """Every game by id, in menu order (`Game.menu_rank`, then id)."""
    return Games([found.name for found in pkgutil.iter_modules(__path__) if found.ispkg])


def box(games: Mapping[str, Game], game_id: str) -> GameBox:
    """What the box of `games[game_id]` says (players, options, rank), read without importing its rules when
    `games` is the registry; in any other mapping (a test's own game) the game itself."""
    return games.box(game_id) if isinstance(games, Games) else games[game_id]


def box_picture(games: Mapping[str, Game], game_id: str, lang: str) -> Path | None:
    """The picture of `games[game_id]`'s board on its box, when `games` is the registry (a test's own game
    in a plain dict has none)."""
    return games.box_picture(game_id, lang) if isinstance(games, Games) else None


def play_minutes(games: Mapping[str, Game], game_id: str) -> tuple[int, int] | None:
    """How long a game of `games[game_id]` takes, in minutes, as its box says (None: it does not say)."""
    return games.minutes(game_id) if isinstance(games, Games) else None


def folder(game_id: str) -> Path:
    """The folder of a game's package."""
    return registry().folder(game_id)


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
