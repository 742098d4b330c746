"""Escape the Lab: every room of the text (E5), each worked out by hand. Ana acts; the table's dice are
entered with the input (`roll`). Checks: d6 (+1 coffee) + stamina >= target, success pays 1 (E3.2)."""

from __future__ import annotations

from tests.kits.lab_escape_table import Table, assert_invariants


def acting(room: str, *cards: str, stamina: int = 1, items: list[str] | None = None) -> Table:
    """Ana has moved into `room` and may act; the lab holds `cards`."""
    t = Table().lay(*cards).seat("ana", room=room, stamina=stamina, items=items or []).stage("act")
    return t


# -- Hall, Dining, Corridor (entry) ---------------------------------------------------------------------------


def test_E5_E6_2_hall_entering_with_the_usb_key_wins_at_once() -> None:
    t = Table().lay("kitchen_pharmacy").seat("ana", room="kitchen", stamina=3, items=["usb_key"]).stage("move")
    t.state["turn"]["visited"] = ["kitchen"]
    t.walk("hall")
    assert t.state["ended"] is True
    assert t.public()["winner"] == "ana"
    assert t.state["finished"] == {"ranking": [["ana"], ["ben", "chai"]], "winners": ["ana"],
                                   "reason": "lab_escape.win"}
    assert t.refused("player:ana", "move.end") == "reject.game_over"


def test_E5_hall_without_the_usb_key_is_just_a_room() -> None:
    t = Table().lay("kitchen_pharmacy").seat("ana", room="kitchen", stamina=3, items=["key"]).stage("move")
    t.state["turn"]["visited"] = ["kitchen"]
    t.walk("hall").me("move.end")
    assert t.state["ended"] is False and t.phase == "act"
    assert t.my_refusal("activate") == "reject.lab_escape_nothing_to_activate"


def test_E5_dining_adds_1_on_entry_capped_at_6() -> None:
    t = Table().stage("move").seat("ana", stamina=2)
    t.walk("dining")
    assert t.stamina("ana") == 3
    t = Table().stage("move").seat("ana", stamina=6)
    t.walk("dining")
    assert t.stamina("ana") == 6
    assert t.me("move.end").my_refusal("activate") == "reject.lab_escape_nothing_to_activate"


# -- checks for items -----------------------------------------------------------------------------------------


def test_E5_garden_check_7_gives_a_cat_and_costs_1() -> None:
    t = acting("garden", "garden_corridor", stamina=3)
    assert t.my_refusal("activate") == "reject.lab_escape_roll_needed"
    t.me("activate", roll=4)  # 4 + 3 = 7
    assert t.items("ana") == ["cat"] and t.stamina("ana") == 2
    assert t.public()["last_check"] == {"player": "ana", "room": "garden", "target": 7, "roll": 4, "bonus": 0,
                                        "stamina": 3, "total": 7, "success": True, "rewarded": True}
    assert t.turn == "ben"


def test_E3_2_a_failed_check_changes_nothing() -> None:
    t = acting("garden", "garden_corridor", stamina=3)
    t.me("activate", roll=3)  # 6 < 7
    assert t.items("ana") == [] and t.stamina("ana") == 3
    assert t.public()["last_check"]["success"] is False and t.turn == "ben"


def test_E3_2_coffee_adds_1_to_the_roll() -> None:
    t = acting("garden", "garden_corridor", stamina=3, items=["coffee"])
    t.me("activate", roll=3)  # 3 + 1 + 3 = 7
    assert t.items("ana") == ["cat", "coffee"] and t.stamina("ana") == 2


def test_FAQ_3_E3_1_at_stamina_1_a_successful_check_gives_nothing() -> None:
    t = acting("darkroom", "telegraph_darkroom", stamina=1, items=["coffee"])
    t.me("activate", roll=6)  # 6 + 1 + 1 = 8 < 9: fails anyway; now one that succeeds
    t = acting("garden", "garden_corridor", stamina=1)
    t.me("activate", roll=6)  # 6 + 1 = 7 >= 7: success, but a player at 1 cannot pay
    check = t.public()["last_check"]
    assert check["success"] is True and check["rewarded"] is False
    assert t.items("ana") == [] and t.stamina("ana") == 1
    assert t.public()["supply"]["cat"] == 6


def test_E5_darkroom_check_9_gives_the_access_card() -> None:
    t = acting("darkroom", "telegraph_darkroom", stamina=4)
    t.me("activate", roll=4)  # 8 < 9
    assert t.items("ana") == []
    t = acting("darkroom", "telegraph_darkroom", stamina=4)
    t.me("activate", roll=5)  # 9
    assert t.items("ana") == ["access_card"] and t.stamina("ana") == 3


def test_E5_dark_chamber_check_8_gives_the_pipe_map() -> None:
    t = acting("dark_chamber", "dark_chamber_mechanism", stamina=3)
    t.me("activate", roll=4)  # 7 < 8
    assert t.items("ana") == []
    t = acting("dark_chamber", "dark_chamber_mechanism", stamina=3)
    t.me("activate", roll=5)
    assert t.items("ana") == ["pipe_map"] and t.stamina("ana") == 2


def test_E3_5_storage_target_7_or_9_when_only_one_of_the_chosen_item_is_left() -> None:
    t = acting("storage", "storage_game_room", stamina=4)
    assert t.my_refusal("activate", roll=3) == "reject.lab_escape_bad_choice"
    t.me("activate", choice="adrenaline", roll=3)  # 7 >= 7 with 4 left
    assert t.items("ana") == ["adrenaline"] and t.stamina("ana") == 3
    t = acting("storage", "storage_game_room", stamina=4)
    t.state["supply"]["wrench"] = 1
    t.me("activate", choice="wrench", roll=4)  # 8 < 9: the last wrench
    assert t.items("ana") == [] and t.public()["last_check"]["target"] == 9
    t = acting("storage", "storage_game_room", stamina=4)
    t.state["supply"]["wrench"] = 1
    t.me("activate", choice="wrench", roll=5)
    assert t.items("ana") == ["wrench"]


def test_E3_5_operating_and_tool_room_target_13_minus_2_per_item() -> None:
    for room in ("operating", "tool_room"):
        t = acting(room, "operating_tool_room", stamina=4, items=["cat", "coffee"])
        t.me("activate", roll=4)  # 4 + 1 coffee + 4 = 9 >= 13 - 2*2
        assert t.public()["last_check"]["target"] == 9
        assert t.items("ana") == ["cat", "coffee", "key"] and t.stamina("ana") == 3
    t = acting("operating", "operating_tool_room", stamina=6)
    t.me("activate", roll=6)  # 12 < 13 with no item
    assert t.items("ana") == []


def test_E5_a_room_with_nothing_left_to_give_is_refused_before_the_roll() -> None:
    t = acting("garden", "garden_corridor", stamina=3)
    t.state["supply"]["cat"] = 0
    assert t.my_refusal("activate", roll=6) == "reject.lab_escape_supply_empty"


# -- trades -----------------------------------------------------------------------------------------------------


def test_E5_kitchen_uses_up_a_cat_for_food_or_coffee() -> None:
    t = acting("kitchen", "kitchen_pharmacy", stamina=2)
    assert t.my_refusal("activate", choice="food") == "reject.lab_escape_item_missing"
    t = acting("kitchen", "kitchen_pharmacy", stamina=2, items=["cat"])
    assert t.my_refusal("activate", choice="cat") == "reject.lab_escape_bad_choice"
    t.me("activate", choice="coffee")
    assert t.items("ana") == ["coffee"] and t.stamina("ana") == 2
    assert t.public()["spent"] == {"cat": 1}  # a cube leaves the game (E3.3)
    assert_invariants(t.state)


def test_E5_archive_uses_up_a_key_for_the_usb_key() -> None:
    t = acting("archive", "archive_corridor", stamina=1, items=["key"])
    t.me("activate")
    assert t.items("ana") == ["usb_key"] and t.public()["spent"] == {"key": 1}
    assert t.public()["supply"]["usb_key"] == 0


# -- stamina rooms ---------------------------------------------------------------------------------------------


def test_E5_pharmacy_pays_1_then_turns_the_die_over() -> None:
    t = acting("pharmacy", "kitchen_pharmacy", stamina=2)
    t.me("activate")  # 2 -> 1 -> 6
    assert t.stamina("ana") == 6
    t = acting("pharmacy", "kitchen_pharmacy", stamina=5)
    t.me("activate")  # 5 -> 4 -> 3
    assert t.stamina("ana") == 3
    t = acting("pharmacy", "kitchen_pharmacy", stamina=1)
    assert t.my_refusal("activate") == "reject.lab_escape_cannot_pay"


def test_E5_game_room_name_n_roll_at_least_n_sets_n_plus_1_else_1() -> None:
    cases = [(2, 4, 4, [], 5), (2, 6, 6, [], 6), (4, 5, 2, [], 1), (2, 5, 4, ["coffee"], 6), (6, 1, 1, [], 2)]
    for stamina, number, roll, held, after in cases:
        t = acting("game_room", "storage_game_room", stamina=stamina, items=held)
        assert t.my_refusal("activate", roll=roll) == "reject.lab_escape_name_number"
        t.me("activate", number=number, roll=roll)
        assert t.stamina("ana") == after, (stamina, number, roll, held)


def test_E5_telegraph_adds_2_to_self_and_1_to_everyone_else() -> None:
    t = acting("telegraph", "telegraph_darkroom", stamina=5).seat("ben", stamina=1).seat("chai", room="dining",
                                                                                         stamina=6)
    t.me("activate")
    assert (t.stamina("ana"), t.stamina("ben"), t.stamina("chai")) == (6, 2, 6)


# -- moving things and people ------------------------------------------------------------------------------------


def test_E5_mechanism_room_moves_a_card_no_player_stands_on() -> None:
    t = acting("mechanism", "dark_chamber_mechanism", "garden_corridor", "kitchen_pharmacy", stamina=2)
    t.seat("ben", room="kitchen")
    assert t.my_refusal("activate", card="dark_chamber_mechanism") == "reject.lab_escape_card_occupied"
    assert t.my_refusal("activate", card="kitchen_pharmacy") == "reject.lab_escape_card_occupied"
    assert t.my_refusal("activate", card="archive_corridor") == "reject.lab_escape_card_occupied"
    t.me("activate", card="garden_corridor")
    moved = [a for a in t.state["announcements"] if a["msg"] == "lab_escape.card_moved"]
    assert moved[0]["params"] == {"player": "ana", "card": "kind.lab_escape.card.garden_corridor"}
    assert t.turn == "ben"


def test_E5_secret_passage_goes_to_another_players_room() -> None:
    t = acting("secret_passage", "passage_control", "garden_corridor", stamina=2)
    t.seat("ben", room="garden", stamina=3)
    assert t.my_refusal("activate", target="ana") == "reject.lab_escape_pick_player"
    t.me("activate", target="ben")
    assert t.person("ana")["room"] == "garden" and t.stamina("ben") == 3  # no move ended there: no +1


def test_E5_secret_passage_with_a_weapon_attacks_at_once() -> None:
    t = acting("secret_passage", "passage_control", "garden_corridor", stamina=2, items=["weapon"])
    t.seat("ben", room="garden", stamina=2, items=["coffee"])
    t.me("activate", target="ben", take="coffee", roll=4, defense_roll=3)  # 4 against 3 + 1 coffee
    assert t.items("ana") == ["coffee"] and t.items("ben") == ["weapon"]
    t = acting("secret_passage", "passage_control", "garden_corridor", stamina=2)
    t.seat("ben", room="garden", stamina=2, items=["coffee"])
    assert t.my_refusal("activate", target="ben", take="coffee", roll=4, defense_roll=3) == \
        "reject.lab_escape_no_weapon"


def test_E5_secret_passage_into_the_dining_room_is_an_entry() -> None:
    t = acting("secret_passage", "passage_control", stamina=2).seat("ben", room="dining")
    t.me("activate", target="ben")
    assert t.stamina("ana") == 3


def test_E5_control_room_pays_1_and_runs_another_rooms_effect() -> None:
    t = acting("control", "passage_control", "telegraph_darkroom", stamina=3).seat("ben", stamina=1)
    t.me("activate", room="telegraph")  # 3 - 1 = 2, +2 = 4; others +1
    assert (t.stamina("ana"), t.stamina("ben"), t.stamina("chai")) == (4, 2, 3)
    t = acting("control", "passage_control", "telegraph_darkroom", stamina=3)
    assert t.my_refusal("activate", room="control") == "reject.lab_escape_pick_room"
    assert t.my_refusal("activate") == "reject.lab_escape_pick_room"
    assert t.my_refusal("activate", room="garden") == "reject.lab_escape_room_not_in_play"
    assert t.my_refusal("activate", room="dining") == "reject.lab_escape_nothing_to_activate"
    t = acting("control", "passage_control", "telegraph_darkroom", stamina=1)
    assert t.my_refusal("activate", room="telegraph") == "reject.lab_escape_cannot_pay"


def test_E5_control_room_on_a_check_room_pays_1_then_checks_with_what_is_left() -> None:
    t = acting("control", "passage_control", "telegraph_darkroom", stamina=5)
    t.me("activate", room="darkroom", roll=5)  # 5 - 1 = 4; 5 + 4 = 9 >= 9; pays 1 more
    assert t.items("ana") == ["access_card"] and t.stamina("ana") == 3


def test_E2_4_the_wrench_runs_any_rooms_effect_and_is_used_up() -> None:
    t = acting("hall", "storage_game_room", stamina=2, items=["wrench"])
    t.me("item.use", item="wrench", room="game_room", number=3, roll=3)
    assert t.stamina("ana") == 4 and t.items("ana") == [] and t.public()["spent"] == {"wrench": 1}
    assert t.turn == "ana"  # the item is not the turn's action
    t.me("turn.end")
    assert t.turn == "ben"
