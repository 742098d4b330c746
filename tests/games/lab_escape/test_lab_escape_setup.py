"""Escape the Lab: the data file and the setup (E1.1-E1.3), worked out by hand from the rule text."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion import i18n
from companion.core.contract import Player, Setup
from companion.core.fold import initial
from companion.core.gamedata import GameDataError
from companion.core.rejection import Rejected
from companion.games.lab_escape import data
from tests.kits.lab_escape_table import GAME, Table, assert_invariants


def test_E1_1_the_default_set_is_nine_two_room_cards_with_the_hall_and_dining_card_first() -> None:
    lab = data.bundled()
    assert len(lab.cards) == 9 and all(len(c.rooms) == 2 for c in lab.cards)
    assert [r.id for r in lab.start.rooms] == ["hall", "dining"]
    kinds = {r.kind for c in lab.cards for r in c.rooms}
    assert kinds == set(data.KINDS)  # every room of the text is in the box (E5)


def test_E1_1_the_lab_starts_with_the_hall_card_two_display_cards_and_a_deck_of_six() -> None:
    t = Table(dice="referee")
    public = t.public()
    assert [c["card"] for c in public["lab"]] == ["hall_dining"]
    assert public["rooms"] == ["hall", "dining"]
    assert len(public["display"]) == 2 and public["deck_count"] == 6
    assert t.phase == "place" and t.turn == "ana"
    assert_invariants(t.state)


@pytest.mark.parametrize(("count", "last"), [(2, "ben"), (3, "chai"), (4, "dao")])
def test_E1_3_everyone_starts_in_the_hall_and_only_the_last_player_at_stamina_2(count: int, last: str) -> None:
    t = Table(players=count)
    for pid, p in t.public()["people"].items():
        assert p["room"] == "hall" and p["items"] == []
        assert p["stamina"] == (2 if pid == last else 1)


def test_E1_2_two_players_halve_every_count_but_the_red_and_white_cubes_rounded_down() -> None:
    full = Table(players=3).public()["supply"]
    half = Table(players=2).public()["supply"]
    box = {name: item.count for name, item in data.bundled().items.items()}
    assert full == box
    for item, n in box.items():
        kept = item in ("wrench", "marker", "usb_key")  # red and white cubes (E1.2); one USB key (E6.2)
        assert half[item] == (n if kept else n // 2)
    assert half["cat"] == 3 and half["food"] == 1 and half["weapon"] == 3 and half["key"] == 1


def test_E1_3_two_to_four_players() -> None:
    for names in (["ana"], ["ana", "ben", "chai", "dao", "eli"]):
        players = tuple(Player(p, p.title()) for p in names)
        with pytest.raises(Rejected) as caught:
            initial(GAME, Setup("lab_escape", players, {}, 1))
        assert caught.value.code == "reject.player_count"


def test_E1_1_a_physical_deck_waits_for_the_table_to_report_the_two_display_cards() -> None:
    t = Table(deck="physical")
    assert t.phase == "refill" and t.public()["display"] == [] and t.public()["deck_count"] == 8
    assert t.refused("table", "card.drawn", card="hall_dining") == "reject.lab_escape_not_in_deck"
    assert t.refused("table", "card.place", card="garden_corridor") == "reject.wrong_phase"
    t.send("table", "card.drawn", card="garden_corridor")
    assert t.phase == "refill"
    t.send("host", "card.drawn", card="archive_corridor")
    assert t.phase == "place"
    assert [c["card"] for c in t.public()["display"]] == ["garden_corridor", "archive_corridor"]


def test_a_data_file_with_a_problem_names_it_and_nothing_starts(tmp_path: Path) -> None:
    good = data.bundled().model_dump()
    text = (Path(data.__file__).parent / "data" / "lab.toml").read_text(encoding="utf-8")
    bad = tmp_path / "lab.toml"
    bad.write_text(text.replace('[items.usb_key]\nshape = "circle"\ncolour = "green"\ncount = 1',
                                '[items.usb_key]\nshape = "circle"\ncolour = "green"\ncount = 2'), encoding="utf-8")
    with pytest.raises(GameDataError, match="exactly one USB key"):
        data.load(bad)
    bad.write_text(text.replace('id = "tool_room", kind = "operating"', 'id = "tool_room", kind = "sauna"'),
                   encoding="utf-8")
    with pytest.raises(GameDataError, match="unknown kinds: sauna"):
        data.load(bad)
    bad.write_text(text.replace('count = 6\n', 'count = -1\n', 1), encoding="utf-8")
    with pytest.raises(GameDataError, match=r"items\.cat\.count"):
        data.load(bad)
    assert data.load(Path(data.__file__).parent / "data" / "lab.toml").model_dump() == good


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_every_room_card_and_item_has_its_name_in_each_language(lang: str) -> None:
    known = i18n.msgids(lang)
    lab = data.bundled()
    words = ([data.room_word(r) for r in lab.rooms()] + [data.card_word(c.id) for c in lab.cards]
             + [data.item_word(i) for i in lab.items])
    assert [w for w in words if w not in known] == []
