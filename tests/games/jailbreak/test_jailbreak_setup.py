"""Jailbreak setup (J1) and the data files, computed by hand from the rule text's table."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.core.contract import Player, Setup
from companion.core.fold import initial
from companion.core.gamedata import GameDataError
from companion.core.rejection import Rejected
from companion.games.jailbreak import data, deal
from tests.kits.jailbreak_table import GAME, Table, setup

# J1.1: the text's table: players -> (sheriffs, prisoners, equipment per sheriff)
TABLE = {3: (1, 2, [2]), 4: (1, 3, [2]), 5: (2, 3, [1, 1]), 6: (2, 4, [2, 1]), 7: (3, 4, [1, 1, 1]),
         8: (3, 5, [2, 1, 1])}


@pytest.mark.parametrize("n", sorted(TABLE))
def test_j1_1_sheriffs_prisoners_and_equipment_by_player_count(n: int) -> None:
    state = initial(GAME, setup(n, seed=n))  # sheriffs drawn at random
    sheriffs, prisoners, pieces = TABLE[n]
    roles = list(state["roles"].values())
    assert roles.count("sheriff") == sheriffs and roles.count("prisoner") == prisoners
    assert [len(state["equipment"][p]) for p in state["sheriffs"]] == pieces
    flat = [e for p in state["sheriffs"] for e in state["equipment"][p]]
    assert "badge" in flat and len(set(flat)) == len(flat)  # J1.1: the badge goes to a sheriff
    assert set(state["equipment"]) == set(state["sheriffs"])
    public = GAME.view_public(state)
    assert public["roles"] == state["roles"]  # J1.1: roles are public


def test_j1_1_the_default_split_gives_the_badge_to_the_first_sheriff() -> None:
    assert deal.default_equipment([2]) == [["badge", "pistol"]]
    assert deal.default_equipment([2, 1, 1]) == [["badge", "pistol"], ["handcuffs"], ["baton"]]
    assert deal.default_equipment([1, 1, 1]) == [["badge"], ["pistol"], ["handcuffs"]]


def test_j1_1_the_table_may_choose_sheriffs_and_equipment() -> None:
    t = Table(6, sheriffs=["dao", "ana"], equipment=[["handcuffs", "badge"], ["baton"]])
    assert t.s["sheriffs"] == ["dao", "ana"]
    assert t.s["equipment"] == {"dao": ["handcuffs", "badge"], "ana": ["baton"]}
    assert t.turn() == "dao"  # J1.4: the first sheriff starts


@pytest.mark.parametrize(("options", "code"), [
    ({"sheriffs": ["ana"]}, "reject.jailbreak_sheriff_count"),
    ({"sheriffs": ["ana", "ana"]}, "reject.jailbreak_sheriff_twice"),
    ({"sheriffs": ["ana", "zed"]}, "reject.not_a_player"),
    ({"equipment": [["badge", "pistol"], ["baton"]]}, "reject.jailbreak_equipment_count"),
    ({"equipment": [["pistol"], ["baton"]]}, "reject.jailbreak_badge_missing"),
    ({"equipment": [["badge"], ["badge"]]}, "reject.jailbreak_equipment_twice"),
])
def test_j1_1_a_setup_against_the_table_is_refused(options: dict[str, object], code: str) -> None:
    with pytest.raises(Rejected) as caught:
        initial(GAME, setup(5, **options))
    assert caught.value.code == code


@pytest.mark.parametrize("n", [2, 9])
def test_j1_1_three_to_eight_players(n: int) -> None:
    players = tuple(Player(f"p{i}", f"P{i}") for i in range(n))
    with pytest.raises(Rejected) as caught:
        initial(GAME, Setup("jailbreak", players, {}, 1))
    assert caught.value.code == "reject.player_count"
    assert dict(caught.value.params) == {"game": "jailbreak", "low": 3, "high": 8, "got": n}


def test_j1_2_each_prisoner_draws_a_different_character_shown_to_all() -> None:
    t = Table(8)
    chars = t.s["characters"]
    assert set(chars) == {p for p, r in t.s["roles"].items() if r == "prisoner"}
    assert len(set(chars.values())) == len(chars) == 5
    assert set(chars.values()) <= {c.id for c in data.characters().characters}
    assert GAME.view_public(t.s)["characters"] == chars


def test_j1_2_the_draw_follows_the_seed() -> None:
    draws = {tuple(sorted(initial(GAME, setup(8, seed=s, sheriffs=["ana", "ben", "chai"]))["characters"].items()))
             for s in range(12)}
    assert len(draws) > 1  # random...
    again = initial(GAME, setup(8, seed=3, sheriffs=["ana", "ben", "chai"]))["characters"]
    assert again == initial(GAME, setup(8, seed=3, sheriffs=["ana", "ben", "chai"]))["characters"]  # ...but replayable


def test_j1_3_everyone_in_scene_1_with_four_cards_and_the_deck_counted() -> None:
    t = Table(5)
    size = data.deck().size
    assert size == 100  # 8 knives, 12 bullets, 8 pipes, 6 ropes, 8 cigarettes, 8 cash, 6 vodka, 6 bibles, 38 keys
    assert all(p["scene"] == 1 for p in t.s["people"].values())
    # the first sheriff has already drawn 2 (J2.1): 4 + 2
    assert {pid: p["hand"] for pid, p in t.s["people"].items()} == {"ana": 6, "ben": 4, "chai": 4, "dao": 4, "eli": 4}
    assert t.s["deck"] == 100 - 5 * 4 - 2 == 78


def test_j1_4_turns_go_counter_clockwise_from_the_first_sheriff() -> None:
    t = Table(5)
    seen = [t.turn()]
    for _ in range(5):
        t.send(t.turn(), "turn.end")
        seen.append(t.turn())
    # seated clockwise ana, ben, chai, dao, eli: counter-clockwise from ana is eli, dao, chai, ben
    assert seen == ["ana", "eli", "dao", "chai", "ben", "ana"]


def test_data_files_are_checked_with_the_key_and_problem(tmp_path: Path) -> None:
    bad = tmp_path / "deck.toml"
    bad.write_text('[cards.knife]\nkind = "trade"\ncount = 3\n', encoding="utf-8")
    with pytest.raises(GameDataError, match="missing"):
        data.load_deck(bad)
    full = "".join(f'[cards.{c}]\nkind = "{"attack" if c in data.ATTACKS else "trade" if c in data.TRADES else "move"}"'
                   f"\ncount = 2\n" for c in data.CARDS)
    good = tmp_path / "good.toml"
    good.write_text(full, encoding="utf-8")
    assert data.load_deck(good).size == 18
    good.write_text(full.replace('[cards.knife]\nkind = "attack"', '[cards.knife]\nkind = "trade"'), encoding="utf-8")
    with pytest.raises(GameDataError, match="knife is a attack card"):
        data.load_deck(good)
    table = tmp_path / "table.toml"
    table.write_text("[players.3]\nsheriffs = 1\nprisoners = 1\nequipment = [2]\n", encoding="utf-8")
    with pytest.raises(GameDataError, match="3 players"):
        data.load_table(table)
    chars = tmp_path / "chars.toml"
    chars.write_text('[[characters]]\nid = "a"\n[[characters]]\nid = "a"\n', encoding="utf-8")
    with pytest.raises(GameDataError, match="twice"):
        data.load_characters(chars)


def test_the_shipped_table_is_the_texts_table() -> None:
    got = {n: (s.sheriffs, s.prisoners, s.equipment) for n, s in data.table().players.items()}
    assert got == TABLE
