"""Escape the Lab's geometry (issue 31), from the rule text (seeds/000: "拼接版图时，需要卡牌的边缘相邻且房间门相对";
"将你的角色骰子移动到一个相邻房间，若两个房间之间不存在封锁的门则视为相邻"; "持有门禁卡的玩家在移动行动时无视封锁门")
and rulings E1.1 (the table enters card, position, rotation and blocked doors when it wants the referee to
judge movement; without them it trusts the table), E2.2 (the access card ignores blocked doors).

Grid of rooms: the Hall at (0, 0) and the Dining room at (1, 0) (the start card); x grows to the east,
y to the south. A card at (x, y) with rotation 0 has its first room there and its second to the east
(90: south, 180: west, 270: north).
"""

from __future__ import annotations

from tests.kits.lab_escape_table import Table, assert_invariants

SOUTH_OF_HALL = {"x": 0, "y": 1, "rotation": 0}  # garden (0, 1), corridor (1, 1)


def placed(**args: object) -> Table:
    t = Table().show("garden_corridor", "kitchen_pharmacy")
    t.me("card.place", card="garden_corridor", **args)
    return t


def test_a_blocked_door_stops_a_step_and_rooms_that_do_not_touch_are_not_adjacent() -> None:
    t = placed(at=SOUTH_OF_HALL, blocked=[{"room": "garden", "side": "n"}])
    assert t.phase == "move"
    assert t.my_refusal("step", room="garden") == "reject.lab_escape_door_blocked"
    assert t.my_refusal("step", room="corridor") == "reject.lab_escape_not_adjacent"  # diagonal
    t.walk("dining")
    t.seat("ana", stamina=3)
    t.walk("corridor")  # the Dining room's south side meets the Corridor's north side
    t.walk("garden")  # the two rooms of one card touch
    assert t.person("ana")["room"] == "garden"
    assert_invariants(t.state)


def test_the_access_card_ignores_blocked_doors() -> None:
    t = placed(at=SOUTH_OF_HALL, blocked=[{"room": "garden", "side": "n"}])
    t.seat("ana", items=["access_card"])
    t.walk("garden")
    assert t.person("ana")["room"] == "garden"


def test_a_door_blocked_on_the_other_side_blocks_too() -> None:
    t = Table().show("garden_corridor", "kitchen_pharmacy")
    t.state["geometry"]["hall_dining"]["blocked"] = [["hall", "s"]]
    t.me("card.place", card="garden_corridor", at=SOUTH_OF_HALL)
    assert t.my_refusal("step", room="garden") == "reject.lab_escape_door_blocked"


def test_without_geometry_the_table_is_trusted_as_before() -> None:
    t = placed()
    t.walk("corridor")  # no position entered: the referee does not judge adjacency
    assert t.person("ana")["room"] == "corridor"


def test_a_card_without_geometry_next_to_one_with_it_is_trusted() -> None:
    t = placed()
    t.seat("ana", stamina=3)
    t.walk("dining", "garden")
    assert t.person("ana")["room"] == "garden"


def test_a_placement_is_checked() -> None:
    t = Table().show("garden_corridor", "kitchen_pharmacy")
    assert t.my_refusal("card.place", card="garden_corridor", at={"x": 1, "y": 0, "rotation": 90}) == \
        "reject.lab_escape_spot_taken"  # the Dining room lies there
    assert t.my_refusal("card.place", card="garden_corridor", at={"x": 4, "y": 4, "rotation": 0}) == \
        "reject.lab_escape_spot_apart"
    assert t.my_refusal("card.place", card="garden_corridor", at=SOUTH_OF_HALL,
                        blocked=[{"room": "kitchen", "side": "n"}]) == "reject.lab_escape_blocked_room"
    assert t.my_refusal("card.place", card="garden_corridor", blocked=[{"room": "garden", "side": "n"}]) == \
        "reject.lab_escape_spot_needed"
    assert t.my_refusal("card.place", card="garden_corridor", at={"x": 0, "y": 1, "rotation": 45}) == \
        "reject.bad_argument"
    assert t.phase == "place"


def test_the_public_view_shows_where_each_card_lies() -> None:
    t = placed(at={"x": 0, "y": -1, "rotation": 180}, blocked=[{"room": "corridor", "side": "e"}])
    lab = {c["card"]: c for c in t.public()["lab"]}
    assert lab["hall_dining"]["at"] == {"x": 0, "y": 0, "rotation": 0}
    assert lab["garden_corridor"]["at"] == {"x": 0, "y": -1, "rotation": 180}  # corridor at (-1, -1)
    assert lab["garden_corridor"]["blocked"] == [{"room": "corridor", "side": "e"}]


def test_the_forms_offer_the_free_spots_and_the_cards_doors() -> None:
    t = Table().show("garden_corridor", "kitchen_pharmacy")
    forms = [p for p in t.prompts("player:ana") if p["move"] == "card.place" and p["fixed"]]
    assert {p["fixed"]["card"] for p in forms} == {"garden_corridor", "kitchen_pharmacy"}
    garden = next(p for p in forms if p["fixed"]["card"] == "garden_corridor")
    at = next(f for f in garden["fields"] if f["name"] == "at")
    spots = [c["value"] for c in at["choices"]]
    assert SOUTH_OF_HALL in spots and {"x": 1, "y": 0, "rotation": 90} not in spots
    blocked = next(f for f in garden["fields"] if f["name"] == "blocked")
    assert {"room": "garden", "side": "n"} in [c["value"] for c in blocked["choices"]] and blocked["min"] == 0
    t.me("card.place", card="garden_corridor", at=SOUTH_OF_HALL, blocked=[])
    steps = next(p for p in t.prompts("player:ana") if p["move"] == "step" and not p["fixed"])
    rooms = [c["value"] for c in steps["fields"][0]["choices"]]
    assert "garden" in rooms and "corridor" not in rooms  # only the rooms that touch


def test_with_no_card_place_known_the_forms_offer_no_spot_to_choose_from() -> None:
    """Issue 33 (what a phone offers is what the referee accepts), found by the random games: the
    Mechanism room moves the start card (E5), the only card whose place the table had entered, so its
    place is forgotten (E1.1) and no spot can touch a known place. The next player's forms offered
    "place the card at" with an empty list of spots, a form nobody can send; they offer the card alone."""
    t = Table(players=2).lay("dark_chamber_mechanism").show("passage_control", "telegraph_darkroom")
    t.seat("ana", room="mechanism").seat("ben", room="dark_chamber").stage("act")
    t.me("activate", card="hall_dining")
    assert t.state["geometry"] == {} and t.turn == "ben" and t.phase == "place"
    forms = t.prompts("player:ben")
    assert all(f["choices"] for p in forms for f in p["fields"] if f["kind"] == "choice")
    assert not [p for p in forms if any(f["name"] == "at" for f in p["fields"])]
    plain = next(p for p in forms if p["move"] == "card.place")
    assert [c["value"] for c in plain["fields"][0]["choices"]] == ["passage_control", "telegraph_darkroom"]
    assert t.my_refusal("card.place", card="passage_control", at={"x": 0, "y": 1, "rotation": 0}) == \
        "reject.lab_escape_spot_apart"
    t.me("card.place", card="passage_control")  # the table judges where it lies (E1.1)
    assert t.phase == "move" and "passage_control" in t.state["lab"]
