"""The monsters' dice and ranged monsters (issue 31), from the rule text (seeds/003: "每回合移动怪物时奸徒需为每种
怪物掷骰决定其步数。怪物的每1点速度掷骰一颗……若掷得的点数是0，怪粅仍最少可移动1个房间" — the traitor rolls each
kind's dice; "部份怪物亦可进行长程袭击" — some monsters attack at range; "若长程袭击失败，人物亦无需承受损伤")
and B5.1, B4.1 (rulings/betrayal.md).

The game (as test_betrayal_combat.py): ana (vera) finds the sling in the conservatory; haunt 4 makes
her the traitor with the swarm (speed 4, might 5).
"""

from __future__ import annotations

import shutil
from pathlib import Path

from companion.games.betrayal import data
from tests.games.betrayal.test_betrayal_combat import FOUR, haunted
from tests.kits.betrayal_table import GAME, Table


def _monsters_turn(t: Table, room: str = "kitchen") -> Table:
    t.do("ana", "monster.place", kind="swarm", room=room)
    for pid in ("ben", "chai", "dao", "ana"):
        t.do(pid, "turn.end")
    assert GAME.phase(t.state) == "monsters"
    return t


def test_the_traitor_enters_the_real_dice_for_each_kind() -> None:
    t = _monsters_turn(haunted(), room="conservatory")
    assert GAME.view_public(t.state)["monster_rolls"] == {"swarm": None}  # waiting for the swarm's dice
    assert t.refused("ben", "monster.roll", kind="swarm", total=3) == "reject.not_your_turn"
    assert t.refused("ana", "monster.roll", kind="swarm", total=9) == "reject.betrayal_dice_total"  # 4 dice: 8
    assert t.refused("ana", "monster.roll", kind="swarm", dice=[1, 1]) == "reject.betrayal_dice_count"
    assert t.refused("ana", "monster.roll", kind="hollow", total=1) == "reject.betrayal_no_monster_kind"
    t.do("ana", "monster.roll", kind="swarm", dice=[1, 2, 0, 1])
    assert t.state["monster_moves"]["swarm"] == 4
    assert GAME.view_public(t.state)["monster_rolls"] == {"swarm": 4}
    assert ("betrayal.monster_roll", {"kind": "kind.betrayal.monster.swarm", "dice": [1, 2, 0, 1], "total": 4,
                                      "rooms": 4}) in t.said()
    assert t.refused("ana", "monster.roll", kind="swarm", total=1) == "reject.betrayal_monster_rolled"
    # 1 into the kitchen, 1 + 2 heroes (ben, chai) out of it: the 4 rooms' worth are spent
    t.do("ana", "monster.move", monster="swarm1", to="kitchen").do("ana", "monster.move", monster="swarm1",
                                                                    to="front_hall")
    assert t.refused("ana", "monster.move", monster="swarm1", to="upper_stair") == "reject.betrayal_too_far"


def test_a_total_of_zero_still_moves_one_room() -> None:
    t = _monsters_turn(haunted())
    t.do("ana", "monster.roll", kind="swarm", total=0)
    assert t.state["monster_moves"]["swarm"] == 1
    assert ("betrayal.monster_roll_real", {"kind": "kind.betrayal.monster.swarm", "total": 0, "rooms": 1}) in t.said()


def test_the_referee_rolls_when_the_table_asks() -> None:
    t = _monsters_turn(haunted())
    t.do("ana", "monster.roll", kind="swarm")
    rolled = next(p for m, p in reversed(t.said()) if m == "betrayal.monster_roll")
    assert len(rolled["dice"]) == 4 and t.state["monster_moves"]["swarm"] == max(1, rolled["total"])


def test_a_kind_moves_only_once_its_dice_are_rolled() -> None:
    t = _monsters_turn(haunted())
    assert t.refused("ana", "monster.move", monster="swarm1", to="front_hall") == "reject.betrayal_monster_roll_first"


def test_the_forms_offer_the_roll_before_the_moves() -> None:
    t = _monsters_turn(haunted())
    forms = [p.to_json() for p in GAME.prompts(t.state, "player:ana")]
    moves = [f["move"] for f in forms]
    assert "monster.roll" in moves and "monster.move" not in moves
    real = next(f for f in forms if f["move"] == "monster.roll" and f["fields"])
    assert real["fields"][0]["max"] == 8 and real["fixed"] == {"kind": "swarm"}
    t.do("ana", "monster.roll", kind="swarm", total=3)
    moves = [p.move for p in GAME.prompts(t.state, "player:ana")]
    assert "monster.roll" not in moves and "monster.move" in moves


def _ranged_swarm(tmp_path: Path) -> str:
    shutil.copytree(data.bundled_dir(), tmp_path / "set")
    haunts = tmp_path / "set" / "haunts.toml"
    haunts.write_text(haunts.read_text().replace('kind = "swarm", count = 1, speed = 4, might = 5',
                                                 'kind = "swarm", count = 1, speed = 4, might = 5, ranged = true'))
    return str(tmp_path / "set")


def test_a_ranged_monster_attacks_a_hero_in_another_room_and_a_miss_costs_it_nothing(tmp_path: Path) -> None:
    t = _monsters_turn(haunted_with(_ranged_swarm(tmp_path)), room="front_hall")
    # ben, chai and dao stand in the kitchen (haunted()); the swarm in the front hall
    t.do("ana", "monster.attack", monster="swarm1", target="ben", ranged=True, dice=[0] * 5, target_dice=[2, 2, 2])
    assert not t.state["monsters"]["swarm1"]["stunned"]  # a failed ranged attack hurts nobody
    assert ("betrayal.ranged_missed", {"player": "swarm1"}) in t.said()
    assert t.refused("ana", "monster.attack", monster="swarm1", target="chai", ranged=True) == \
        "reject.betrayal_attacked_already"


def test_a_ranged_monster_that_wins_deals_damage_without_stealing(tmp_path: Path) -> None:
    t = _monsters_turn(haunted_with(_ranged_swarm(tmp_path)), room="front_hall")
    t.do("ana", "monster.attack", monster="swarm1", target="dao", ranged=True, dice=[2] * 5, target_dice=[0] * 4)
    assert GAME.phase(t.state) == "damage" and t.state["pending"]["amount"] == 10


def test_a_monster_without_a_ranged_attack_is_refused_at_range() -> None:
    t = _monsters_turn(haunted(), room="front_hall")
    refused = t.refused("ana", "monster.attack", monster="swarm1", target="ben", ranged=True)
    assert refused == "reject.betrayal_no_ranged"


def test_the_forms_offer_a_ranged_monster_every_living_hero(tmp_path: Path) -> None:
    t = _monsters_turn(haunted_with(_ranged_swarm(tmp_path)), room="front_hall")
    t.do("ana", "monster.roll", kind="swarm", total=2)
    ranged = [f for f in (p.to_json() for p in GAME.prompts(t.state, "player:ana")) if f["move"] == "monster.attack"
              and f["fixed"].get("ranged")]
    assert ranged
    targets = {c["value"] for f in ranged for fld in f["fields"] if fld["name"] == "target" for c in fld["choices"]}
    assert targets == {"ana", "ben", "chai", "dao"}  # the rule text: in some haunts monsters attack the traitor


def test_the_data_format_checks_ranged(tmp_path: Path) -> None:
    d = data.load(Path(_ranged_swarm(tmp_path)))
    assert d.haunt(4).monsters[0].ranged is True
    assert data.of({"data": None}).haunt(4).monsters[0].ranged is False


def haunted_with(directory: str) -> Table:
    """haunted(), with a table's own data."""
    t = Table(FOUR, today="03-01", data=directory)
    t.explore("kitchen").do("table", "card.reveal", card="rope").do("ana", "turn.end")
    t.do("ben", "move", to="kitchen").do("ben", "turn.end")
    t.do("chai", "move", to="kitchen").do("chai", "turn.end")
    t.do("dao", "turn.end")
    t.omen("sling", "conservatory", [0] * 6)
    assert (t.state["haunt"]["number"], t.state["haunt"]["traitor"]) == (4, "ana")
    return t
