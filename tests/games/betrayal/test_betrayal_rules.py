"""Explorers, turns, the house, cards and dice (B1, B2), by ruling id, computed by hand from the rulings
and the sample data (characters.toml: vera speed 4 might 3 sanity 3 knowledge 4, her might track starts
at 1; mina 4/3/4/4; tobias 4/3/4/3; lin 4/4/4/3)."""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import pytest

from companion.core.fold import copy_state
from companion.core.rejection import Rejected
from companion.games.betrayal import data, dice, house
from tests.kits.betrayal_table import GAME, Table, haunt_in

FOUR = ["vera", "mina", "tobias", "lin"]


def test_b1_1_traits_stop_at_their_lowest_value_before_the_haunt() -> None:
    t = Table(FOUR, today="03-01")
    t.do("host", "trait.adjust", player="ana", trait="might", steps=-10)
    assert t.value("ana", "might") == 1 and t.state["explorers"]["ana"]["alive"]
    assert t.state["explorers"]["ana"]["traits"]["might"] == 0
    t.do("host", "trait.adjust", player="ana", trait="might", steps=10)
    assert t.value("ana", "might") == 7  # the top of her track is a ceiling


def test_b1_1_after_the_haunt_the_skull_kills_and_the_cards_drop() -> None:
    t = Table(FOUR, today="03-01")
    haunt_in(t, "hound", "crypt")  # hound x crypt = 3 (highest sanity): ben is the traitor; ana holds the hound
    assert t.state["haunt"]["number"] == 3 and t.state["explorers"]["ana"]["cards"] == ["hound"]
    t.do("host", "trait.adjust", player="ana", trait="sanity", steps=-2)
    assert t.state["explorers"]["ana"]["alive"]  # 3 -> index 0: the lowest value, still alive
    t.do("host", "trait.adjust", player="ana", trait="sanity", steps=-1)
    ana = GAME.view_public(t.state)["explorers"]["ana"]
    assert ana["alive"] is False and ana["traits"]["sanity"]["skull"] is True and ana["cards"] == []
    assert t.state["rooms"]["crypt"]["pile"] == ["hound"]  # B4.3
    assert ("betrayal.died", {"player": "ana", "room": "kind.betrayal.room.crypt"}) in t.said()
    # B4.3: the hound follows the first character to arrive
    assert t.turn == "chai"
    t.do("chai", "move", to="cellar_steps").do("chai", "move", to="crypt")
    assert t.state["explorers"]["chai"]["cards"] == ["hound"] and t.state["rooms"]["crypt"]["pile"] == []
    assert "ana" not in GAME.view_public(t.state)["order"]


@pytest.mark.parametrize(("today", "first"), [
    ("03-14", "ana"),  # vera's birthday is today: it counts
    ("03-15", "dao"),  # vera's has just passed: lin (05-30) is next
    ("12-01", "chai"),  # across the new year: tobias (01-09)
])
def test_b1_2_the_next_birthday_starts(today: str, first: str) -> None:
    t = Table(FOUR, today=today)
    assert t.turn == first
    t.do(first, "turn.end")
    assert t.turn == {"ana": "ben", "dao": "ana", "chai": "dao"}[first]  # then to the left


def test_b1_2_equal_birthdays_go_by_seat(tmp_path: Path) -> None:
    """A table's own data (the `data` option): mina given vera's birthday; mina sits first."""
    shutil.copytree(data.bundled_dir(), tmp_path / "set")
    chars = tmp_path / "set" / "characters.toml"
    chars.write_text(chars.read_text().replace('birthday = "07-21"', 'birthday = "03-14"'))
    t = Table(["mina", "vera", "tobias"], today="03-01", data=str(tmp_path / "set"))
    assert t.turn == "ana"
    t2 = Table(["vera", "mina", "tobias"], today="03-01", data=str(tmp_path / "set"))
    assert t2.turn == "ana"
    assert t2.state["explorers"]["ana"]["character"] == "vera"


def test_b1_2_players_choose_their_explorers_one_per_card() -> None:
    from companion.core.contract import Player, Setup
    from companion.core.fold import initial, step
    from companion.core.inputs import Input

    s = Setup("betrayal", tuple(Player(p, p) for p in ("ana", "ben", "chai")), {"today": "06-01"}, 3)
    state = initial(GAME, s)
    assert GAME.phase(state) == "choosing"
    state = step(GAME, state, Input("explorer.choose", "player:ana", {"character": "vera"}, 1))
    with pytest.raises(Rejected) as err:
        step(GAME, state, Input("explorer.choose", "player:ben", {"character": "otto"}, 2))  # vera's other side
    assert err.value.code == "reject.betrayal_character_taken"
    offered = GAME.prompts(state, "player:ben")[0].fields[0].choices
    assert "otto" not in [c.value for c in offered] and "vera" not in [c.value for c in offered]
    state = step(GAME, state, Input("explorer.choose", "player:ben", {"character": "kaia"}, 3))
    state = step(GAME, state, Input("explorer.choose", "player:chai", {"character": "lin"}, 4))
    assert GAME.phase(state) == "turn" and GAME.current_player(state) == "ben"  # kaia 06-15, lin 05-30 passed


def test_b1_3_betrayal_dice_and_their_count() -> None:
    assert set(dice.FACES) == {0, 1, 2} and dice.FACES.count(0) == dice.FACES.count(1) == dice.FACES.count(2) == 2
    assert [dice.count(v) for v in (0, 3, 8, 9, 12)] == [0, 3, 8, 8, 8]
    rnd = random.Random(5)
    assert all(set(dice.roll(rnd, 8)) <= {0, 1, 2} for _ in range(50))
    t = Table(FOUR, today="03-01")
    assert t.refused("ana", "trait.roll", trait="speed", dice=[1, 1, 1]) == "reject.betrayal_dice_count"
    t.do("ana", "trait.roll", trait="speed", dice=[1, 2, 0, 2])
    assert t.state["last_roll"]["total"] == 5
    t.do("host", "trait.adjust", player="ana", trait="knowledge", steps=10)  # vera's knowledge tops at 8
    t.do("ana", "trait.roll", trait="knowledge")
    assert len(t.state["last_roll"]["dice"]) == 8


def test_b2_1_entering_a_room_costs_one_speed() -> None:
    t = Table(FOUR, today="03-01")  # vera: speed 4
    for room in ("upper_stair", "front_hall", "cellar_steps", "front_hall"):
        t.do("ana", "move", to=room)
    assert GAME.view_public(t.state)["turn"]["speed_left"] == 0
    assert t.refused("ana", "move", to="upper_stair") == "reject.betrayal_too_far"
    assert t.refused("ana", "explore") == "reject.betrayal_too_far"


def test_b2_1_after_the_haunt_enemies_make_leaving_dearer_but_one_room_is_always_allowed() -> None:
    t = haunt_in(Table(FOUR, today="03-01"), "lantern", "crypt")  # haunt 5: ben traitor, in the front hall
    assert t.turn == "chai"  # tobias, speed 4, in the front hall with ben
    t.do("chai", "move", to="upper_stair")  # 1 + 1 enemy
    assert GAME.view_public(t.state)["turn"]["speed_left"] == 2
    t.do("chai", "move", to="front_hall")  # nobody hinders in the upper stair
    assert t.refused("chai", "move", to="cellar_steps") == "reject.betrayal_too_far"  # 2 more, 1 left
    t.do("chai", "turn.end")
    t.do("ben", "monster.place", kind="puppet", room="front_hall").do("ben", "monster.place", kind="puppet",
                                                                      room="front_hall")
    t.do("host", "trait.adjust", player="dao", trait="speed", steps=-3)  # lin: speed 2 (index 0)
    assert t.value("dao", "speed") == 2
    t.do("dao", "move", to="upper_stair")  # costs 1 + traitor + 2 puppets = 4 > 2: the first room is allowed
    assert t.refused("dao", "move", to="front_hall") == "reject.betrayal_too_far"


def test_b2_1_exploring_lays_a_room_of_the_right_floor_and_a_card_ends_the_movement() -> None:
    t = Table(FOUR, today="03-01")
    t.do("ana", "explore")
    assert GAME.phase(t.state) == "room"
    assert t.refused("table", "room.reveal", room="attic") == "reject.betrayal_wrong_floor"
    assert t.refused("table", "room.reveal", room="front_hall") == "reject.betrayal_room_placed"
    assert t.refused("table", "room.reveal", room="nowhere") == "reject.betrayal_unknown_room"
    t.do("table", "room.reveal", room="kitchen")
    assert GAME.phase(t.state) == "card" and t.state["pending"]["card"] == "item"
    assert t.refused("table", "card.reveal", card="lantern") == "reject.betrayal_wrong_card"
    assert GAME.on_token(t.state, "omen", "lantern", "table") is None
    assert GAME.on_token(t.state, "item", "rope", "table") == ("card.reveal", {"card": "rope"})
    t.do("table", "card.reveal", card="rope")
    assert t.state["explorers"]["ana"]["cards"] == ["rope"] and t.state["explorers"]["ana"]["room"] == "kitchen"
    assert t.refused("ana", "move", to="front_hall") == "reject.betrayal_stopped"


def test_b2_1_exploring_never_closes_a_floor_while_another_tile_would_not() -> None:
    t = Table(FOUR, today="03-01")
    s = copy_state(t.state)
    house.lay(s, "upper_stair", "chapel")  # 3 doorways - 1 + 0 = 2 open on the upper floor
    house.lay(s, "upper_stair", "bathroom")  # 1 open
    assert house.floor_open(s, "upper") == 1
    with pytest.raises(Rejected) as err:
        house.lay(s, "upper_stair", "tower")  # would leave none while the attic (2 doors) would not
    assert err.value.code == "reject.betrayal_closes_floor"
    assert "tower" not in house.layable(s, "upper_stair") and "attic" in house.layable(s, "upper_stair")


def test_b2_1_a_voluntary_roll_once_a_turn_forced_rolls_as_often_as_they_come() -> None:
    t = Table(FOUR, today="03-01")
    t.do("ana", "trait.roll", trait="knowledge", voluntary=True, reason="vault")
    assert t.refused("ana", "trait.roll", trait="might", voluntary=True,
                     reason="vault") == "reject.betrayal_voluntary_once"
    t.do("ana", "trait.roll", trait="might", voluntary=True, reason="library")
    t.do("ana", "trait.roll", trait="sanity").do("ana", "trait.roll", trait="sanity")
    assert t.refused("ben", "trait.roll", trait="sanity", voluntary=True) == "reject.betrayal_voluntary_on_turn"
    t.do("ben", "trait.roll", trait="sanity")  # a forced roll outside one's turn (an event for everyone)
    t.do("ana", "turn.end").do("ben", "trait.roll", trait="knowledge", voluntary=True, reason="vault")


def test_b2_2_cards_handed_over_once_a_turn_in_the_same_room_never_the_followers() -> None:
    t = Table(FOUR, today="03-01")
    t.explore("kitchen").do("table", "card.reveal", card="rope").do("ana", "turn.end")
    t.do("ben", "move", to="kitchen").do("ben", "turn.end").do("chai", "turn.end").do("dao", "turn.end")
    assert t.refused("ana", "card.give", card="rope", to="dao") == "reject.betrayal_not_here"
    assert t.refused("ana", "card.give", card="candle", to="ben") == "reject.betrayal_not_holding"
    t.do("ana", "card.give", card="rope", to="ben")
    assert t.state["explorers"]["ben"]["cards"] == ["rope"]
    t.do("ana", "explore").do("table", "room.reveal", room="greenhouse").do("table", "card.reveal", card="candle")
    t.do("ana", "turn.end")
    t.do("ben", "card.use", card="rope")
    assert t.refused("ben", "card.drop", card="rope") == "reject.betrayal_card_used"
    assert t.refused("ben", "card.use", card="rope") == "reject.betrayal_card_used"
    t.do("ben", "turn.end").do("chai", "turn.end").do("dao", "turn.end")
    t.do("ana", "card.drop", card="candle")
    assert t.state["rooms"]["greenhouse"]["pile"] == ["candle"]
    t.do("ana", "card.take", card="candle")
    assert t.state["explorers"]["ana"]["cards"] == ["candle"]


def test_b2_2_followers_cannot_be_handed_over_or_dropped() -> None:
    t = Table(FOUR, today="03-01")
    t.omen("hound", "conservatory", [2] * 6)  # no haunt
    t.do("ben", "move", to="conservatory").do("ben", "turn.end").do("chai", "turn.end").do("dao", "turn.end")
    assert t.refused("ana", "card.give", card="hound", to="ben") == "reject.betrayal_card_follows"
    assert t.refused("ana", "card.drop", card="hound") == "reject.betrayal_card_follows"


def test_an_omen_or_item_in_play_cannot_be_drawn_again_but_an_event_can() -> None:
    t = Table(FOUR, today="03-01")
    t.explore("kitchen").do("table", "card.reveal", card="rope").do("ana", "turn.end")
    t.explore("library").do("table", "card.reveal", card="whisper").do("ben", "turn.end")
    assert t.state["last_event"] == {"card": "whisper", "player": "ben", "roll": "sanity"}
    t.explore("pantry")  # chai: an item room
    assert t.refused("table", "card.reveal", card="rope") == "reject.betrayal_card_in_play"
    t.do("table", "card.reveal", card="bell").do("chai", "turn.end")
    t.do("dao", "move", to="kitchen")  # the front hall's three doorways are used
    t.explore("parlour").do("table", "card.reveal", card="whisper")


def test_refusals_change_nothing_and_name_the_problem() -> None:
    t = Table(FOUR, today="03-01")
    assert t.refused("ben", "move", to="upper_stair") == "reject.not_your_turn"
    assert t.refused("ana", "move", to="kitchen") == "reject.betrayal_not_joined"
    assert t.refused("ana", "attack", target="ben") == "reject.betrayal_before_haunt"
    assert t.refused("ana", "haunt.roll") == "reject.wrong_phase"
    assert t.refused("ana", "trait.adjust", player="ben", trait="might", steps=1) == "reject.not_yours"
    assert t.refused("host", "haunt.end", winner="heroes") == "reject.betrayal_before_haunt"


def test_tokens_mean_a_room_or_card_only_while_the_table_reports_one() -> None:
    t = Table(FOUR, today="03-01")
    assert GAME.on_token(t.state, "room", "kitchen", "table") is None  # nobody is exploring
    t.do("ana", "explore")
    assert GAME.on_token(t.state, "room", "kitchen", "player:ana") == ("room.reveal", {"room": "kitchen"})
    assert GAME.on_token(t.state, "item", "rope", "table") is None
    assert t.refused("ben", "room.reveal", room="kitchen") == "reject.not_your_turn"
    t.do("ana", "room.reveal", room="chapel")  # the explorer may report it from the phone
    assert GAME.on_token(t.state, "omen", "mask", "table") == ("card.reveal", {"card": "mask"})
    assert GAME.on_token(t.state, "room", "kitchen", "table") is None
