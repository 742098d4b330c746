"""Lockdown rules L5-L9 (settlement order, fights, poison, hunger, rocket, consumables, shadows, the end),
each computed by hand from the text and the rulings."""

from __future__ import annotations

import pytest

from companion.core.rejection import Rejected
from companion.games.lockdown import actions, flow, health, items, movement, poison, ranking, settlement
from tests.kits.lockdown_script import bare, ctx, hand, place, room, said, turn_of

# -- L5 the order ------------------------------------------------------------------------------------------


def test_L5_steps_run_in_order_and_the_dead_take_no_part_later() -> None:
    """Ana (HP 3) in poison in round 2 (-2) with no food (-2) dies at step 4, so her declared pill (step 6)
    is never taken: it goes to the morgue with her other cards. Then every HP is shown."""
    state = bare(["ana", "ben", "cai"], rnd=2)
    state["people"]["ana"]["hp"] = 3
    place(state, ana="B301", ben="B601", cai="101")
    state["poison"] = ["B3"]
    pill = hand(state, "ana", "pill")
    state["people"]["ana"]["declared"] = pill
    hand(state, "ben", "water", "food")
    hand(state, "cai", "water", "food")
    poison.open_vote(state)
    settlement.settle(ctx(state))
    msgs = said(state)
    order = ["lockdown.settlement", "lockdown.no_surgery", "lockdown.no_new_poison", "lockdown.hunger",
             "lockdown.became_shadow", "lockdown.no_consumables", "lockdown.hp_shown"]
    assert [m for m in msgs if m in order] == order
    assert state["people"]["ana"]["shadow"] and state["morgue_incoming"] == pill
    assert state["shown_hp"] == {"ana": 0, "ben": 10, "cai": 10}
    assert state["people"]["ana"]["room"] == room(state, "morgue")  # L8.1: next round from B701


# -- L6 fights ---------------------------------------------------------------------------------------------


def _fight(genes: dict[str, int], guns: dict[str, str] | None = None, hp: int = 10) -> dict[str, int]:
    pids = list(genes)
    state = bare(pids, {p: (f, 10 - f - 0 if f < 10 else 0, 0) if f < 9 else (f, 1, 0) for p, f in genes.items()})
    for pid in pids:
        state["people"][pid].update(room="B306", hp=hp)
    for pid, kind in (guns or {}).items():
        hand(state, pid, kind)
    settlement.combat(ctx(state))
    return {pid: state["people"][pid]["hp"] for pid in pids}


def test_L6_1_rooms_with_two_or_more_living_fight_shadows_do_not_count() -> None:
    state = bare(["ana", "ben", "cai"])
    place(state, ana="B306", ben="B306", cai="B307")
    state["people"]["ben"]["shadow"] = True
    assert settlement.fight_rooms(state) == []
    state["people"]["ben"]["shadow"] = False
    assert settlement.fight_rooms(state) == [("B306", ["ana", "ben"])]


def test_L6_2_fight_without_guns_the_weaker_loses_the_difference() -> None:
    assert _fight({"ana": 6, "ben": 2}) == {"ana": 10, "ben": 6}
    assert _fight({"ana": 3, "ben": 3}) == {"ana": 10, "ben": 10}


def test_L6_2_brawl_each_loses_the_largest_duel_not_the_sum() -> None:
    # forces 7, 5, 1: ben loses 7-5 = 2; cai loses max(7-1, 5-1) = 6, not 10
    assert _fight({"ana": 7, "ben": 5, "cai": 1}) == {"ana": 10, "ben": 8, "cai": 4}


def test_L6_2_a_gun_against_no_gun_deals_full_force() -> None:
    # ana force 1 + pistol 2 = 3 with a gun; ben force 8, no gun: ben loses 3, ana loses nothing
    assert _fight({"ana": 1, "ben": 8}, {"ana": "pistol"}) == {"ana": 10, "ben": 7}
    # both hold guns: the normal comparison; ana 1+4 = 5 shotgun, ben 2+2 = 4 pistol: ben loses 1
    assert _fight({"ana": 1, "ben": 2}, {"ana": "shotgun", "ben": "pistol"}) == {"ana": 10, "ben": 9}


def test_L6_2_brawl_with_one_gunner() -> None:
    # ana 2+2 pistol = 4 (gun), ben 6, cai 3: ben takes max(4 from the gun, 0) = 4;
    # cai takes max(4, 6-3) = 4; ana takes nothing from non-gunners
    assert _fight({"ana": 2, "ben": 6, "cai": 3}, {"ana": "pistol"}) == {"ana": 10, "ben": 6, "cai": 6}


def test_L6_3_shadow_encounters_drain_1_per_shadow_and_count_what_was_taken() -> None:
    state = bare(["ana", "ben", "s1", "s2"])
    place(state, ana="B306", ben="B205", s1="B306", s2="B306")
    for s in ("s1", "s2"):
        state["people"][s].update(shadow=True, hp=0)
    state["people"]["ana"]["hp"] = 1
    settlement.combat(ctx(state))
    assert state["people"]["ana"]["shadow"]
    assert (state["people"]["s1"]["absorbed"], state["people"]["s2"]["absorbed"]) == (1, 0)  # only the HP taken
    assert "lockdown.shadow_encounter" in said(state)


def test_L6_4_the_public_learns_only_the_rooms() -> None:
    state = bare(["ana", "ben"], {"ana": (8, 1, 1), "ben": (1, 8, 1)})
    place(state, ana="B306", ben="B306")
    settlement.combat(ctx(state))
    assert state["announcements"] == [{"at": 0, "msg": "lockdown.fight", "params": {"room": "B306"}}]
    assert state["shown_hp"]["ben"] == 10  # HP shows only at the end of the settlement


# -- L7 poison, hunger, rocket, consumables ----------------------------------------------------------------


@pytest.mark.parametrize(("rnd", "lost"), [(1, 1), (2, 2), (3, 2), (4, 3), (5, 3), (6, 4)])
def test_L7_1_poison_by_round(rnd: int, lost: int) -> None:
    state = bare(["ana", "ben"], rnd=rnd)
    place(state, ana="B302", ben="B602")
    poison.open_vote(state)
    poison.cast(state, "ana", "B3")  # the floor voted this round hurts this round
    settlement.poisoning(ctx(state))
    assert (state["people"]["ana"]["hp"], state["people"]["ben"]["hp"]) == (10 - lost, 10)


def test_L7_1_poison_exemptions() -> None:
    state = bare(["heli", "safe", "ware", "mask", "back", "hit"], rnd=3)
    state["poison"] = ["A2", "B1", "B5"]
    place(state, heli="202", safe="B106", ware="B501", mask="B502", back="B503", hit="B504")
    state["detox"] = ["B106"]
    hand(state, "mask", "gas_mask")
    state["people"]["back"]["revived_round"] = 2
    poison.open_vote(state)
    settlement.poisoning(ctx(state))
    assert {p: q["hp"] for p, q in state["people"].items()} == {
        "heli": 10, "safe": 10, "ware": 10, "mask": 10, "back": 10, "hit": 8}
    state["poison"].append("B4")  # B501 is poisoned only once B4 and B5 both are
    assert poison.hits(state, "ware")


def test_L7_2_hunger_from_round_2() -> None:
    state = bare(["both", "one", "none", "canteen", "back", "drop"], rnd=2)
    place(state, both="B302", one="B303", none="B305", canteen="B204", back="B306", drop="B307")
    hand(state, "both", "water", "food", "water")
    hand(state, "one", "food")
    hand(state, "drop", "airdrop3")
    state["people"]["back"]["revived_round"] = 1
    settlement.hunger(ctx(state))
    assert {p: q["hp"] for p, q in state["people"].items()} == {
        "both": 10, "one": 9, "none": 8, "canteen": 10, "back": 10, "drop": 10}
    assert [items.kind_of(c) for c in state["people"]["both"]["items"]] == ["water"]
    assert sorted(items.kind_of(c) for c in state["consumed"]) == ["airdrop3", "food", "food", "water"]
    first = bare(["ana", "ben"], rnd=1)
    settlement.hunger(ctx(first))
    assert first["people"]["ana"]["hp"] == 10 and "lockdown.hunger" not in said(first)


def test_L7_3_rocket_hits_every_living_player_in_the_room() -> None:
    state = bare(["ana", "ben", "cai"])
    place(state, ana="B701", ben="B605", cai="B605")
    hand(state, "ana", "rocket")
    turn_of(state, "ana")
    actions.aim_rocket(state, "ana", "B605")
    settlement.rocket(ctx(state))
    assert (state["people"]["ben"]["hp"], state["people"]["cai"]["hp"]) == (6, 6)
    assert {"at": 0, "msg": "lockdown.rocket_hit", "params": {"room": "B605"}} in state["announcements"]


def test_L7_4_pill_adds_2_capped_at_10() -> None:
    state = bare(["ana", "ben"])
    state["people"]["ana"]["hp"] = 9
    state["people"]["ana"]["declared"] = hand(state, "ana", "pill")
    settlement.consumables(ctx(state))
    assert state["people"]["ana"]["hp"] == 10 and said(state) == ["lockdown.used_pill"]


def test_L7_4_alcohol_each_face_of_the_die() -> None:
    seen: set[int] = set()
    draws = 0
    while len(seen) < 6:
        state = bare(["ana", "ben"], {"ana": (3, 3, 4)})
        state["rng"]["draws"] = draws
        draws += 1
        state["people"]["ana"]["hp"] = 5
        state["people"]["ana"]["declared"] = hand(state, "ana", "alcohol")
        hand(state, "ana", "knife")
        settlement.consumables(ctx(state))
        roll = state["announcements"][-1]["params"]["roll"]
        seen.add(roll)
        p = state["people"]["ana"]
        expected = {1: ({"force": 3, "speed": 3, "load": 4}, 5, 0), 2: ({"force": 3, "speed": 3, "load": 4}, 5, 1),
                    3: ({"force": 4, "speed": 3, "load": 4}, 5, 1), 4: ({"force": 3, "speed": 4, "load": 4}, 5, 1),
                    5: ({"force": 3, "speed": 3, "load": 5}, 5, 1), 6: ({"force": 3, "speed": 3, "load": 4}, 7, 1)}
        assert (p["genes"], p["hp"], len(p["items"])) == expected[roll], roll


def test_L7_4_adrenaline_speed_10_and_hp_never_below_1_until_next_settlement_ends() -> None:
    state = bare(["ana", "ben"], {"ana": (3, 3, 4)}, rnd=2)
    state["people"]["ana"]["declared"] = hand(state, "ana", "adrenaline")
    settlement.consumables(ctx(state))
    state["round"] = 3
    assert movement.speed(state, state["people"]["ana"]) == 10
    health.hurt(state, "ana", 25)
    assert state["people"]["ana"]["hp"] == 1 and not state["people"]["ana"]["shadow"]
    poison.open_vote(state)
    settlement.settle(ctx(state))
    assert movement.speed(state, state["people"]["ana"]) == 3
    health.hurt(state, "ana", 1)
    assert state["people"]["ana"]["shadow"]


def test_L7_5_dice_come_from_the_seeded_source() -> None:
    rolls = []
    for _ in range(2):
        state = bare(["ana", "ben"])
        state["people"]["ana"]["declared"] = hand(state, "ana", "airdrop2")
        settlement.consumables(ctx(state))
        rolls.append([a["params"]["roll"] for a in state["announcements"]])
    assert rolls[0] == rolls[1] and len(rolls[0]) == 2  # airdrop 2 = two alcohol, two rolls


# -- L8 shadows and revival --------------------------------------------------------------------------------


def test_L8_1_a_shadow_drops_everything_to_the_morgue_and_can_do_nothing() -> None:
    state = bare(["ana", "ben", "cai"], {"ana": (5, 4, 1)})
    cards = hand(state, "ana", "knife")
    health.hurt(state, "ana", 10)
    p = state["people"]["ana"]
    assert p["shadow"] and p["items"] == [] and state["morgue_incoming"] == cards
    assert items.force(p) == 0 and items.capacity(p) == 0 and movement.speed(state, p) == 4
    place(state, ana="B701")
    turn_of(state, "ana")
    with pytest.raises(Rejected, match="shadow_no_draw"):
        actions.draw(state, "ana", None, None, ["knife"])
    state["poison"] = ["B7"]
    assert not poison.hits(state, "ana")
    flow.begin_round(ctx(state))
    assert cards[0] in state["stocks"][room(state, "morgue")]


def test_L8_2_revival_with_2_or_more_absorbed() -> None:
    state = bare(["ana", "s1", "s2"], {"s1": (6, 2, 2)}, rnd=3)
    for s in ("s1", "s2"):
        state["people"][s].update(shadow=True, hp=0, force_at_death=6)
    place(state, ana="B306", s1="B306", s2="B306")
    state["people"]["s1"]["absorbed"] = 1
    poison.open_vote(state)
    hand(state, "ana", "water", "food")
    settlement.settle(ctx(state))
    s1 = state["people"]["s1"]
    assert not s1["shadow"] and s1["hp"] == 2 and s1["absorbed"] == 0 and s1["room"] == "B306"
    assert s1["genes"] == {"force": 6, "speed": 2, "load": 2} and s1["revived_round"] == 3
    assert state["people"]["s2"]["shadow"] and state["people"]["s2"]["absorbed"] == 1
    assert "lockdown.revived" in said(state)


# -- L9 the end --------------------------------------------------------------------------------------------


def test_L9_1_one_survivor_wins_at_once() -> None:
    state = bare(["ana", "ben", "cai"], {"ana": (9, 1, 0)}, rnd=2)
    place(state, ana="B306", ben="B306", cai="B306")
    state["people"]["ben"]["hp"] = 2
    state["people"]["cai"]["hp"] = 1
    hand(state, "ana", "water", "food")
    poison.open_vote(state)
    c = ctx(state)
    settlement.settle(c)
    flow.end_or_next(c)
    assert state["finished"]["reason"] == "survivor" and state["finished"]["ranking"][0] == ["ana"]
    assert state["phase"] == "over"


def test_L9_2_all_shadows_rank_by_hp_at_the_end_of_the_previous_round() -> None:
    state = bare(["ana", "ben"], rnd=4)
    state["shown_hp"] = {"ana": 3, "ben": 6}
    place(state, ana="B306", ben="B306")
    state["people"]["ana"]["hp"] = state["people"]["ben"]["hp"] = 1
    poison.open_vote(state)
    c = ctx(state)
    settlement.settle(c)  # both starve at step 4
    flow.end_or_next(c)
    assert state["finished"]["reason"] == "all_shadows"
    assert state["finished"]["ranking"] == [["ben"], ["ana"]]


def test_L9_3_gold_then_hp_then_force_shadows_last_ties_share_points() -> None:
    state = bare(["ana", "ben", "cai", "dan", "eve"],
                 {"ana": (5, 3, 2), "ben": (3, 3, 4), "cai": (3, 3, 4), "dan": (1, 8, 1), "eve": (9, 1, 0)}, rnd=6)
    for pid, hp in (("ana", 6), ("ben", 7), ("cai", 7), ("dan", 9)):
        state["people"][pid]["hp"] = hp
    hand(state, "ana", "gold")
    hand(state, "dan", "gold", "gold")
    state["people"]["eve"].update(shadow=True, hp=0, force_at_death=9)
    ranking.exchange_gold(state)
    assert (state["people"]["ana"]["hp"], state["people"]["dan"]["hp"]) == (7, 10)  # capped at 10
    out = ranking.outcome(state, "rounds")
    # dan 10; ana 7 force 5; ben and cai 7 force 3 (tied on every key); eve a shadow
    assert out["ranking"] == [["dan"], ["ana"], ["ben", "cai"], ["eve"]]
    assert out["points"] == {"dan": 9, "ana": 8, "ben": 7, "cai": 7, "eve": 5}
