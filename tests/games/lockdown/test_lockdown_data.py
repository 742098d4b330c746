"""Lockdown's data files: the shipped map and items load; a bad map file is refused with the key and why."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.core.gamedata import GameDataError
from companion.games.lockdown import data

MAP = Path(data.__file__).parent / "data" / "map.toml"


def test_the_shipped_files_hold_the_texts_rooms_and_items() -> None:
    m = data.load_map()
    functions = {r.function: r.id for r in m.rooms if r.function}
    assert functions["helipad"] == "202" and functions["morgue"] == "B701" and len(functions) == 18
    spec = data.items()
    assert len(spec.kinds) == 21 and spec.stocks["junkyard"].limit == 5
    assert spec.stocks["warehouse"].cards == {"water": 5, "food": 5, "knife": 3, "alcohol": 2, "pill": 2,
                                              "adrenaline": 2, "pistol": 1, "gold": 1, "shotgun": 1}


@pytest.mark.parametrize(("old", "new", "why"), [
    ('["104", "204"]', '["104", "B204"]', "stairs: 104-B204 must join neighbouring floors"),
    ('["101", "102"]', '["101", "201"]', "doors: 101-201 joins two floors"),
    ('function = "morgue"', "", "no room has the function morgue"),
    ('id = "103"\nbuilding = "A"\nfloor = "A1"\nlevel = 1\ncolumn = 3\n',
     'id = "103"\nbuilding = "A"\nfloor = "A1"\nlevel = 1\ncolumn = 3\nfunction = "vault"\n',
     "two rooms have the same function"),
    ('chute_to = "B503"', 'chute_to = "C1"', "C1 (a helicopter route or the chute's end) is not in the map"),
])
def test_a_bad_map_is_refused_with_the_reason(tmp_path: Path, old: str, new: str, why: str) -> None:
    text = MAP.read_text(encoding="utf-8")
    assert old in text
    bad = tmp_path / "bad.toml"
    bad.write_text(text.replace(old, new, 1), encoding="utf-8")
    with pytest.raises(GameDataError, match=why.replace("(", r"\(").replace(")", r"\)")):
        data.load_map(bad)
