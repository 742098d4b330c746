"""Attacks, damage, stealing, death (B4) and monsters (B5), by ruling id, computed by hand.

The game: ana (vera, might 3), ben (mina, might 3), chai (tobias, might 3, speed 4), dao (lin, might 4,
speed 4). Ana finds the sling in the conservatory; sling x conservatory is haunt 4 (lowest might: ana,
ben and chai tie at 3, the revealer ana first), so ana is the traitor and brings in the swarm (speed 4,
might 5, knowledge 1, no sanity). Dice are entered as the table rolled them.
"""

from __future__ import annotations

from companion.games.betrayal import monsters
from tests.kits.betrayal_table import GAME, Table

FOUR = ["vera", "mina", "tobias", "lin"]


def haunted() -> Table:
    t = Table(FOUR, today="03-01")
    t.explore("kitchen").do("table", "card.reveal", card="rope").do("ana", "turn.end")
    t.do("ben", "move", to="kitchen").do("ben", "turn.end")
    t.do("chai", "move", to="kitchen").do("chai", "turn.end")
    t.do("dao", "turn.end")
    t.omen("sling", "conservatory", [0] * 6)
    assert (t.state["haunt"]["number"], t.state["haunt"]["traitor"]) == (4, "ana")
    assert GAME.view_public(t.state)["order"] == ["ben", "chai", "dao", "ana", "@monsters"]
    return t


def test_b4_1_b4_2_winning_by_two_or_more_in_melee_may_steal_instead_of_damage() -> None:
    t = haunted()
    t.do("ben", "move", to="conservatory")
    t.do("ben", "attack", target="ana", dice=[2, 2, 2], target_dice=[0, 0, 0])  # 6 against 0
    assert GAME.phase(t.state) == "steal" and GAME.current_player(t.state) == "ben"
    before = dict(t.state["explorers"]["ana"]["traits"])
    assert t.refused("ben", "steal.take", card="crossbow") == "reject.betrayal_not_holding"
    t.do("ben", "steal.take", card="rope")
    assert t.state["explorers"]["ben"]["cards"] == ["rope"] and t.state["explorers"]["ana"]["cards"] == ["sling"]
    assert t.state["explorers"]["ana"]["traits"] == before  # instead of the damage
    assert t.refused("ben", "attack", target="ana") == "reject.betrayal_attacked_already"


def test_b4_2_the_loser_splits_physical_damage_over_speed_and_might() -> None:
    t = haunted()
    t.do("ben", "turn.end")
    t.do("chai", "move", to="conservatory")
    t.do("chai", "attack", target="ana", dice=[1, 1, 1], target_dice=[2, 2, 2])  # 3 against 6: chai loses 3
    assert GAME.phase(t.state) == "damage" and GAME.current_player(t.state) == "chai"
    assert t.state["pending"]["pair"] == ["speed", "might"]
    assert t.refused("chai", "damage.split", first=4) == "reject.betrayal_bad_split"
    t.do("chai", "damage.split", first=1)
    # tobias: speed index 3 -> 2 (value 4), might index 2 -> 0 (value 2)
    assert t.state["explorers"]["chai"]["traits"]["speed"] == 2 and t.value("chai", "speed") == 4
    assert t.state["explorers"]["chai"]["traits"]["might"] == 0 and t.value("chai", "might") == 2
    assert t.state["explorers"]["chai"]["alive"]


def test_b4_2_mental_damage_goes_to_sanity_or_knowledge() -> None:
    t = haunted()
    t.do("ben", "move", to="conservatory")
    t.do("ben", "attack", target="ana", trait="sanity", dice=[0, 0, 0, 0], target_dice=[1, 0, 0])  # 0 vs 1
    assert t.state["pending"]["pair"] == ["sanity", "knowledge"] and t.state["pending"]["amount"] == 1
    t.do("ben", "damage.split", first=0)
    assert t.state["explorers"]["ben"]["traits"]["knowledge"] == 2  # mina: knowledge index 3 -> 2


def test_b4_1_ties_do_nothing_and_a_failed_ranged_attack_hurts_nobody() -> None:
    t = haunted()
    t.do("ben", "turn.end").do("chai", "turn.end")
    t.do("dao", "move", to="kitchen").do("dao", "move", to="conservatory")
    t.do("dao", "attack", target="ana", dice=[1, 1, 1, 1], target_dice=[2, 1, 1])  # 4 against 4
    assert ("betrayal.attack_tie", {}) in t.said() and GAME.phase(t.state) == "turn"
    t.do("dao", "turn.end")
    assert t.refused("ana", "attack", target="chai", ranged=False) == "reject.betrayal_not_here"
    t.do("ana", "attack", target="chai", ranged=True, dice=[0, 0, 0], target_dice=[2, 2, 2])  # the sling
    assert ("betrayal.ranged_missed", {"player": "ana"}) in t.said() and GAME.phase(t.state) == "turn"


def test_a_ranged_attack_needs_a_ranged_weapon_and_never_steals() -> None:
    t = haunted()
    assert t.refused("ben", "attack", target="ana", ranged=True) == "reject.betrayal_no_ranged"
    t.do("ben", "turn.end").do("chai", "turn.end").do("dao", "turn.end")
    t.do("ana", "attack", target="chai", ranged=True, dice=[2, 2, 2], target_dice=[0, 0, 0])  # wins by 6
    assert GAME.phase(t.state) == "damage" and GAME.current_player(t.state) == "chai"  # no steal


def test_b5_1_monsters_lack_traits_never_steal_and_a_beaten_monster_is_stunned_for_its_next_turn() -> None:
    t = haunted()
    t.do("ana", "monster.place", kind="swarm", room="conservatory")
    assert t.refused("ana", "monster.place", kind="swarm", room="conservatory") == "reject.betrayal_no_monster_left"
    assert t.refused("ben", "monster.place", kind="swarm", room="kitchen") == "reject.betrayal_not_traitor"
    t.do("ben", "move", to="conservatory")
    assert t.refused("ben", "attack", target="swarm1", trait="sanity") == "reject.betrayal_monster_lacks"
    t.do("ben", "attack", target="swarm1", dice=[2, 2, 2], target_dice=[0, 0, 0, 0, 0])  # 6 against 0
    assert t.state["monsters"]["swarm1"]["stunned"] and GAME.phase(t.state) == "turn"
    # stunned monsters hinder nobody: leaving costs 1 + the traitor
    t.do("ben", "turn.end")
    t.do("chai", "move", to="conservatory")
    t.do("chai", "move", to="kitchen")  # 1 + 1 (the traitor), the swarm does not count
    assert GAME.view_public(t.state)["turn"]["speed_left"] == 1
    t.do("chai", "turn.end").do("dao", "turn.end").do("ana", "turn.end")
    assert GAME.phase(t.state) == "monsters"
    assert "swarm" not in t.state["monster_moves"]  # a stunned kind rolls nothing
    assert t.refused("ana", "monster.move", monster="swarm1", to="kitchen") == "reject.betrayal_monster_stunned"
    assert t.refused("ana", "monster.attack", monster="swarm1", target="ben") == "reject.betrayal_monster_stunned"
    t.do("ana", "monsters.done")
    assert not t.state["monsters"]["swarm1"]["stunned"]
    assert ("betrayal.monster_recovered", {"monster": "swarm1"}) in t.said()


def test_b5_1_b1_1_a_monster_kills_a_hero_whose_trait_reaches_the_skull() -> None:
    t = haunted()
    t.do("ana", "monster.place", kind="swarm", room="kitchen")
    t.do("ben", "turn.end").do("chai", "turn.end")
    t.do("dao", "move", to="kitchen").do("dao", "turn.end").do("ana", "turn.end")
    t.do("ana", "monster.attack", monster="swarm1", target="dao", dice=[2] * 5, target_dice=[0] * 4)  # 10 vs 0
    assert GAME.phase(t.state) == "damage" and GAME.current_player(t.state) == "dao"  # monsters never steal
    t.do("dao", "damage.split", first=5)
    assert not t.state["explorers"]["dao"]["alive"]
    assert GAME.phase(t.state) == "monsters"  # still the monsters' turn
    t.do("ana", "monsters.done")
    assert t.turn == "ben" and "dao" not in GAME.view_public(t.state)["order"]


def test_b5_1_monster_movement_is_the_speed_roll_but_at_least_one_room() -> None:
    assert [monsters.allowance(n) for n in (0, 1, 4)] == [1, 1, 4]
    seen_zero = False
    for seed in range(40):  # the flood has speed 1: one die, a 0 a third of the time
        t = Table(FOUR, seed=seed, today="03-01")
        t.do("ana", "move", to="upper_stair")
        t.omen("lantern", "gallery", [0] * 6)  # haunt 6: no traitor, the host plays the flood
        t.do("host", "monster.place", kind="flood", room="front_hall")
        for pid in ("ben", "chai", "dao", "ana"):
            t.do(pid, "turn.end")
        t.do("host", "monster.roll", kind="flood")  # the referee's dice, as the table asks (issue 31)
        rolled = next(p for m, p in reversed(t.said()) if m == "betrayal.monster_roll")
        assert rolled["rooms"] == max(1, rolled["total"]) == t.state["monster_moves"]["flood"]
        t.do("host", "monster.move", monster="flood1", to="upper_stair")  # always one room
        if rolled["total"] <= 1:
            assert t.refused("host", "monster.move", monster="flood1", to="front_hall") == "reject.betrayal_too_far"
        seen_zero |= rolled["total"] == 0
    assert seen_zero


def test_when_the_last_explorer_dies_both_sides_lose() -> None:
    t = haunted()
    for pid in ("ben", "chai", "dao", "ana"):
        t.do("host", "trait.adjust", player=pid, trait="sanity", steps=-8)
    assert GAME.result(t.state) == {"ranking": [["ana", "ben", "chai", "dao"]], "winner": "none", "winners": []}
