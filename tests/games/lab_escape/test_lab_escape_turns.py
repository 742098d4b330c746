"""Escape the Lab: the turn (E2.1-E2.4) and paying (E3.1), worked out by hand from the rule text.

Cards of the default set: hall_dining, garden_corridor, kitchen_pharmacy, storage_game_room,
telegraph_darkroom, dark_chamber_mechanism, operating_tool_room, passage_control, archive_corridor.
Vents: garden, pharmacy, storage, mechanism, control, archive. The table's dice (entered) throughout.
"""

from __future__ import annotations

from tests.kits.lab_escape_table import Table, assert_invariants


def moving(*cards: str, **seat: int) -> Table:
    """Ana's turn at the move, with `cards` in the lab; stamina by player name."""
    t = Table().lay(*cards).stage("move")
    for pid, stamina in seat.items():
        t.seat(pid, stamina=stamina)
    return t


def test_E2_1_the_player_places_a_display_card_and_the_display_is_refilled_from_the_deck() -> None:
    t = Table().show("garden_corridor", "kitchen_pharmacy")
    assert t.refused("player:ben", "card.place", card="garden_corridor") == "reject.not_your_turn"
    assert t.my_refusal("card.place", card="archive_corridor") == "reject.lab_escape_not_displayed"
    assert t.my_refusal("step", room="dining") == "reject.wrong_phase"
    t.me("card.place", card="garden_corridor")
    public = t.public()
    assert [c["card"] for c in public["lab"]] == ["hall_dining", "garden_corridor"]
    assert public["rooms"] == ["hall", "dining", "garden", "corridor"]
    assert len(public["display"]) == 2 and public["display"][0]["card"] == "kitchen_pharmacy"
    assert public["deck_count"] == 5
    assert t.phase == "move"
    assert_invariants(t.state)


def test_E2_1_with_no_display_card_the_turn_starts_at_the_move() -> None:
    t = moving("garden_corridor")
    t.state["deck"], t.state["display"] = [], []
    t.walk("dining").me("move.end").me("turn.end")
    assert t.turn == "ben" and t.phase == "move"


def test_E2_1_an_empty_deck_leaves_the_display_short() -> None:
    t = Table().show("garden_corridor", "kitchen_pharmacy")
    t.state["lab"] += t.state["deck"]
    t.state["deck"] = []
    t.me("card.place", card="kitchen_pharmacy")
    assert [c["card"] for c in t.public()["display"]] == ["garden_corridor"]
    assert t.phase == "move"


def test_E2_2_the_first_step_is_free_and_each_more_step_costs_1_stamina() -> None:
    t = moving("storage_game_room", "telegraph_darkroom", ana=3)
    t.walk("game_room")
    assert t.stamina("ana") == 3
    t.walk("storage")
    assert t.stamina("ana") == 2
    t.walk("telegraph")
    assert t.stamina("ana") == 1
    # E3.1: at 1 nothing more can be paid
    assert t.my_refusal("step", room="darkroom") == "reject.lab_escape_cannot_pay"


def test_E2_2_never_into_a_room_passed_this_turn_the_starting_room_included() -> None:
    t = moving("storage_game_room", ana=4)
    assert t.my_refusal("step", room="hall") == "reject.lab_escape_visited"
    t.walk("game_room")
    assert t.my_refusal("step", room="game_room") == "reject.lab_escape_visited"
    assert t.my_refusal("step", room="kitchen") == "reject.lab_escape_room_not_in_play"
    t.walk("storage")
    assert t.public()["turn"]["visited"] == ["hall", "game_room", "storage"]


def test_E2_2_at_least_one_step() -> None:
    t = moving()
    assert t.my_refusal("move.end") == "reject.lab_escape_must_move"
    assert t.my_refusal("turn.end") == "reject.wrong_phase"


def test_E2_2_the_corridor_gives_a_free_move_on_entry_without_ending_the_move() -> None:
    t = moving("garden_corridor", "telegraph_darkroom", ana=1)
    t.walk("corridor")
    assert t.public()["turn"]["free_moves"] == 1
    t.walk("garden")  # the Corridor's free move
    assert t.stamina("ana") == 1
    assert t.my_refusal("step", room="telegraph") == "reject.lab_escape_cannot_pay"


def test_E2_2_food_gives_one_free_step_each_turn() -> None:
    t = moving("storage_game_room", "telegraph_darkroom", ana=2)
    t.seat("ana", items=["food"])
    t.walk("game_room", "storage")
    assert t.stamina("ana") == 2 and t.public()["turn"]["food_used"] is True
    t.walk("telegraph")
    assert t.stamina("ana") == 1


def test_E2_2_a_vent_step_costs_2_more_and_links_only_vent_rooms() -> None:
    t = moving("garden_corridor", "storage_game_room", "kitchen_pharmacy", ana=6)
    t.seat("ana", room="garden")
    assert t.my_refusal("step", room="game_room", vent=True) == "reject.lab_escape_no_vent"
    t.me("step", room="storage", vent=True)  # the first step, through the vents: 0 + 2
    assert t.stamina("ana") == 4
    t.me("step", room="pharmacy", vent=True)  # a second step through the vents: 1 + 2
    assert t.stamina("ana") == 1 and t.person("ana")["room"] == "pharmacy"


def test_E2_2_a_vent_step_the_player_cannot_afford_is_refused() -> None:
    t = moving("garden_corridor", "storage_game_room", ana=2)
    t.seat("ana", room="garden")
    assert t.my_refusal("step", room="storage", vent=True) == "reject.lab_escape_cannot_pay"


def test_E2_2_the_pipe_map_makes_vents_free() -> None:
    t = moving("garden_corridor", "storage_game_room", ana=1)
    t.seat("ana", room="garden", items=["pipe_map"])
    t.me("step", room="storage", vent=True)
    assert t.stamina("ana") == 1 and t.person("ana")["room"] == "storage"


def test_E2_3_every_other_player_where_the_move_ends_gains_1() -> None:
    t = moving("storage_game_room", ana=1)
    t.seat("ben", room="game_room", stamina=1).seat("chai", room="game_room", stamina=6)
    t.walk("game_room")
    assert t.stamina("ben") == 1  # passing or arriving is not enough: only where the move ends
    t.me("move.end")
    assert (t.stamina("ana"), t.stamina("ben"), t.stamina("chai")) == (1, 2, 6)  # capped at 6 (E5)
    assert t.phase == "act"


def test_E2_4_then_one_of_activate_attack_or_nothing_and_the_next_player_plays() -> None:
    t = moving("telegraph_darkroom", ana=1)
    t.walk("telegraph").me("move.end").me("activate")
    assert t.turn == "ben" and t.phase == "place"
    assert t.refused("player:ana", "card.place", card=t.state["display"][0]) == "reject.not_your_turn"
    assert t.stamina("ana") == 3


def test_E2_4_play_goes_clockwise_round_the_order() -> None:
    t = Table().lay("telegraph_darkroom", "storage_game_room")
    seen = []
    for _ in range(4):
        seen.append(t.turn)
        t.state["turn"]["stage"] = "move"
        t.walk("dining" if t.person(t.turn)["room"] != "dining" else "hall").me("move.end").me("turn.end")
    assert seen == ["ana", "ben", "chai", "ana"]
    assert t.public()["turn"]["number"] == 5


def test_E2_4_adrenaline_before_the_move_or_after_it_never_in_the_middle() -> None:
    t = moving("storage_game_room", ana=2)
    t.seat("ana", items=["adrenaline", "wrench"])
    t.me("item.use", item="adrenaline")
    assert t.stamina("ana") == 5 and t.items("ana") == ["wrench"]
    t.walk("game_room")
    assert t.my_refusal("item.use", item="wrench", room="game_room", number=2, roll=6) == \
        "reject.lab_escape_not_mid_move"
    t.me("move.end")
    t.me("item.use", item="wrench", room="game_room", number=2, roll=6)  # after the move: 2+1 = 3
    assert t.stamina("ana") == 3 and t.phase == "act" and t.turn == "ana"


def test_E3_1_a_player_at_1_cannot_pay() -> None:
    t = moving("kitchen_pharmacy", ana=1)
    t.walk("dining")  # Dining: +1 on entry
    assert t.stamina("ana") == 2
    t.seat("ana", stamina=1)
    assert t.my_refusal("step", room="hall") == "reject.lab_escape_visited"
    assert t.my_refusal("step", room="kitchen") == "reject.lab_escape_cannot_pay"
