"""The attract loop's reel: which games it shows, and each game's part of it (issue 30).

Each game on the reel plays a stretch of one of its recorded demo games (its package's ``demo_games/``) on
the demo's own in-memory referee (`Demo`, never the table's): the stretch that leads up to the game's main
moment (`Game.moments`, the moment the game is named after: Lockdown's poison-floor vote, Room 25's
slides, the Jailbreak deck, Betrayal's haunt roll, the lab's key), the inputs before it played unseen when
the game's turn comes. Then the next game. A game without demos shows the toolkit's recorded game.

Which games: ``display.attract`` (docs/config.md): "all", "this game" (the table's own), a list of game
ids, or true ("auto": the table's own game, or all of them while the table is on the toolkit, the
game it starts on when nobody chose one).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from companion.core.contract import Game
from companion.games import demo_script, folder
from companion.kiosk.demo import DEFAULT_SCRIPT, Demo

SHOWN_STEPS = 10  # inputs shown of each game's recorded game (at the screen's pace: about half a minute)
WHOLE_GAME_STEPS = 20  # a recorded game without a main moment this short is shown whole (the toolkit's)


@dataclass(frozen=True)
class Stretch:
    """A game's part of the reel: a recorded game, the inputs played unseen first, then the ones shown."""

    game: str
    lines: tuple[str, ...]
    skip: int
    shown: int


def chosen_games(games: Mapping[str, Game], mode: str | bool | Sequence[str], table_game: str) -> list[str]:
    """The ids the reel shows, in menu order. Unknown ids in a list are left out (none left: all games)."""
    every = list(games)
    if mode == "all":
        return every
    if mode == "this game":
        return [table_game] if table_game in games else every
    if isinstance(mode, str | bool):  # "auto" or true
        return every if table_game in ("toolkit", "") or table_game not in games else [table_game]
    picked = [g for g in every if g in set(mode)]
    return picked or every


def stretch(games: Mapping[str, Game], game_id: str, script: Sequence[str] | None = None) -> Stretch:
    """The stretch of `game_id`'s recorded game the reel shows: up to its main moment (`Game.moments`)."""
    if script is not None:
        return Stretch(game_id, tuple(script), 0, len(script))
    moment = games[game_id].moments.get(game_id) if game_id in games else None
    if moment is not None:
        path = folder(game_id) / "demo_games" / moment[0]
        lines = tuple(path.read_text(encoding="utf-8").splitlines())
        return Stretch(game_id, lines, max(0, moment[1] - SHOWN_STEPS + 2), SHOWN_STEPS)
    found = demo_script(game_id) if game_id in games else None
    lines = tuple(found if found is not None else Path(DEFAULT_SCRIPT).read_text(encoding="utf-8").splitlines())
    inputs = sum(1 for line in lines[1:] if line.strip() and not line.lstrip().startswith("#"))
    return Stretch(game_id, lines, 0, inputs if inputs <= WHOLE_GAME_STEPS else SHOWN_STEPS)


class Reel:
    """The games in turn, forever: `advance` plays the next input shown, or moves to the next game."""

    def __init__(self, games: Mapping[str, Game], ids: Sequence[str], script: Sequence[str] | None = None) -> None:
        self.games = games
        self.ids = list(ids) or ["toolkit"]
        self.script = script  # a recorded game given for the table's own game (tests, `companion demo`)
        self.index = -1
        self.demo: Demo | None = None
        self.shown = 0
        self.next_game()

    @property
    def game(self) -> str:
        return self.ids[self.index]

    def _stretch(self, game_id: str) -> Stretch:
        if self.script is not None and len(self.ids) == 1:
            return stretch(self.games, game_id, self.script)
        return stretch(self.games, game_id)

    def next_game(self) -> None:
        """The next game's stretch, its unseen inputs played."""
        self.index = (self.index + 1) % len(self.ids)
        part = self._stretch(self.game)
        if self.demo is not None:
            self.demo.close()
        self.demo = Demo(self.games, list(part.lines))
        for _ in range(min(part.skip, len(self.demo.steps))):
            self.demo.advance()
        self.shown = 0
        self.limit = min(part.shown, len(self.demo.steps) - self.demo.index)

    def advance(self) -> bool:
        """One step of the reel; True when it moved on to the next game."""
        assert self.demo is not None
        if self.shown >= self.limit:
            self.next_game()
            return True
        self.demo.advance()
        self.shown += 1
        return False

    def close(self) -> None:
        if self.demo is not None:
            self.demo.close()
