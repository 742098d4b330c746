"""The house as a graph (issue 31), from the rule text (seeds/003, "人物移动时只有穿越门扉、梯级、或特殊通道方可
进入另一房间": rooms join through doorways, stairs or special passages; "怪物可在下台阶，经煤導槽由地下攀爬回地面
楼层": monsters climb back up the coal chute) and B2.1 (rulings/betrayal.md).

Sample data (house.toml): the front hall has 3 doorways (its stair up and cellar door are links, not
doorways); the parlour 4 doorways (an event), the laundry 4 (no card), the bathroom 1 (an event), the
chapel 1 (an omen). Vera (ana) has speed 4.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from companion.core.gamedata import GameDataError
from companion.games.betrayal import data
from tests.kits.betrayal_table import GAME, Table

FOUR = ["vera", "mina", "tobias", "lin"]


def _parlour_then_laundry() -> Table:
    """Ana lays the parlour off the front hall and draws its event; ben then explores off the front
    hall too and the table lays the laundry."""
    t = Table(FOUR, today="03-01")
    t.explore("parlour").do("table", "card.reveal", card="flicker").do("ana", "turn.end")
    return t.do("ben", "explore")


def test_a_laid_tile_whose_doorway_faces_another_rooms_doorway_joins_both() -> None:
    t = _parlour_then_laundry()
    t.do("table", "room.reveal", room="laundry", joins=["parlour"])
    rooms = GAME.view_public(t.state)["rooms"]
    assert sorted(rooms["laundry"]["joins"]) == ["front_hall", "parlour"]
    assert "laundry" in rooms["parlour"]["joins"]
    assert rooms["parlour"]["open_doors"] == 2  # 4 doorways: the front hall's and the laundry's used
    assert rooms["laundry"]["open_doors"] == 2
    t.do("ben", "move", to="parlour")  # the laundry shows no card: ben walks on through the shared doorway
    assert t.state["explorers"]["ben"]["room"] == "parlour"


def test_a_stated_join_is_checked_against_the_doorways() -> None:
    t = _parlour_then_laundry()
    # the bathroom has one doorway, used by the front hall it was explored from
    assert t.refused("table", "room.reveal", room="bathroom", joins=["parlour"]) == "reject.betrayal_wrong_floor"
    assert t.refused("table", "room.reveal", room="laundry", joins=["attic"]) == "reject.betrayal_join_not_laid"
    assert t.refused("table", "room.reveal", room="laundry", joins=["upper_stair"]) == "reject.betrayal_join_floor"
    assert t.refused("table", "room.reveal", room="laundry", joins=["front_hall"]) == "reject.betrayal_join_twice"
    assert t.refused("table", "room.reveal", room="laundry", joins=["parlour", "parlour"]) == \
        "reject.betrayal_join_twice"
    assert t.refused("table", "room.reveal", room="conservatory", joins=["parlour", "front_hall"]) == \
        "reject.betrayal_join_twice"
    # a one-doorway tile (the chapel) has no doorway left for a second neighbour
    assert t.refused("table", "room.reveal", room="chapel", joins=["parlour"]) == "reject.betrayal_join_doorways"
    assert GAME.phase(t.state) == "room"


def test_a_join_needs_an_open_doorway_in_the_neighbour() -> None:
    t = Table(FOUR, today="03-01")
    t.explore("chapel").do("table", "card.reveal", card="lantern").do("ana", "turn.end")
    t.do("ana", "haunt.roll", dice=[2] * 6)  # 12 is not lower than 1 omen: no haunt
    t.do("ben", "explore")
    # the chapel's only doorway joins the front hall already
    assert t.refused("table", "room.reveal", room="laundry", joins=["chapel"]) == "reject.betrayal_join_closed"


def _with_coal_chute(tmp_path: Path, passage: str) -> str:
    """The sample house with its coal chute's passage replaced by `passage`."""
    shutil.copytree(data.bundled_dir(), tmp_path / "set")
    house = tmp_path / "set" / "house.toml"
    text = house.read_text(encoding="utf-8")
    assert ONE_WAY in text
    house.write_text(text.replace(ONE_WAY, passage), encoding="utf-8")
    return str(tmp_path / "set")


ONE_WAY = 'passages = [{ from = "coal_chute", to = "cellar_steps", one_way = true, monsters_climb = true }]'


def test_the_sample_house_has_the_rule_texts_coal_chute() -> None:
    house = data.of({"data": None}).house
    assert [(p.start, p.to, p.one_way, p.monsters_climb) for p in house.passages] == [
        ("coal_chute", "cellar_steps", True, True)]
    chute = next(r for r in house.rooms if r.id == "coal_chute")
    assert chute.floors == ["ground"] and chute.card is None


def test_the_coal_chute_goes_down_only_and_monsters_climb_back() -> None:
    """The sample house as shipped: an explorer slides down the chute and never back up it (a special
    passage, one way); a monster at the cellar steps climbs back up it (the rule text)."""
    t = Table(FOUR, today="03-01")
    t.explore("coal_chute")  # no card: ana moves on
    assert GAME.view_public(t.state)["rooms"]["coal_chute"]["joins"] == ["front_hall", "cellar_steps"]
    assert "coal_chute" not in GAME.view_public(t.state)["rooms"]["cellar_steps"]["joins"]
    t.do("ana", "move", to="cellar_steps")  # down the chute
    assert t.refused("ana", "move", to="coal_chute") == "reject.betrayal_not_joined"  # never back up
    t.do("ana", "turn.end")
    # haunt 5 (lantern x crypt, the player to the revealer's left): chai is the traitor with two puppets
    t.do("ben", "move", to="cellar_steps").omen("lantern", "crypt", [0] * 6)
    assert t.state["haunt"]["traitor"] == "chai"
    t.do("chai", "monster.place", kind="puppet", room="cellar_steps")
    for pid in ("dao", "ana", "ben", "chai"):
        t.do(pid, "turn.end")
    assert GAME.phase(t.state) == "monsters"
    t.do("chai", "monster.roll", kind="puppet", total=2)
    t.do("chai", "monster.move", monster="puppet1", to="coal_chute")  # B5: monsters climb back up
    assert t.state["monsters"]["puppet1"]["room"] == "coal_chute"


def test_a_two_way_passage_joins_both_ways_once_both_rooms_are_laid(tmp_path: Path) -> None:
    both = 'passages = [{ from = "coal_chute", to = "cellar_steps" }]'
    t = Table(FOUR, today="03-01", data=_with_coal_chute(tmp_path, both))
    assert "coal_chute" not in t.state["rooms"]
    t.explore("coal_chute").do("ana", "move", to="cellar_steps").do("ana", "move", to="coal_chute")
    assert t.state["explorers"]["ana"]["room"] == "coal_chute"


def test_a_passage_naming_an_unknown_room_is_refused(tmp_path: Path) -> None:
    bad = _with_coal_chute(tmp_path, 'passages = [{ from = "coal_chute", to = "cellar" }]')
    try:
        data.load(Path(bad))
    except GameDataError as err:
        assert "cellar" in str(err)
    else:
        raise AssertionError("an unknown room in a passage was accepted")


# -- placing an explorer (an event, a collapsing room, the host's correction) ------------------------------


def test_an_event_moves_an_explorer_to_a_laid_room_without_a_draw() -> None:
    t = Table(FOUR, today="03-01")
    t.explore("parlour").do("table", "card.reveal", card="whisper")
    t.do("ana", "explorer.place", player="ana", room="cellar_steps")
    assert t.state["explorers"]["ana"]["room"] == "cellar_steps" and GAME.phase(t.state) == "turn"
    assert t.refused("ana", "move", to="front_hall") == "reject.betrayal_stopped"  # still stopped by the card
    assert ("betrayal.placed", {"player": "ana", "room": "kind.betrayal.room.cellar_steps"}) in t.said()
    assert t.refused("ben", "explorer.place", player="ana", room="front_hall") == "reject.not_your_turn"
    assert t.refused("ana", "explorer.place", player="ben", room="front_hall") == "reject.not_yours"
    assert t.refused("ana", "explorer.place", player="ana", room="attic") == "reject.betrayal_unknown_room"


def test_a_collapse_drops_an_explorer_into_a_new_room_whose_card_is_drawn() -> None:
    """The rule text: "因事件牌的效果人物可能会被移到另一新摆放的房间。
    若新摆放的房间印有任何卡片标记玩家亦需翻开另一张卡片"."""
    t = Table(FOUR, today="03-01")
    t.explore("parlour").do("table", "card.reveal", card="flicker")
    t.do("ana", "explorer.place", player="ana", floor="basement")
    assert GAME.phase(t.state) == "room" and t.state["pending"]["floor"] == "basement"
    assert t.refused("table", "room.reveal", room="attic") == "reject.betrayal_wrong_floor"
    t.do("table", "room.reveal", room="crypt", joins=["cellar_steps"])
    assert t.state["explorers"]["ana"]["room"] == "crypt"
    assert GAME.phase(t.state) == "card" and t.state["pending"]["card"] == "omen"
    t.do("table", "card.reveal", card="mask")
    assert t.state["explorers"]["ana"]["cards"] == ["mask"] and t.state["omens"] == 1
    assert GAME.view_public(t.state)["turn"]["spent"] == 1  # the event's move costs no speed
    t.do("ana", "turn.end")
    assert GAME.phase(t.state) == "haunt_roll"  # the omen still brings the haunt roll (B3.1)


def test_the_host_corrects_where_any_explorer_stands() -> None:
    t = Table(FOUR, today="03-01")
    t.do("host", "explorer.place", player="chai", room="upper_stair")
    assert t.state["explorers"]["chai"]["room"] == "upper_stair"
    assert t.turn == "ana" and GAME.view_public(t.state)["turn"]["spent"] == 0


def test_companion_games_betrayal_describes_the_new_inputs() -> None:
    import re

    from click.testing import CliRunner

    from companion.cli import main

    def block(out: str, move: str) -> str:
        return re.split(r"\n  (?! )", out.split(f"  {move} ", 1)[1], maxsplit=1)[0]

    for lang, word in (("en", "new room"), ("zh", "新房间"), ("th", "ห้องใหม่")):
        out = CliRunner().invoke(main, ["games", "betrayal", "--lang", lang]).output
        place = block(out, "explorer.place")
        assert "player: " in place and "room: " in place and "floor: " in place and word in place
        assert "joins: " in block(out, "room.reveal")
        roll = block(out, "monster.roll")
        assert "kind: " in roll and "total: " in roll
        assert "ranged" in block(out, "monster.attack")


def test_a_join_seen_later_is_stated_for_the_room_one_stands_in() -> None:
    """A tile laid by a token's tap joins only the room explored from; the explorer (or the host) then
    says which other doorways of their room face a laid room's open doorway."""
    t = _parlour_then_laundry()
    t.do("table", "room.reveal", room="laundry")  # as a tap does: no further joins
    assert t.refused("ben", "move", to="parlour") == "reject.betrayal_not_joined"
    assert t.refused("ben", "room.join", joins=["attic"]) == "reject.betrayal_join_not_laid"
    assert t.refused("ben", "room.join", joins=["front_hall"]) == "reject.betrayal_join_twice"
    assert t.refused("ben", "room.join", joins=["upper_stair"]) == "reject.betrayal_join_floor"
    assert t.refused("ana", "room.join", joins=["parlour"]) == "reject.not_your_turn"
    forms = [p.to_json() for p in GAME.prompts(t.state, "player:ben") if p.move == "room.join"]
    assert [c["value"] for c in forms[0]["fields"][0]["choices"]] == ["parlour"]
    t.do("ben", "room.join", joins=["parlour"])
    assert ("betrayal.rooms_joined", {"room": "kind.betrayal.room.laundry",
                                      "other": "kind.betrayal.room.parlour"}) in t.said()
    t.do("ben", "move", to="parlour")
    assert t.state["explorers"]["ben"]["room"] == "parlour"
    assert GAME.view_public(t.state)["rooms"]["parlour"]["open_doors"] == 2
