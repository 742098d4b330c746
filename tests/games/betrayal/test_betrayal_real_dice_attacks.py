"""An attack with the table's real dice, told as each side's total (B1.3, B4.1, B5.1; issue 21: "every
choice it accepts can be reached"): the referee's result equals the one computed by hand, the forms offer
one attack a target with each side's total bounded by what its might's dice can show, and a total beyond
that is refused with a message that says whose dice.

The game (as tests/games/betrayal/test_betrayal_combat.py): ana (vera, might 3, the traitor), ben (mina,
might 3), chai (tobias, might 3), dao (lin, might 4); haunt 4 brings the swarm (might 5, no sanity).
"""

from __future__ import annotations

import pytest

from companion.core.prompts import Prompt
from companion.core.rejection import Rejected
from tests.games.betrayal.test_betrayal_combat import haunted
from tests.kits.betrayal_table import GAME, Table


def _real_attacks(t: Table, actor: str, move: str = "attack") -> dict[str, Prompt]:
    return {p.fixed["target"]: p for p in GAME.prompts(t.state, actor)
            if p.move == move and [f.name for f in p.fields] == ["total", "target_total"]}


def test_b4_1_b1_3_a_real_dice_attack_deals_the_difference_of_the_totals() -> None:
    t = haunted()
    t.do("ben", "turn.end")
    t.do("chai", "move", to="conservatory")
    t.do("chai", "attack", target="ana", total=2, target_total=5)  # chai 2 against ana 5: chai loses 3
    assert t.state["last_attack"] == {"attacker": "chai", "target": "ana", "trait": "might", "ranged": False,
                                      "dice": None, "target_dice": None, "total": 2, "target_total": 5}
    assert ("betrayal.attack", {"attacker": "chai", "target": "ana", "trait": "kind.betrayal.trait.might",
                                "total": 2, "target_total": 5}) in t.said()
    assert GAME.phase(t.state) == "damage" and t.state["pending"]["amount"] == 3
    assert t.state["pending"]["pair"] == ["speed", "might"]


def test_b4_2_a_real_dice_win_by_two_in_melee_may_steal_and_a_tie_does_nothing() -> None:
    t = haunted()
    t.do("ben", "move", to="conservatory")
    t.do("ben", "attack", target="ana", total=6, target_total=0)  # the most three dice show, against 0
    assert GAME.phase(t.state) == "steal" and GAME.current_player(t.state) == "ben"
    t2 = haunted()
    t2.do("ben", "move", to="conservatory")
    t2.do("ben", "attack", target="ana", total=3, target_total=3)
    assert ("betrayal.attack_tie", {}) in t2.said() and GAME.phase(t2.state) == "turn"


def test_b1_3_each_sides_total_is_bounded_by_its_own_dice_and_refused_beyond() -> None:
    t = haunted()
    t.do("ana", "monster.place", kind="swarm", room="conservatory")
    t.do("ben", "move", to="conservatory")
    forms = _real_attacks(t, "player:ben")
    assert set(forms) == {"ana", "swarm1"}  # one form a target in the room
    assert [(f.min, f.max) for f in forms["ana"].fields] == [(0, 6), (0, 6)]  # 3 dice each
    assert [(f.min, f.max) for f in forms["swarm1"].fields] == [(0, 6), (0, 10)]  # the swarm: might 5
    assert forms["swarm1"].params == {"attacker": "Ben", "target": "swarm1", "dice": 3, "target_dice": 5}
    assert t.refused("ben", "attack", target="swarm1", total=7, target_total=0) == "reject.betrayal_dice_total"
    assert t.refused("ben", "attack", target="ana", total=0, target_total=7) == "reject.betrayal_target_dice_total"
    with pytest.raises(Rejected) as why:  # the refusal says whose dice and how far they go
        t.do("ben", "attack", target="ana", total=0, target_total=7)
    assert dict(why.value.params) == {"target": "ana", "most": 6}
    assert t.refused("ben", "attack", target="ana", dice=[1, 1, 1], total=3) == "reject.betrayal_dice_or_total"
    t.do("ben", "attack", target="swarm1", total=6, target_total=10)  # the swarm's 10 beats ben's 6 by 4
    assert t.state["last_attack"]["target_total"] == 10 and GAME.phase(t.state) == "damage"
    assert t.state["pending"] == {**t.state["pending"], "loser": "ben", "amount": 4}  # monsters never steal


def test_b5_1_a_monsters_attack_with_real_dice_is_offered_to_whoever_plays_the_monsters() -> None:
    t = haunted()
    t.do("ana", "monster.place", kind="swarm", room="kitchen")
    t.do("ben", "turn.end").do("chai", "turn.end")
    t.do("dao", "move", to="kitchen").do("dao", "turn.end").do("ana", "turn.end")
    forms = _real_attacks(t, "player:ana", "monster.attack")
    assert set(forms) == {"ben", "chai", "dao"} and forms["dao"].fixed == {"target": "dao", "monster": "swarm1"}
    assert [(f.min, f.max) for f in forms["dao"].fields] == [(0, 10), (0, 8)]  # might 5 against lin's 4
    assert t.refused("ana", "monster.attack", monster="swarm1", target="dao", total=11,
                     target_total=0) == "reject.betrayal_dice_total"
    t.do("ana", "monster.attack", monster="swarm1", target="dao", total=10, target_total=0)  # as 5 twos
    assert GAME.phase(t.state) == "damage" and t.state["pending"]["amount"] == 10
    assert GAME.current_player(t.state) == "dao"
