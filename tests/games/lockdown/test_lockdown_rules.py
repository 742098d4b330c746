"""Lockdown rules L1-L4 (setup, movement, items and rooms, votes), each computed by hand from the text and
/work/shared/rulings/lockdown.md. Rule functions are pure: a bare state, one rule applied, the result read."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from companion.core.contract import Player, Setup
from companion.core.fold import initial
from companion.core.rejection import Rejected
from companion.games.lockdown import GAME, actions, flow, items, movement, poison, rooms, settlement, views
from tests.kits.lockdown_script import bare, ctx, hand, place, play, prepare, room, setup_line, turn_of

# -- L1 setup ---------------------------------------------------------------------------------------------


def test_L1_1_two_to_nine_players_start_with_10_hp_never_exceeded() -> None:
    for n in (1, 10):
        with pytest.raises(Rejected) as err:
            initial(GAME, Setup("lockdown", tuple(Player(f"p{i}", "x") for i in range(n)), {}, 1))
        assert err.value.code == "reject.player_count"
    state = bare(["ana", "ben"])
    assert {p["hp"] for p in state["people"].values()} == {10}
    from companion.games.lockdown import health
    assert health.heal(state, "ana", 3) == 0 and state["people"]["ana"]["hp"] == 10


def test_L1_2_genes_add_up_to_10_with_speed_at_least_1(tmp_path: Path) -> None:
    for force, speed, load in ((5, 5, 1), (10, 0, 0), (-1, 6, 5)):
        with pytest.raises(Rejected):
            rooms.check_genes(force, speed, load, 10)
    rooms.check_genes(0, 1, 9, 10)
    ref = play(tmp_path / "g.db", setup_line(["ana", "ben"]), [prepare("ana", 3, 3, 4, "101")])
    bad = ref.submit(__import__("companion.core.inputs", fromlist=["Input"]).Input(
        "lockdown.prepare", "player:ben", {"force": 6, "speed": 3, "load": 3, "spawn": "101"}))
    assert not bad.accepted and bad.reason is not None and bad.reason.code == "reject.lockdown_genes"


def test_L1_3_secret_spawn_in_any_room_round_1_starts_there(tmp_path: Path) -> None:
    ref = play(tmp_path / "s.db", setup_line(["ana", "ben"]),
               [prepare("ana", 4, 3, 3, "B706"), prepare("ben", 4, 3, 3, "B701")])
    assert ref.state["round"] == 1 and ref.state["phase"] == "free"
    assert ref.view("player:ana")["private"]["room"] == "B706"
    assert ref.view("player:ana")["private"]["spawn"] == "B706"
    for audience in ("public", "host", "player:ben"):
        assert "B706" not in str(ref.view(audience))


def test_L1_4_another_map_file_can_be_loaded_and_a_bad_one_is_refused(tmp_path: Path) -> None:
    src = Path(__file__).resolve().parents[3] / "companion" / "games" / "lockdown" / "data" / "map.toml"
    mine = tmp_path / "small.toml"
    mine.write_text(src.read_text(encoding="utf-8").replace('name = "default"', 'name = "house rules"'),
                    encoding="utf-8")
    state = initial(GAME, Setup("lockdown", (Player("a", "A"), Player("b", "B")), {"map_file": str(mine)}, 1))
    assert state["map"]["name"] == "house rules"
    broken = tmp_path / "broken.toml"
    broken.write_text(src.read_text(encoding="utf-8").replace('["B101", "B102"]', '["B101", "Z999"]'),
                      encoding="utf-8")
    with pytest.raises(Rejected) as err:
        initial(GAME, Setup("lockdown", (Player("a", "A"), Player("b", "B")), {"map_file": str(broken)}, 1))
    assert err.value.code == "reject.lockdown_map_file" and "Z999" in err.value.params["problem"]


def test_L1_5_floors_are_named_per_building() -> None:
    state = bare(["ana", "ben"])
    assert state["map"]["floors"] == ["A1", "A2", "B1", "B2", "B3", "B4", "B5", "B6", "B7"]
    assert len([r for r in state["map"]["rooms"] if state["map"]["rooms"][r][4]]) == 18


# -- L2 movement ------------------------------------------------------------------------------------------


def test_L2_1_path_of_1_to_speed_steps_ending_elsewhere() -> None:
    state = bare(["ana", "ben"], {"ana": (4, 3, 3)})
    place(state, ana="B101")
    assert movement.check(state, "ana", ["B102", "B103", "B104"]) == ["door", "door", "door"]
    with pytest.raises(Rejected, match="path_too_long"):
        movement.check(state, "ana", ["B102", "B103", "B104", "B105"])
    with pytest.raises(Rejected, match="ends_at_start"):
        movement.check(state, "ana", ["B102", "B101"])
    place(state, ana="B103")
    assert movement.check(state, "ana", ["B104", "B204"]) == ["door", "stairs"]
    assert movement.check(state, "ana", ["103"]) == ["bridge"]
    with pytest.raises(Rejected, match="bad_hop"):
        movement.check(state, "ana", ["B105"])  # not adjacent


def test_L2_2_rope_and_shadows_go_straight_up_or_down() -> None:
    state = bare(["ana", "ben"])
    place(state, ana="B101", ben="B101")
    with pytest.raises(Rejected, match="bad_hop"):
        movement.check(state, "ana", ["B201"])
    hand(state, "ana", "rope")
    assert movement.check(state, "ana", ["B201", "B301"]) == ["rope", "rope"]
    state["people"]["ben"]["shadow"] = True
    assert movement.check(state, "ben", ["B201"]) == ["float"]


def test_L2_3_helicopter_only_from_202_where_the_round_started() -> None:
    state = bare(["ana", "ben"])
    place(state, ana="202")
    assert movement.check(state, "ana", ["B105"]) == ["helicopter"]
    with pytest.raises(Rejected, match="bad_hop"):
        movement.check(state, "ana", ["B202"])  # not a route
    place(state, ana="201")
    with pytest.raises(Rejected, match="bad_hop"):
        movement.check(state, "ana", ["202", "B105"])


def test_L2_4_chute_one_way_and_teleport_to_ordinary_rooms() -> None:
    state = bare(["ana", "ben"])
    place(state, ana="B104")
    assert movement.check(state, "ana", ["B105", "B503"]) == ["door", "chute"]
    place(state, ana="B503")
    with pytest.raises(Rejected, match="bad_hop"):
        movement.check(state, "ana", ["B105"])
    place(state, ana="B402")
    assert movement.check(state, "ana", ["B403", "B706"]) == ["door", "teleport"]
    with pytest.raises(Rejected, match="bad_hop"):
        movement.check(state, "ana", ["B403", "B701"])  # the morgue is not an ordinary room


def test_L2_5_each_entry_into_102_costs_1_hp_at_once() -> None:
    state = bare(["ana", "ben"], {"ana": (4, 4, 2)})
    place(state, ana="103")
    movement.walk(state, "ana", ["102", "101", "102"])
    assert state["people"]["ana"]["hp"] == 8 and state["people"]["ana"]["room"] == "102"


def test_L2_6_a_refused_path_changes_nothing(tmp_path: Path) -> None:
    from companion.core.inputs import Input

    ref = play(tmp_path / "p.db", setup_line(["ana", "ben"]),
               [prepare("ana", 4, 3, 3, "B101"), prepare("ben", 4, 3, 3, "B706"),
                {"by": "host", "move": "lockdown.begin_actions", "args": {}}])
    who = ref.view("public")["turn"]
    before = ref.view(f"player:{who}")
    out = ref.submit(Input("lockdown.move", f"player:{who}", {"path": ["A1", "B999"]}))
    assert not out.accepted and out.reason is not None and out.reason.code == "reject.lockdown_no_such_room"
    assert ref.view(f"player:{who}") == before


# -- L3 items and rooms -----------------------------------------------------------------------------------


def test_L3_1_items_stack_and_airdrops_count_as_their_contents() -> None:
    state = bare(["ana", "ben"], {"ana": (2, 4, 4)})
    hand(state, "ana", "knife", "knife")
    assert items.force(state["people"]["ana"]) == 6
    state["people"]["ana"]["items"] = []
    hand(state, "ana", "airdrop1")
    assert items.force(state["people"]["ana"]) == 6  # airdrop 1 = two knives on one card
    hand(state, "ana", "airdrop3")
    assert items.counts(state["people"]["ana"]["items"])["water"] == 1
    assert items.counts(state["people"]["ana"]["items"])["food"] == 1


def test_L3_2_force_and_gunners() -> None:
    state = bare(["ana", "ben"], {"ana": (1, 5, 4)})
    hand(state, "ana", "knife", "pistol", "shotgun")
    assert items.force(state["people"]["ana"]) == 1 + 2 + 2 + 4
    assert items.has_gun(state["people"]["ana"]) and not items.has_gun(state["people"]["ben"])
    state["people"]["ben"]["items"] = []
    hand(state, "ben", "airdrop4")
    assert items.has_gun(state["people"]["ben"])


def test_L3_3_draw_up_to_the_limit_then_drop_the_excess_into_the_room() -> None:
    state = bare(["ana", "ben"], {"ana": (4, 4, 2)})
    place(state, ana=room(state, "water_tower"))
    turn_of(state, "ana")
    with pytest.raises(Rejected, match="draw_limit"):
        actions.draw(state, "ana", random.Random(1), 5, [])
    got = actions.draw(state, "ana", random.Random(1), 4, [])
    assert len(got) == 4 and len(state["stocks"]["101"]) == 6
    assert items.over_load(state["people"]["ana"]) == 2
    actions.drop(state, "ana", got[:2])
    assert len(state["stocks"]["101"]) == 8 and items.over_load(state["people"]["ana"]) == 0


def test_L3_4_used_consumables_go_to_the_consumed_pile_and_the_recycler_draws_from_it() -> None:
    state = bare(["ana", "ben"], {"ana": (4, 3, 3)}, rnd=2)
    pill = hand(state, "ana", "pill")
    hand(state, "ana", "recycler")
    state["people"]["ana"]["declared"] = pill
    settlement.consumables(ctx(state))
    assert state["consumed"] == pill
    turn_of(state, "ana")
    assert actions.recycle(state, "ana", random.Random(3), None) == pill[0]
    with pytest.raises(Rejected, match="recycled_already"):
        actions.recycle(state, "ana", random.Random(3), None)


def test_L3_5_gene_bank_adds_1_to_each_and_shows_everyone_privately(tmp_path: Path) -> None:
    state = bare(["ana", "ben"], {"ana": (4, 3, 3), "ben": (7, 2, 1)})
    place(state, ana="201")
    turn_of(state, "ana")
    rooms.gene_bank(state, "ana")
    assert state["people"]["ana"]["genes"] == {"force": 5, "speed": 4, "load": 4}
    assert views.player(state, "ana")["seen_genes"]["ben"] == {"force": 7, "speed": 2, "load": 1}
    assert views.player(state, "ben")["seen_genes"] is None
    assert "seen_genes" not in str(views.public(state))


def test_L3_6_gene_console_redistributes_the_current_total() -> None:
    state = bare(["ana", "ben"], {"ana": (4, 3, 3)})
    place(state, ana="B304")
    hand(state, "ana", "water", "water")
    turn_of(state, "ana")
    with pytest.raises(Rejected, match="genes"):
        rooms.gene_console(state, "ana", 5, 5, 1)
    with pytest.raises(Rejected, match="over_load"):
        rooms.gene_console(state, "ana", 8, 1, 1)
    rooms.gene_console(state, "ana", 7, 1, 2)
    assert state["people"]["ana"]["genes"] == {"force": 7, "speed": 1, "load": 2}


def test_L3_7a_control_room_makes_one_vote_count_ten() -> None:
    state = bare(["ana", "ben", "cai"], {})
    place(state, ana="B101")
    poison.open_vote(state)
    turn_of(state, "ana")
    rooms.control_room(state, "ana", "ten_votes", None)
    poison.cast(state, "ana", "B3")
    poison.cast(state, "ben", "B4")
    poison.cast(state, "cai", "B4")
    assert poison.tally(state) == ["B3"]  # 10 against 2


def test_L3_7b_control_room_detox_is_secret_and_makes_the_room_safe() -> None:
    state = bare(["ana", "ben"], {}, rnd=2)
    state["poison"] = ["B1"]
    place(state, ana="B101", ben="B106")
    turn_of(state, "ana")
    with pytest.raises(Rejected, match="not_poisonous"):
        rooms.control_room(state, "ana", "detox", "B206")
    rooms.control_room(state, "ana", "detox", "B106")
    assert not poison.hits(state, "ben") and poison.hits(state, "ana")
    assert "B106" not in str(views.public(state)) and "B106" not in str(views.host(state))
    assert views.player(state, "ana")["detoxed"] == ["B106"]


def test_L3_8_operating_room_one_two_or_three_players() -> None:
    for n, hp_after, said in ((1, [5], "lockdown.no_surgery"), (2, [9, 9], "lockdown.surgery_done"),
                              (3, [5, 5, 5], "lockdown.no_surgery")):
        pids = ["ana", "ben", "cai"][:n] + (["dan"] if n == 1 else [])
        state = bare(pids, {p: (3, 4, 3) for p in pids})
        for pid in pids[:n]:
            state["people"][pid].update(room="B202", hp=5)
        settlement.surgery(ctx(state))
        assert [state["people"][p]["hp"] for p in pids[:n]] == hp_after
        assert state["announcements"][-1]["msg"] == said
        assert [r for r, _ in settlement.fight_rooms(state)] == (["B202"] if n == 3 else [])


def test_L3_9_helipad_airdrops_accumulate_one_each_round_first_come_first_served() -> None:
    state = initial(GAME, Setup("lockdown", (Player("ana", "A"), Player("ben", "B")),
                                {"free_seconds": 0, "turn_seconds": 0}, 3))
    c = ctx(state)
    for _ in range(3):
        flow.begin_round(c)
    assert sorted(items.kind_of(x) for x in state["airdrops"]) == ["airdrop1", "airdrop2", "airdrop3"]
    for pid in ("ana", "ben"):
        state["people"][pid].update(genes={"force": 4, "speed": 3, "load": 3}, room="202")
    state["stocks"]["202"].append("knife-99")
    state["phase"] = "action"
    turn_of(state, "ana")
    actions.take(state, "ana", ["airdrop2", "knife-99"])
    with pytest.raises(Rejected, match="one_airdrop"):
        actions.take(state, "ana", ["airdrop1"])
    assert sorted(items.kind_of(x) for x in state["airdrops"]) == ["airdrop1", "airdrop3"]
    state["poison"] = ["A2"]
    assert not poison.hits(state, "ana")


# -- L4 votes ---------------------------------------------------------------------------------------------


def test_L4_1_living_players_vote_for_a_floor_not_yet_poisonous() -> None:
    state = bare(["ana", "ben", "cai"])
    state["poison"] = ["B1"]
    state["people"]["cai"]["shadow"] = True
    poison.open_vote(state)
    assert "B1" not in state["ballot"]["options"] and state["ballot"]["voters"] == ["ana", "ben"]
    with pytest.raises(Rejected):
        poison.cast(state, "cai", "B2")
    assert not poison.must_vote(state, "cai")


def test_L4_2_most_votes_win_ties_poison_all_no_votes_no_poison() -> None:
    state = bare(["ana", "ben", "cai", "dan"])
    poison.open_vote(state)
    assert poison.tally(state) == []
    poison.cast(state, "ana", "B2")
    poison.cast(state, "ben", "B5")
    assert poison.tally(state) == ["B2", "B5"]
    poison.cast(state, "cai", "B5")
    assert poison.tally(state) == ["B5"]


def test_L4_3_who_voted_for_what_is_never_shown() -> None:
    """The public and host views after the tally are the same whatever the losing vote was."""
    seen = []
    for cai_votes in ("B7", "B6"):
        state = bare(["ana", "ben", "cai"])
        place(state, ana="B301", ben="B305", cai="B601")
        poison.open_vote(state)
        poison.cast(state, "ana", "A2")
        poison.cast(state, "ben", "A2")
        poison.cast(state, "cai", cai_votes)
        settlement.poisoning(ctx(state))
        seen.append((views.public(state), views.host(state), state["announcements"]))
    assert seen[0] == seen[1]
    assert seen[0][0]["poison"] == ["A2"]


# -- the text's room rules that no ruling restates ---------------------------------------------------------


def test_junkyard_keeps_at_most_two_non_junk_cards_and_refuses_gold() -> None:
    state = bare(["ana", "ben"], {"ana": (2, 3, 5)})
    place(state, ana="B503")
    state["stocks"]["B503"] = ["rope-1", "gas_mask-1", "rocket-1", "junk-1", "junk-2"]
    hand(state, "ana", "gold")
    turn_of(state, "ana")
    actions.draw(state, "ana", random.Random(0), 5, [])
    assert sorted(items.kind_of(c) for c in flow.junk_extras(state, "ana")) in (["rocket"], ["gas_mask"], ["rope"])
    with pytest.raises(Rejected, match="no_gold_here"):
        actions.gold(state, "ana", "rope")
    actions.drop(state, "ana", flow.junk_extras(state, "ana"))
    assert flow.junk_extras(state, "ana") == []


def test_gold_shows_the_stock_and_takes_one_more_card_but_not_gold() -> None:
    state = bare(["ana", "ben"], {"ana": (2, 3, 5)})
    place(state, ana=room(state, "warehouse"))
    bar = hand(state, "ana", "gold")
    turn_of(state, "ana")
    with pytest.raises(Rejected, match="gold_look_first"):  # the cards are seen before one is picked
        actions.gold(state, "ana", "shotgun")
    assert actions.gold(state, "ana", None) is None and state["consumed"] == bar
    assert state["turn_state"]["peek"] == sorted(state["stocks"][room(state, "warehouse")])
    with pytest.raises(Rejected, match="not_in_stock"):
        actions.gold(state, "ana", "gold")
    got = actions.gold(state, "ana", "shotgun")
    assert got is not None and items.kind_of(got) == "shotgun"
    assert views.player(state, "ana")["turn"]["peek"] is not None


def test_the_morgue_stocks_the_cards_of_the_dead_from_the_next_round() -> None:
    state = bare(["ana", "ben", "cai"])
    knife = hand(state, "ben", "knife")
    from companion.games.lockdown import health

    health.hurt(state, "ben", 10)
    place(state, ana="B701")
    turn_of(state, "ana")
    with pytest.raises(Rejected, match="stock_short"):
        actions.draw(state, "ana", random.Random(0), 1, [])
    flow.begin_round(ctx(state))
    turn_of(state, "ana")
    assert actions.draw(state, "ana", random.Random(0), 1, []) == knife
