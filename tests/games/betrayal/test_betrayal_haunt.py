"""The haunt roll, the haunt table and every traitor rule with its ties, the haunt's turn order and
each side's goals (B3.1-B3.3), computed by hand from the rulings and the sample data.

Sample starting values used below (characters.toml): sanity vera 3, mina 4, tobias 4, lin 4; might
vera 3, mina 3, tobias 3, lin 4; knowledge vera 4, mina 4, tobias 3, lin 3. Birthdays: vera 03-14,
mina 07-21, tobias 01-09, lin 05-30, otto 11-02. Row `lantern` of the haunt table: chapel 1, attic 2,
vault 3, conservatory 4, crypt 5, gallery 6.
"""

from __future__ import annotations

import json

import pytest

from tests.kits.betrayal_table import GAME, Table, haunt_in

FOUR = ["vera", "mina", "tobias", "lin"]  # seats ana, ben, chai, dao


def test_b3_1_a_total_equal_to_the_omen_count_does_not_start_the_haunt_and_a_lower_one_does() -> None:
    t = Table(FOUR, today="03-01")  # B1.2: vera (ana) has the next birthday
    assert t.turn == "ana"
    t.omen("lantern", "conservatory", [1, 0, 0, 0, 0, 0])  # 1 omen, total 1: not lower
    assert t.state["haunt"] is None and t.state["omens"] == 1
    assert t.state["moment"] == {"kind": "haunt_roll", "player": "ana", "dice": [1, 0, 0, 0, 0, 0], "total": 1,
                                 "omens": 1, "haunt": False, "at": t.at}
    assert t.turn == "ben"  # play goes left
    t.omen("locket", "chapel", [1, 0, 0, 0, 0, 0])  # 2 omens, total 1: lower, the haunt starts
    assert t.state["haunt"]["revealer"] == "ben"
    # B3.2: the omen that started it (locket) in the room it was drawn in (chapel) -> 6 (no traitor)
    assert t.state["haunt"]["number"] == 6 and t.state["haunt"]["traitor"] is None
    assert ("betrayal.no_traitor", {}) in t.said()


def test_b3_1_no_haunt_roll_in_a_turn_without_an_omen() -> None:
    t = Table(FOUR, today="03-01")
    t.explore("kitchen").do("table", "card.reveal", card="rope").do("ana", "turn.end")
    assert GAME.phase(t.state) == "turn" and t.turn == "ben"


def test_b3_1_the_haunt_roll_takes_six_real_dice_of_zero_to_two() -> None:
    t = Table(FOUR, today="03-01")
    t.explore("conservatory").do("table", "card.reveal", card="lantern").do("ana", "turn.end")
    assert t.refused("ana", "haunt.roll", dice=[0, 0, 0]) == "reject.betrayal_dice_count"
    assert t.refused("ana", "haunt.roll", dice=[3, 0, 0, 0, 0, 0]) == "reject.bad_argument"
    t.do("ana", "haunt.roll")  # seeded dice
    faces = t.state["moment"]["dice"]
    assert len(faces) == 6 and set(faces) <= {0, 1, 2}
    assert t.state["moment"]["haunt"] == (sum(faces) < 1)


@pytest.mark.parametrize(("today", "revealer", "traitor"), [
    ("03-01", "ana", "ben"),    # vera reveals with sanity 3; mina, tobias, lin tie at 4: nearest left is ben
    ("01-01", "chai", "chai"),  # tobias reveals and ties at 4: the revealer first
    ("05-01", "dao", "dao"),    # lin reveals with 4
    ("07-01", "ben", "ben"),    # mina reveals with 4
])
def test_b3_2_highest_trait_ties_go_to_the_revealer_then_left(today: str, revealer: str, traitor: str) -> None:
    t = haunt_in(Table(FOUR, today=today), "lantern", "vault")  # haunt 3: highest sanity
    assert t.state["haunt"]["number"] == 3
    assert (t.state["haunt"]["revealer"], t.state["haunt"]["traitor"]) == (revealer, traitor)


@pytest.mark.parametrize(("today", "traitor"), [
    ("03-01", "ana"),  # vera reveals with might 3, the lowest (tied with mina and tobias): the revealer
    ("05-01", "ana"),  # lin reveals with 4; vera, mina, tobias tie at 3: nearest to dao's left wraps to ana
    ("07-01", "ben"),  # mina reveals with 3: the revealer
])
def test_b3_2_lowest_trait_ties(today: str, traitor: str) -> None:
    t = haunt_in(Table(FOUR, today=today), "lantern", "conservatory")  # haunt 4: lowest might
    assert t.state["haunt"]["number"] == 4 and t.state["haunt"]["traitor"] == traitor


def test_b3_2_a_named_character_in_play_is_the_traitor() -> None:
    t = haunt_in(Table(["mina", "otto", "tobias", "lin"], today="03-01"), "lantern", "chapel")  # haunt 1
    assert t.state["haunt"]["number"] == 1 and t.state["haunt"]["traitor"] == "ben"  # otto's player


@pytest.mark.parametrize(("today", "traitor"), [
    ("05-01", "ana"),  # otto not playing: fallback highest knowledge; lin (dao) reveals with 3; vera and mina
                       # have 4: nearest to dao's left is ana
    ("07-01", "ben"),  # mina reveals with 4: the revealer first
])
def test_b3_2_a_named_character_not_playing_falls_back(today: str, traitor: str) -> None:
    t = haunt_in(Table(FOUR, today=today), "lantern", "chapel")
    assert t.state["haunt"]["number"] == 1 and t.state["haunt"]["traitor"] == traitor


def test_b3_2_the_revealer_is_the_traitor() -> None:
    t = haunt_in(Table(FOUR, today="05-01"), "lantern", "attic")  # haunt 2
    assert t.state["haunt"]["number"] == 2 and t.state["haunt"]["traitor"] == "dao"


@pytest.mark.parametrize(("today", "traitor"), [("03-01", "ben"), ("05-01", "ana")])  # dao's left wraps to ana
def test_b3_2_the_player_to_the_revealers_left(today: str, traitor: str) -> None:
    t = haunt_in(Table(FOUR, today=today), "lantern", "crypt")  # haunt 5
    assert t.state["haunt"]["number"] == 5 and t.state["haunt"]["traitor"] == traitor


def test_b3_3_after_the_haunt_heroes_from_the_traitors_left_then_the_traitor_then_the_monsters() -> None:
    t = haunt_in(Table(FOUR, today="03-01"), "lantern", "crypt")  # haunt 5: traitor ben (ana's left)
    public = GAME.view_public(t.state)
    assert public["order"] == ["chai", "dao", "ana", "ben", "@monsters"]
    assert t.turn == "chai"
    for pid in ("chai", "dao", "ana"):
        t.do(pid, "turn.end")
    assert t.turn == "ben"
    t.do("ben", "monster.place", kind="puppet", room="front_hall").do("ben", "turn.end")
    assert GAME.phase(t.state) == "monsters" and GAME.current_player(t.state) == "ben"
    t.do("ben", "monsters.done")
    assert t.turn == "chai"


def test_b3_3_with_no_traitor_the_host_plays_the_monsters_after_every_hero() -> None:
    t = haunt_in(Table(FOUR, today="03-01"), "lantern", "gallery")  # haunt 6: no traitor, ana reveals
    assert GAME.view_public(t.state)["order"] == ["ben", "chai", "dao", "ana", "@monsters"]
    for pid in ("ben", "chai", "dao", "ana"):
        t.do(pid, "turn.end")
    assert GAME.phase(t.state) == "monsters" and GAME.current_player(t.state) is None
    assert t.refused("ana", "monsters.done") == "reject.not_your_turn"
    t.do("host", "monsters.done")
    assert t.turn == "ben"


def goals(number: int) -> tuple[dict[str, str], dict[str, str]]:
    from companion.games.betrayal import data

    g = data.cached(str(data.bundled_dir())).haunt(number).goals
    return g.heroes.model_dump(), g.traitor.model_dump()


def test_b3_3_each_side_sees_only_its_own_goals() -> None:
    t = Table(FOUR, today="03-01")
    assert all(GAME.view_player(t.state, p)["goals"] is None for p in t.state["seats"])
    haunt_in(t, "lantern", "crypt")  # haunt 5, traitor ben
    heroes, traitor = goals(5)
    assert GAME.view_player(t.state, "ben") == {"side": "traitor", "goals": traitor, "character": "mina"}
    for pid in ("ana", "chai", "dao"):
        assert GAME.view_player(t.state, pid)["goals"] == heroes
    texts = [*heroes.values(), *traitor.values()]
    for view in (GAME.view_public(t.state), GAME.view_host(t.state)):
        dumped = json.dumps(view, ensure_ascii=False)
        assert not [x for x in texts if x in dumped]
    mine = json.dumps(GAME.view_player(t.state, "ben"), ensure_ascii=False)
    assert not [x for x in heroes.values() if x in mine]
    yours = json.dumps(GAME.view_player(t.state, "ana"), ensure_ascii=False)
    assert not [x for x in traitor.values() if x in yours]


def test_b3_3_the_host_says_who_won() -> None:
    t = haunt_in(Table(FOUR, today="03-01"), "lantern", "crypt")  # traitor ben
    t.do("host", "haunt.end", winner="traitor")
    assert GAME.result(t.state) == {"ranking": [["ben"], ["ana", "chai", "dao"]], "winner": "traitor",
                                    "winners": ["ben"]}
    t2 = haunt_in(Table(FOUR, today="03-01"), "lantern", "gallery")  # no traitor
    assert t2.refused("host", "haunt.end", winner="traitor") == "reject.betrayal_no_traitor"
    t2.do("host", "haunt.end", winner="none")
    assert GAME.result(t2.state)["winners"] == []


def test_the_haunt_is_a_moment_the_kiosk_can_show() -> None:
    t = haunt_in(Table(FOUR, today="03-01"), "lantern", "crypt")
    said = [m for m, _ in t.said()]
    i = said.index("betrayal.haunt_roll")
    assert said[i + 1:i + 3] == ["betrayal.haunt_revealed", "betrayal.traitor_named"]
    moment = GAME.view_public(t.state)["moment"]
    assert moment["haunt"] is True and moment["number"] == 5 and moment["total"] == 0


def test_b3_1_the_table_may_enter_just_the_total_of_its_real_dice() -> None:
    t = Table(FOUR, today="03-01")
    t.explore("conservatory").do("table", "card.reveal", card="lantern").do("ana", "turn.end")
    labels = [p.label for p in GAME.prompts(t.state, "player:ana")]
    assert labels[:2] == ["betrayal.prompt.haunt_roll", "betrayal.prompt.haunt_roll_real"]
    # then the rolls the house may force at any time (issue 21: the referee accepts them here too)
    assert set(labels[2:]) == {"betrayal.prompt.roll_forced", "betrayal.prompt.roll_real_trait"}
    assert t.refused("ana", "haunt.roll", dice=[0] * 6, total=0) == "reject.betrayal_dice_or_total"
    assert t.refused("ana", "haunt.roll", total=13) == "reject.bad_argument"
    t.do("ana", "haunt.roll", total=1)  # equal to the one omen: no haunt
    assert t.state["haunt"] is None and t.state["moment"]["dice"] is None and t.state["moment"]["total"] == 1
    assert ("betrayal.haunt_roll_real", {"player": "ana", "total": 1, "omens": 1}) in t.said()


def test_b1_3_a_trait_roll_total_cannot_exceed_two_per_die() -> None:
    t = Table(FOUR, today="03-01")  # vera: might 3, three dice
    assert t.refused("ana", "trait.roll", trait="might", total=7) == "reject.betrayal_dice_total"
    t.do("ana", "trait.roll", trait="might", total=6)
    assert t.state["last_roll"] == {"player": "ana", "trait": "might", "dice": None, "total": 6, "voluntary": False}
    assert "trait.roll" in [p.move for p in GAME.prompts(t.state, "player:ben")]  # forced rolls for anyone
