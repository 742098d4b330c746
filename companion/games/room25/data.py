"""The game's data file: the room kinds, and per mode its turns, player counts, rooms and role cards.

Validated with `companion.core.gamedata`: a bad file names the key and the problem, and nothing starts.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from companion.core import gamedata
from companion.games.room25.options import Mode

GAME_ID = "room25"
START = "start"
EXIT = "exit"
MODES = ("suspicion", "competition", "team", "cooperation", "solo")
ROLES = ("guard", "prisoner")
#: Rooms dealt besides the start room and the exit (R1.1): 25 cells minus those two.
DEALT = 23
Level = Literal["safe", "low", "high"]


class ModeSpec(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    turns: Literal[8, 10]
    players: list[int] = Field(min_length=1)
    tiles: dict[str, int]
    roles: dict[int, dict[Literal["guard", "prisoner"], int]] = Field(default_factory=dict)

    @model_validator(mode="after")
    def _counts(self) -> ModeSpec:
        if sum(self.tiles.values()) != DEALT:
            raise ValueError(f"the rooms must add up to {DEALT}, not {sum(self.tiles.values())}")
        if any(n < 0 for n in self.tiles.values()):
            raise ValueError("a room count cannot be negative")
        if self.tiles.get("warp", 0) not in (0, 2):
            raise ValueError("warp rooms come in a pair (0 or 2)")
        for count, cards in self.roles.items():
            if count not in self.players:
                raise ValueError(f"role cards for {count} players, who cannot play this mode")
            if sum(cards.values()) < count:
                raise ValueError(f"{count} players need at least {count} role cards")
        return self


class TileSet(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    kinds: dict[str, Level]
    modes: dict[Mode, ModeSpec]

    @model_validator(mode="after")
    def _known(self) -> TileSet:
        if START in self.kinds or EXIT in self.kinds:
            raise ValueError("the start room and the exit are not dealt; do not list them under kinds")
        if set(self.modes) != set(MODES):
            raise ValueError(f"every mode needs its entry: {', '.join(MODES)}")
        for name, spec in self.modes.items():
            unknown = set(spec.tiles) - set(self.kinds)
            if unknown:
                raise ValueError(f"mode {name} lists unknown rooms: {', '.join(sorted(unknown))}")
        if not self.modes["suspicion"].roles:
            raise ValueError("suspicion needs its role cards")
        return self

    def deck(self, mode: str) -> list[str]:
        """The 23 dealt rooms of `mode`, in a fixed order (kinds in file order)."""
        spec = self.modes[mode]  # type: ignore[index]
        return [kind for kind in self.kinds for _ in range(spec.tiles.get(kind, 0))]


def load(path: Path) -> TileSet:
    return gamedata.load(path, TileSet)


@functools.cache
def bundled() -> TileSet:
    """The shipped tile set (read and checked once)."""
    return load(gamedata.bundled(GAME_ID, "tiles.toml"))


def all_kinds() -> tuple[str, ...]:
    """Every room kind that can be on the board, start and exit included."""
    return (START, EXIT, *bundled().kinds)
