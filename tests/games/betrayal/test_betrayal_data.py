"""The data files and the import format (docs/games/betrayal.md, "Data files"): the shipped sample set
is complete and consistent; a table's own set is checked the same way, and a bad file is refused with
the file, the key and the problem."""

from __future__ import annotations

import json
import shutil
import tomllib
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.core.gamedata import GameDataError
from companion.games.betrayal import data
from tests.kits.betrayal_table import GAME, Table


def own_set(tmp_path: Path) -> Path:
    target = tmp_path / "ours"
    shutil.copytree(data.bundled_dir(), target)
    return target


def test_the_sample_set_covers_every_omen_in_every_omen_room_and_six_players() -> None:
    d = data.load(data.bundled_dir())
    omen_rooms = {r.id for r in d.house.rooms if r.card == "omen"}
    assert {o.id for o in d.house.omens} == set(d.haunts.table)
    assert all(set(row) == omen_rooms for row in d.haunts.table.values())
    assert {h.rule.kind for h in d.haunts.haunts} == {"named", "revealer", "highest", "lowest", "left", "none"}
    assert len({c.card for c in d.characters.characters}) >= GAME.max_players
    assert {c.id for c in d.house.omens if c.follows} and {c.id for c in (*d.house.omens, *d.house.items) if c.ranged}


def test_a_table_brings_its_own_set_in_json_too(tmp_path: Path) -> None:
    ours = own_set(tmp_path)
    haunts = tomllib.loads((ours / "haunts.toml").read_text())
    haunts["haunts"][0]["goals"]["heroes"]["en"] = "Our own goal."
    (ours / "haunts.toml").unlink()
    (ours / "haunts.json").write_text(json.dumps(haunts), encoding="utf-8")
    t = Table(["mina", "otto", "tobias", "lin"], today="03-01", data=str(ours))
    assert data.of(t.state).haunt(1).goals.heroes.en == "Our own goal."


@pytest.mark.parametrize(("file", "old", "new", "problem"), [
    ("characters.toml", 'birthday = "03-14"', 'birthday = "3/14"', "must be MM-DD"),
    ("characters.toml", "start = 3 }", "start = 9 }", "past the track"),
    ("house.toml", 'id = "cellar_steps"\nfloors = ["basement"]\ndoors = 2\nstart = true',
     'id = "cellar_steps"\nfloors = ["basement"]\ndoors = 2', "each floor needs its start room"),
    ("house.toml", "doors = 3\nstart = true", "doors = 7\nstart = true", "rooms.0.doors"),
    ("haunts.toml", "lantern = { chapel = 1,", "lantern = { chapel = 9,", "not listed"),
    ("haunts.toml", "lantern = { chapel = 1, ", "lantern = { ", "lantern has no number for chapel"),
    ("haunts.toml", 'character = "otto"', 'character = "nobody"', "nobody, who is not a character"),
    ("haunts.toml", 'rule = { kind = "highest", trait = "sanity" }', 'rule = { kind = "highest" }', "needs `trait`"),
])
def test_a_bad_file_is_refused_naming_the_problem(tmp_path: Path, file: str, old: str, new: str, problem: str) -> None:
    ours = own_set(tmp_path)
    path = ours / file
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    with pytest.raises(GameDataError) as err:
        data.load(ours)
    assert problem in str(err.value) and str(ours) in str(err.value)


def test_a_missing_file_is_named(tmp_path: Path) -> None:
    ours = own_set(tmp_path)
    (ours / "house.toml").unlink()
    with pytest.raises(GameDataError, match=r"no house\.toml or house\.json"):
        data.load(ours)


def test_every_sample_name_is_in_the_games_catalog() -> None:
    from companion import i18n

    d = data.load(data.bundled_dir())
    ids = [f"kind.betrayal.character.{c.id}" for c in d.characters.characters]
    ids += [f"kind.betrayal.room.{r.id}" for r in d.house.rooms]
    ids += [f"kind.betrayal.card.{c.id}" for c in (*d.house.omens, *d.house.items, *d.house.events)]
    ids += [f"kind.betrayal.monster.{m.kind}" for h in d.haunts.haunts for m in h.monsters]
    ids += [f"kind.betrayal.haunt.{h.number}" for h in d.haunts.haunts]
    for lang in i18n.LANGUAGES:
        missing = [i for i in ids if i not in i18n.msgids(lang)]
        assert not missing, (lang, missing)
    assert i18n.translate("zh", "kind.betrayal.room.chapel") == "礼拜堂"


def test_a_bad_set_or_date_refuses_to_start_the_game(tmp_path: Path) -> None:
    from companion.core.rejection import Rejected

    ours = own_set(tmp_path)
    (ours / "haunts.toml").write_text("table = 1\n", encoding="utf-8")
    with pytest.raises(Rejected) as err:
        Table(["vera", "mina", "tobias"], data=str(ours))
    assert err.value.code == "reject.bad_argument" and err.value.params["field"] == "data"
    for day in ("02-30", "13-01", "3-14"):
        with pytest.raises(Rejected) as err:
            Table(["vera", "mina", "tobias"], today=day)
        assert err.value.params["field"] == "today"
    assert Table(["vera", "mina", "tobias"], today="02-29").turn == "ana"  # vera 03-14 comes first


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(junk=st.one_of(st.binary(max_size=300), st.text(max_size=300).map(str.encode)),
       which=st.sampled_from(["characters.toml", "house.toml", "haunts.toml"]))
def test_any_bytes_in_a_data_file_load_or_are_refused_cleanly(tmp_path: Path, junk: bytes, which: str) -> None:
    """Fuzz: a table's file is refused with GameDataError (file and problem named), never anything else."""
    ours = tmp_path / "fuzz"
    if not ours.exists():
        shutil.copytree(data.bundled_dir(), ours)
    (ours / which).write_bytes(junk)
    try:
        data.load(ours)
    except GameDataError as err:
        assert str(ours) in str(err)
    shutil.copy(data.bundled_dir() / which, ours / which)
