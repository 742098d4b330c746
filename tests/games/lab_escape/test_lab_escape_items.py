"""Escape the Lab: items (E3.3, E3.4), attacks (E4.1), the stuck player (E6.1) and the one USB key
(E6.2), with the FAQ's first two cases, worked out by hand. The table's dice are entered."""

from __future__ import annotations

from tests.kits.lab_escape_table import Table, assert_invariants


def acting(room: str, *cards: str, stamina: int = 1, items: list[str] | None = None) -> Table:
    return Table().lay(*cards).seat("ana", room=room, stamina=stamina, items=items or []).stage("act")


def test_E3_3_a_second_item_alike_stays_on_the_floor_and_the_next_to_enter_takes_it() -> None:
    t = acting("garden", "garden_corridor", stamina=3, items=["cat"])
    t.me("activate", roll=6)
    assert t.items("ana") == ["cat"] and t.public()["floor"] == {"garden": ["cat"]}
    assert "lab_escape.item_dropped" in t.said()
    assert_invariants(t.state)
    # Ben enters the garden and takes the cat lying there
    t.state["turn"]["stage"] = "move"
    t.walk("corridor", "garden")
    assert t.items("ben") == ["cat"] and t.public()["floor"] == {}
    assert_invariants(t.state)


def test_E3_3_someone_who_holds_one_already_leaves_the_floor_as_it_is() -> None:
    t = acting("hall", "garden_corridor", stamina=3)
    t.state["floor"] = {"corridor": ["cat", "weapon"]}
    t.state["supply"]["cat"] -= 1
    t.state["supply"]["weapon"] -= 1
    t.me("turn.end")
    t.seat("ben", items=["cat"]).stage("move")
    t.walk("corridor")
    assert t.items("ben") == ["cat", "weapon"] and t.public()["floor"] == {"corridor": ["cat"]}
    assert_invariants(t.state)


def test_E3_4_FAQ_2_the_last_item_places_a_weapon_that_the_taker_does_not_get() -> None:
    t = acting("darkroom", "telegraph_darkroom", stamina=5)
    t.state["supply"]["access_card"] = 1
    t.state["total"]["access_card"] = 1
    t.me("activate", roll=4)  # 9 >= 9: the last access card
    assert t.items("ana") == ["access_card"]
    assert t.public()["floor"] == {"darkroom": ["weapon"]}
    assert t.public()["supply"]["weapon"] == 5
    assert "lab_escape.weapon_placed" in t.said()
    # Ben enters the darkroom: the weapon is his (E3.4)
    t.state["turn"]["stage"] = "move"
    t.seat("ben", stamina=2).walk("telegraph", "darkroom")
    assert t.items("ben") == ["weapon"] and t.public()["floor"] == {}
    assert_invariants(t.state)


def test_E3_4_a_room_is_armed_once_and_both_key_rooms_when_the_last_key_goes() -> None:
    t = acting("operating", "operating_tool_room", stamina=6, items=["coffee"])
    t.state["supply"]["key"] = 1
    t.state["total"]["key"] = 1
    t.me("activate", roll=4)  # 4 + 1 + 6 = 11 >= 13 - 2
    assert t.public()["floor"] == {"operating": ["weapon"], "tool_room": ["weapon"]}
    assert t.public()["supply"]["weapon"] == 4
    assert sorted(t.state["armed"]) == ["operating", "tool_room"]


def test_E3_4_a_card_whose_items_ran_out_before_it_was_placed_arrives_armed() -> None:
    t = Table().show("dark_chamber_mechanism", "garden_corridor")
    t.state["supply"]["pipe_map"] = 0
    t.state["spent"]["pipe_map"] = 2  # (as if used: keeps the count whole for the check)
    t.me("card.place", card="dark_chamber_mechanism")
    assert t.public()["floor"] == {"dark_chamber": ["weapon"]}


def test_E3_4_without_weapons_left_in_the_supply_nothing_is_placed() -> None:
    t = acting("garden", "garden_corridor", stamina=3)
    t.state["supply"]["cat"] = 1
    t.state["total"]["cat"] = 1
    t.state["supply"]["weapon"] = 0
    t.state["total"]["weapon"] = 0
    t.me("activate", roll=6)
    assert t.public()["floor"] == {} and t.state["armed"] == ["garden"]
    assert_invariants(t.state)


def test_E3_3_cubes_are_used_up_circles_are_kept() -> None:
    t = acting("kitchen", "kitchen_pharmacy", "storage_game_room", stamina=2, items=["cat"])
    t.me("activate", choice="food")
    assert t.items("ana") == ["food"] and t.public()["spent"] == {"cat": 1}
    t.seat("chai", room="hall", stamina=1).seat("ana", room="hall", stamina=2)
    t.state["turn"] = {**t.state["turn"], "player": "ana", "stage": "move", "visited": ["hall"]}
    t.walk("game_room", "storage")  # the food's free step: the food stays
    assert t.items("ana") == ["food"] and t.stamina("ana") == 2


# -- attacks (E4.1) ----------------------------------------------------------------------------------------------


def attacking(a: int, b: int, a_items: list[str], b_items: list[str]) -> Table:
    t = acting("garden", "garden_corridor", stamina=a, items=a_items)
    return t.seat("ben", room="garden", stamina=b, items=b_items)


def test_E4_1_the_higher_stamina_adds_1_and_a_tie_goes_to_the_attacker() -> None:
    t = attacking(3, 2, ["weapon"], ["coffee"])
    t.me("attack", target="ben", take="coffee", roll=3, defense_roll=3)  # 3 + 1 against 3 + 1 coffee
    assert t.public()["last_attack"] == {"attacker": "ana", "defender": "ben", "item": "coffee", "rolls": [3, 3],
                                         "totals": [4, 4], "won": True}
    assert t.items("ana") == ["coffee"] and t.items("ben") == ["weapon"]
    assert t.turn == "ben"
    assert_invariants(t.state)


def test_E4_1_a_lost_attack_changes_nothing() -> None:
    t = attacking(2, 3, ["weapon"], ["key"])
    t.me("attack", target="ben", take="key", roll=4, defense_roll=4)  # 4 against 4 + 1 (higher stamina)
    assert t.public()["last_attack"]["won"] is False
    assert t.items("ana") == ["weapon"] and t.items("ben") == ["key"]
    assert (t.stamina("ana"), t.stamina("ben")) == (2, 3) and t.turn == "ben"


def test_E4_1_the_usb_key_holder_adds_1_when_defending() -> None:
    t = attacking(2, 2, ["weapon"], ["usb_key"])
    t.me("attack", target="ben", take="usb_key", roll=5, defense_roll=4)  # 5 against 4 + 1
    assert t.items("ana") == ["usb_key"]
    t = attacking(2, 2, ["weapon"], ["usb_key"])
    t.me("attack", target="ben", take="usb_key", roll=4, defense_roll=4)  # 4 against 4 + 1
    assert t.items("ben") == ["usb_key"]


def test_E4_1_coffee_adds_1_to_each_side() -> None:
    t = attacking(2, 2, ["coffee", "weapon"], ["key"])
    t.me("attack", target="ben", take="key", roll=3, defense_roll=4)  # 3 + 1 against 4
    assert t.items("ana") == ["coffee", "key"]


def test_E4_1_E3_3_a_defender_who_already_has_a_weapon_drops_the_second() -> None:
    t = attacking(4, 1, ["weapon"], ["key", "weapon"])
    t.me("attack", target="ben", take="key", roll=1, defense_roll=1)
    assert t.items("ana") == ["key"] and t.items("ben") == ["weapon"]
    assert t.public()["floor"] == {"garden": ["weapon"]}
    assert_invariants(t.state)


def test_E4_1_only_with_a_weapon_against_someone_here_for_something_they_hold() -> None:
    t = attacking(2, 2, [], ["key"])
    assert t.my_refusal("attack", target="ben", take="key", roll=1, defense_roll=1) == "reject.lab_escape_no_weapon"
    t = attacking(2, 2, ["weapon"], ["key"])
    assert t.my_refusal("attack", target="ben", take="food", roll=1, defense_roll=1) == \
        "reject.lab_escape_not_theirs"
    assert t.my_refusal("attack", target="chai", take="key", roll=1, defense_roll=1) == "reject.lab_escape_not_here"
    assert t.my_refusal("attack", target="ana", take="weapon", roll=1, defense_roll=1) == \
        "reject.lab_escape_not_here"
    assert t.my_refusal("attack", target="ben", take="key", roll=1) == "reject.lab_escape_roll_needed"


# -- stuck and the USB key (E6) ------------------------------------------------------------------------------------


def test_E6_1_FAQ_1_a_stuck_player_skips_the_turn_drops_everything_and_restarts_in_the_hall_at_1() -> None:
    t = Table().lay("garden_corridor").seat("ana", room="garden", stamina=4, items=["cat", "weapon"])
    t.show(*t.state["display"])
    t.me("stuck")
    assert t.person("ana") == {"room": "hall", "stamina": 1, "items": []}
    assert t.public()["floor"] == {"garden": ["cat", "weapon"]}
    assert t.turn == "ben" and t.public()["deck_count"] == 5  # the whole turn skipped: no card placed
    assert_invariants(t.state)
    t.state["turn"]["stage"] = "move"
    t.seat("ben", stamina=2).walk("corridor", "garden")
    assert t.items("ben") == ["cat", "weapon"]


def test_E6_1_not_after_a_step() -> None:
    t = Table().lay("garden_corridor").stage("move")
    t.walk("corridor")
    assert t.my_refusal("stuck") == "reject.lab_escape_already_moved"


def test_E6_2_there_is_one_usb_key() -> None:
    t = acting("archive", "archive_corridor", items=["key"])
    t.state["supply"]["usb_key"] = 0
    t.seat("ben", items=["usb_key"])
    assert t.my_refusal("activate") == "reject.lab_escape_supply_empty"


def test_E6_2_the_usb_key_picked_up_in_the_hall_does_not_win_until_the_holder_comes_back() -> None:
    t = Table().lay("garden_corridor").seat("ana", room="dining", stamina=3).stage("move")
    t.state["turn"]["visited"] = ["dining"]
    t.state["floor"] = {"hall": ["usb_key"]}
    t.state["supply"]["usb_key"] = 0
    t.walk("hall")
    assert t.items("ana") == ["usb_key"] and t.state["ended"] is False
