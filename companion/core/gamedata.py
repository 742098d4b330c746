"""Game data files (rooms, items, maps, stocks, decks): TOML or JSON, validated by a pydantic model.

Data lives in `companion/games/<id>/data/`; a table may load another file (a different map). A bad
file is reported with the file, the key and what is wrong, and nothing starts from it.
"""

from __future__ import annotations

import json
import tomllib
from pathlib import Path
from typing import TypeVar

from pydantic import BaseModel, ValidationError

M = TypeVar("M", bound=BaseModel)
GAMES_DIR = Path(__file__).resolve().parent.parent / "games"


class GameDataError(Exception):
    """A data file that could not be read or does not fit its model."""


def bundled(game_id: str, name: str) -> Path:
    """The path of a data file shipped with a game."""
    return GAMES_DIR / game_id / "data" / name


def load(path: Path, model: type[M]) -> M:
    """Read `path` (.toml or .json) and validate it; every problem names the file and the key."""
    try:
        raw = path.read_bytes()
    except OSError as err:
        raise GameDataError(f"{path}: cannot read it ({err.strerror})") from None
    try:
        if path.suffix == ".toml":
            data = tomllib.loads(raw.decode("utf-8"))
        elif path.suffix == ".json":
            data = json.loads(raw)
        else:
            raise GameDataError(f"{path}: a data file must end in .toml or .json")
    except UnicodeDecodeError:
        raise GameDataError(f"{path}: not UTF-8 text") from None
    except (tomllib.TOMLDecodeError, json.JSONDecodeError) as err:
        raise GameDataError(f"{path}: not valid {path.suffix[1:].upper()}: {err}") from None
    try:
        return model.model_validate(data)
    except ValidationError as err:
        problems = [
            f"{path}: {'.'.join(str(p) for p in e['loc']) or '(top level)'}: {e['msg']}"
            + (f" (got {e['input']!r})" if not isinstance(e["input"], dict | list) else "")
            for e in err.errors()
        ]
        raise GameDataError("\n".join(problems)) from None
