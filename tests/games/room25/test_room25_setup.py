"""Room 25 setup (R1): the data file, the deal of the complex, the role cards, the player counts, and
the names of every room, action, role and mode in the three catalogs."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from companion import i18n
from companion.core.fold import initial
from companion.core.gamedata import GameDataError
from companion.core.rejection import Rejected
from companion.games.room25 import data, grid
from tests.kits.room25_bot import GAME, setup

MODES = {"suspicion": (4, 10), "competition": (2, 10), "team": (4, 10), "cooperation": (3, 8), "solo": (1, 8)}


def test_the_bundled_tile_set_is_valid_and_every_mode_deals_23_rooms() -> None:
    tiles = data.bundled()
    for mode in data.MODES:
        deck = tiles.deck(mode)
        assert len(deck) == 23 and "exit" not in deck and "start" not in deck
        assert deck.count("warp") == 2
        assert set(deck) == set(tiles.kinds)  # every room of the text is in every mode


@pytest.mark.parametrize(
    ("change", "problem"),
    [
        (("empty = 6, passage", "empty = 5, passage"), "add up to 23"),
        (("warp = 2, camera = 1, control = 1, prison = 1, dark = 2, cold = 2, vortex = 1, flooded = 1, trap = 1, "
          "acid = 1, smoke = 1, death = 2 }\n\n[modes.suspicion.roles]",
          "warp = 1, camera = 2, control = 1, prison = 1, dark = 2, cold = 2, vortex = 1, flooded = 1, trap = 1, "
          "acid = 1, smoke = 1, death = 2 }\n\n[modes.suspicion.roles]"), "pair"),
        (("smoke = \"high\"", "smoke = \"lethal\""), "kinds.smoke"),
        (("4 = { guard = 1, prisoner = 3 }", "4 = { guard = 1, prisoner = 2 }"), "at least 4 role cards"),
    ],
)
def test_a_bad_tile_file_names_what_is_wrong(tmp_path: Path, change: tuple[str, str], problem: str) -> None:
    source = (Path(data.__file__).parent / "data" / "tiles.toml").read_text(encoding="utf-8")
    assert change[0] in source
    bad = tmp_path / "tiles.toml"
    bad.write_text(source.replace(change[0], change[1], 1), encoding="utf-8")
    with pytest.raises(GameDataError) as caught:
        data.load(bad)
    assert str(bad) in str(caught.value) and problem in str(caught.value)


@pytest.mark.parametrize("seed", range(40))
def test_R1_1_the_referee_deals_the_start_in_the_centre_and_the_exit_among_the_outer_twelve(seed: int) -> None:
    state = initial(GAME, setup("suspicion", 4, seed))
    kinds = {t: state["tiles"][t]["kind"] for t in range(25)}
    assert kinds[grid.START] == "start" and state["tiles"][grid.START]["open"]
    exits = [t for t, k in kinds.items() if k == "exit"]
    assert len(exits) == 1 and grid.group(exits[0]) == "outer"
    dealt = Counter(k for t, k in kinds.items() if k not in ("start", "exit"))
    assert dealt == Counter(data.bundled().deck("suspicion"))
    assert all(not state["tiles"][t]["open"] for t in range(25) if t != grid.START)


def test_R1_1_the_deal_follows_the_seed_and_the_exit_can_be_in_any_outer_cell() -> None:
    def exit_of(seed: int) -> int:
        state = initial(GAME, setup("cooperation", 3, seed))
        return next(t for t in range(25) if state["tiles"][t]["kind"] == "exit")

    assert exit_of(5) == exit_of(5)
    assert {exit_of(s) for s in range(300)} == {grid.tile_id(c) for c in grid.OUTER}


def test_R1_1_with_physical_tiles_the_referee_knows_no_room_but_the_start() -> None:
    state = initial(GAME, setup("suspicion", 4, 1, tiles="physical"))
    assert [t["kind"] for t in state["tiles"]].count(None) == 24


@pytest.mark.parametrize("mode", list(MODES))
def test_R1_2_everyone_starts_in_the_start_room_and_the_turn_track_has_its_mode_length(mode: str) -> None:
    count, turns = MODES[mode]
    public = GAME.view_public(initial(GAME, setup(mode, count, 3)))
    assert {p["cell"] == [2, 2] for p in public["people"].values()} == {True}
    assert (public["turn"], public["last_turn"], public["turns_left"]) == (1, turns, turns)


def guards(count: int, seed: int) -> int:
    state = initial(GAME, setup("suspicion", count, seed))
    return list(state["deal"]["assigned"].values()).count("guard")


def test_R1_3_four_players_deal_one_guard_and_three_prisoners() -> None:
    assert {guards(4, s) for s in range(50)} == {1}


def test_R1_3_five_players_deal_from_two_guards_and_four_prisoners_so_one_or_two_guards() -> None:
    assert {guards(5, s) for s in range(80)} == {1, 2}
    assert {guards(6, s) for s in range(30)} == {2}


def test_R1_3_the_card_mix_is_public_and_each_player_sees_only_their_own_card() -> None:
    state = initial(GAME, setup("suspicion", 5, 9))
    public = GAME.view_public(state)
    assert public["roles"] == {"pool": ["guard", "guard", "prisoner", "prisoner", "prisoner", "prisoner"],
                               "revealed": {}}
    for pid, role in state["deal"]["assigned"].items():
        assert GAME.view_player(state, pid)["role"] == role


@pytest.mark.parametrize(
    ("mode", "count"),
    [("suspicion", 3), ("competition", 4), ("team", 5), ("team", 3), ("cooperation", 1),
     ("solo", 2)],
)
def test_R1_4_each_mode_refuses_a_wrong_number_of_players(mode: str, count: int) -> None:
    with pytest.raises(Rejected) as caught:
        initial(GAME, setup(mode, count, 1))
    assert caught.value.code == "reject.room25_players"
    assert caught.value.params["got"] == count


def test_R1_4_at_most_six_play() -> None:
    assert (GAME.min_players, GAME.max_players) == (1, 6)


def test_R1_4_teams_must_be_two_equal_teams_of_the_players() -> None:
    with pytest.raises(Rejected) as caught:
        initial(GAME, setup("team", 4, 1, teams=[["ana", "ben", "chai"], ["dao"]]))
    assert caught.value.code == "reject.room25_teams"
    state = initial(GAME, setup("team", 6, 1, teams=[["ana", "ben", "chai"], ["dao", "eli", "fon"]]))
    assert state["teams"] == [["ana", "ben", "chai"], ["dao", "eli", "fon"]]


WORDS = (
    [f"kind.room25.room.{k}" for k in data.all_kinds()]
    + [f"kind.room25.action.{a}" for a in ("look", "move", "push", "control")]
    + [f"kind.room25.role.{r}" for r in data.ROLES]
    + [f"kind.room25.mode.{m}" for m in data.MODES]
    + [f"kind.room25.dir.{d}" for d in grid.DIRECTIONS]
    + ["kind.room25.line.row", "kind.room25.line.col", "game.room25.title", "game.room25.summary"]
    + ["room25.win.prisoners", "room25.win.guards", "room25.win.escaped", "room25.win.last_alive",
       "room25.win.nearest", "room25.win.team", "room25.win.cooperation", "room25.lose.cooperation",
       "room25.lose.everyone"]
    + [f"room25.prompt.room_{r}" for r in ("passage", "camera", "control", "smoke")]
    + [f"room25.prompt.{a}" for a in ("look", "move")]
)


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_every_room_action_role_mode_and_ending_has_its_name_in_each_language(lang: str) -> None:
    missing = [w for w in WORDS if w not in i18n.msgids(lang)]
    assert not missing
    script = {"zh": r"[\u4e00-\u9fff]", "th": r"[\u0e00-\u0e7f]", "en": r"^[^\u0e00-\u0e7f\u4e00-\u9fff]+$"}[lang]
    assert all(re.search(script, i18n.translate(lang, w)) for w in WORDS)


def test_a_message_shows_a_room_in_the_players_language() -> None:
    params = {"room": "kind.room25.room.flooded", "row": 1, "col": 5}
    assert i18n.translate("en", "room25.room_revealed", params) == "Row 1, column 5 is the flooded room."
    assert "ห้องน้ำท่วม" in i18n.translate("th", "room25.room_revealed", params)
    assert "淹水房间" in i18n.translate("zh", "room25.room_revealed", params)
