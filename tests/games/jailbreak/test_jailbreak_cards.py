"""Every card of the text, one by one, with results worked out by hand from the rule text and the
rulings (J2.2-J2.6). Five players: ana (badge) and ben (pistol) are sheriffs; chai, dao, eli prisoners.
Ana starts; then eli, dao, chai, ben (counter-clockwise, J1.4)."""

from __future__ import annotations

from tests.kits.jailbreak_table import GAME, Table


def to(t: Table, pid: str) -> Table:
    """End turns until it is `pid`'s action phase."""
    while t.turn() != pid:
        t.send(t.turn(), "turn.end")
    assert t.phase() == "action"
    return t


# -- attack cards (J2.4, J2.5) ----------------------------------------------------------------------------


def test_j2_5_knife_takes_a_card_from_the_target() -> None:
    t = to(Table(), "eli").hands(eli=3, dao=2)
    t.send("eli", "attack", card="knife", target="dao")
    assert t.phase() == "response" and GAME.current_player(t.s) == "dao"  # the target answers
    t.send("dao", "attack.take")
    # eli: 3 - knife + dao's card = 3; dao: 2 - 1 = 1
    assert (t.p("eli")["hand"], t.p("dao")["hand"]) == (3, 1)
    assert t.phase() == "action" and t.said()[-1] == "jailbreak.card_taken"


def test_j2_5_knife_on_an_empty_hand_takes_nothing() -> None:
    t = to(Table(), "eli").hands(eli=2, dao=0)
    t.send("eli", "attack", card="knife", target="dao").send("dao", "attack.take")
    assert (t.p("eli")["hand"], t.p("dao")["hand"]) == (1, 0)
    assert t.said()[-1] == "jailbreak.nothing_to_take"


def test_j2_4_knife_and_pipe_only_in_the_same_scene() -> None:
    t = to(Table(), "eli").put(eli=2, dao=3, chai=2)
    assert t.refused("eli", "attack", card="knife", target="dao") == "reject.jailbreak_out_of_range"
    assert t.refused("eli", "attack", card="steel_pipe", target="dao") == "reject.jailbreak_out_of_range"
    t.send("eli", "attack", card="knife", target="chai")  # same scene: fine
    assert t.phase() == "response"


def test_j2_5_steel_pipe_flips_the_target_who_skips_the_next_turn() -> None:
    t = to(Table(), "eli")
    t.send("eli", "attack", card="steel_pipe", target="dao").send("dao", "attack.take")
    assert t.p("dao")["flipped"] is True
    hand, deck = t.p("dao")["hand"], t.s["deck"]
    t.send("eli", "turn.end")  # dao is next: flips back, skips the whole turn (J2.1), no draw
    assert t.turn() == "chai" and t.p("dao")["flipped"] is False
    assert t.p("dao")["hand"] == hand and t.s["deck"] == deck - 2  # only chai drew
    assert "jailbreak.turn_skipped" in t.said()


def test_j2_5_a_second_pipe_turns_the_card_face_up_and_its_owner_plays_the_next_turn() -> None:
    """J2.5 as amended: flipping turns the card over either way; a second flip before the skipped turn
    turns it face up again, so that player plays their next turn as usual (J2.1 skips only a card face
    down when its owner's turn starts)."""
    t = to(Table(), "eli").send("eli", "card.use", card="vodka")
    t.send("eli", "attack", card="steel_pipe", target="dao").send("dao", "attack.take")
    assert t.p("dao")["flipped"] is True and t.said()[-1] == "jailbreak.flipped"
    t.send("eli", "attack", card="steel_pipe", target="dao").send("dao", "attack.take")
    assert t.p("dao")["flipped"] is False and t.said()[-1] == "jailbreak.flipped_up"
    hand, deck = t.p("dao")["hand"], t.s["deck"]
    t.send("eli", "turn.end")  # dao is next and plays: draws 2, action phase, nothing skipped
    assert t.turn() == "dao" and t.phase() == "action"
    assert t.p("dao")["hand"] == hand + 2 and t.s["deck"] == deck - 2
    assert "jailbreak.turn_skipped" not in t.said()


def test_j2_5_a_third_pipe_turns_the_card_face_down_again() -> None:
    """J2.5: each flip turns the card over; three flips leave it face down, and the turn is skipped."""
    t = to(Table(), "eli").hands(eli=6).send("eli", "card.use", card="vodka").send("eli", "card.use", card="vodka")
    for _ in range(3):
        t.send("eli", "attack", card="steel_pipe", target="dao").send("dao", "attack.take")
    assert t.p("dao")["flipped"] is True
    t.send("eli", "turn.end")
    assert t.turn() == "chai" and t.p("dao")["flipped"] is False and "jailbreak.turn_skipped" in t.said()


def test_j2_5_the_baton_flips_a_face_down_card_face_up() -> None:
    """J2.5: the baton's flip is a flip like the pipe's, so it turns a face-down card face up."""
    t = to(Table(5, equipment=[["badge"], ["baton"]]), "ben").hands(ben=4, chai=2)
    t.p("chai")["flipped"] = True
    t.send("ben", "attack", card="knife", target="chai").send("chai", "attack.take").send("ben", "baton.use")
    assert t.p("chai")["flipped"] is False and t.said()[-1] == "jailbreak.flipped_up_baton"


def test_j2_4_rope_reaches_an_adjacent_scene_and_pulls_the_target_in() -> None:
    t = to(Table(), "eli").put(eli=3, dao=4, chai=3, ben=5)
    assert t.refused("eli", "attack", card="rope", target="chai") == "reject.jailbreak_out_of_range"  # same scene
    assert t.refused("eli", "attack", card="rope", target="ben") == "reject.jailbreak_out_of_range"  # two away
    t.send("eli", "attack", card="rope", target="dao").send("dao", "attack.take")
    assert t.p("dao")["scene"] == 3


def test_j2_2_bullets_need_the_pistol() -> None:
    t = to(Table(), "eli")
    assert t.refused("eli", "attack", card="bullet", target="dao") == "reject.jailbreak_needs_pistol"
    t = to(Table(), "ben")  # ben holds the pistol
    t.send("ben", "attack", card="bullet", target="chai")
    assert t.phase() == "response"


def test_j2_2_j2_4_j2_5_any_number_of_bullets_on_one_target_each_a_scene_back() -> None:
    t = to(Table(), "ben").put(ben=3, chai=4, dao=1).hands(ben=5, chai=0)
    for scene in (3, 2, 1):  # scene 4 (adjacent), 3 (same), 2 (adjacent): each hit one scene back
        t.send("ben", "attack", card="bullet", target="chai").send("chai", "attack.take")
        assert t.p("chai")["scene"] == scene
    assert t.refused("ben", "attack", card="bullet", target="chai") == "reject.jailbreak_out_of_range"
    t.put(ben=1).send("ben", "attack", card="bullet", target="chai").send("chai", "attack.take")
    assert t.p("chai")["scene"] == 1  # never below scene 1
    assert t.p("ben")["hand"] == 1
    assert t.refused("ben", "attack", card="bullet", target="dao") == "reject.jailbreak_one_bullet_target"
    # bullets do not use the attack card of the turn: a knife is still allowed
    t.send("ben", "attack", card="knife", target="dao")
    assert t.phase() == "response"


def test_j2_4_the_pistol_does_not_reach_two_scenes() -> None:
    t = to(Table(), "ben").put(ben=1, chai=3)
    assert t.refused("ben", "attack", card="bullet", target="chai") == "reject.jailbreak_out_of_range"


def test_j2_2_one_attack_card_a_turn_and_one_more_with_vodka() -> None:
    t = to(Table(), "eli").hands(eli=5)
    t.send("eli", "attack", card="knife", target="dao").send("dao", "attack.take")
    assert t.refused("eli", "attack", card="steel_pipe", target="chai") == "reject.jailbreak_attack_limit"
    t.send("eli", "card.use", card="vodka")
    t.send("eli", "attack", card="steel_pipe", target="chai").send("chai", "attack.take")
    assert t.refused("eli", "attack", card="rope", target="chai") == "reject.jailbreak_attack_limit"


def test_attacks_need_another_player_and_a_card_in_hand() -> None:
    t = to(Table(), "eli")
    assert t.refused("eli", "attack", card="knife", target="eli") == "reject.jailbreak_not_yourself"
    assert t.refused("eli", "attack", card="knife", target="zed") == "reject.not_a_player"
    t.hands(eli=0)
    assert t.refused("eli", "attack", card="knife", target="dao") == "reject.jailbreak_empty_hand"


# -- trade cards (J2.6) ----------------------------------------------------------------------------------


def test_j2_6_a_trade_card_given_to_the_attacker_cancels_the_attack() -> None:
    t = to(Table(), "eli").hands(eli=3, dao=2)
    t.send("eli", "attack", card="steel_pipe", target="dao").send("dao", "attack.trade", card="cigarette")
    # eli: 3 - pipe + cigarette = 3; dao: 2 - 1 = 1; no flip; the attack card still counted
    assert (t.p("eli")["hand"], t.p("dao")["hand"], t.p("dao")["flipped"]) == (3, 1, False)
    assert t.refused("eli", "attack", card="knife", target="dao") == "reject.jailbreak_attack_limit"


def test_j2_6_each_bullet_is_cancelled_on_its_own() -> None:
    t = to(Table(), "ben").put(ben=2, chai=2).hands(ben=4, chai=1)
    t.send("ben", "attack", card="bullet", target="chai").send("chai", "attack.trade", card="bible")
    assert t.p("chai")["scene"] == 2
    t.send("ben", "attack", card="bullet", target="chai")
    assert t.moves("chai") == ["attack.take"]  # no card left to trade
    assert t.refused("chai", "attack.trade", card="cash") == "reject.jailbreak_empty_hand"
    t.send("chai", "attack.take")
    assert t.p("chai")["scene"] == 1


def test_only_the_target_answers_an_attack() -> None:
    t = to(Table(), "eli").send("eli", "attack", card="knife", target="dao")
    assert t.refused("chai", "attack.take") == "reject.not_your_turn"
    assert t.refused("eli", "turn.end") == "reject.wrong_phase"


def test_j2_2_cigarette_allows_one_more_key() -> None:
    t = to(Table(), "eli").hands(eli=5)
    t.send("eli", "key.use")
    assert t.refused("eli", "key.use") == "reject.jailbreak_key_limit"
    t.send("eli", "card.use", card="cigarette").send("eli", "key.use")
    assert t.p("eli")["scene"] == 3 and t.p("eli")["hand"] == 2


def test_cash_draws_two() -> None:
    t = to(Table(), "eli").hands(eli=1)
    deck = t.s["deck"]
    t.send("eli", "card.use", card="cash")
    assert t.p("eli")["hand"] == 2 and t.s["deck"] == deck - 2


def test_j2_6_bible_stops_sheriffs_until_the_start_of_the_owners_next_turn() -> None:
    t = to(Table(), "eli").send("eli", "card.use", card="bible")
    assert t.p("eli")["bible"] is True
    assert t.refused("eli", "card.use", card="bible") == "reject.jailbreak_bible_already"
    t.send("eli", "turn.end")
    t.send("dao", "attack", card="knife", target="eli").send("eli", "attack.take")  # a prisoner still may
    t.send("dao", "turn.end").send("chai", "turn.end")
    assert t.refused("ben", "attack", card="bullet", target="eli") == "reject.jailbreak_bible"
    assert t.refused("ben", "attack", card="knife", target="eli") == "reject.jailbreak_bible"
    t.send("ben", "turn.end").send("ana", "turn.end")
    assert t.turn() == "eli" and t.p("eli")["bible"] is False  # gone at the start of eli's turn
    assert "jailbreak.bible_discarded" in t.said()


# -- keys and scenes (J2.3, J3.1) ---------------------------------------------------------------------------


def test_j2_3_a_key_opens_the_next_scene_and_going_back_is_free() -> None:
    t = to(Table(), "eli").hands(eli=3)
    t.send("eli", "key.use")
    assert (t.p("eli")["scene"], t.p("eli")["hand"]) == (2, 2)
    t.send("eli", "scene.back")
    assert (t.p("eli")["scene"], t.p("eli")["hand"]) == (1, 2)
    assert t.refused("eli", "scene.back") == "reject.jailbreak_first_scene"
    # J2.3: the door locked again: back into scene 2 takes a key, and this turn's key is used
    assert t.refused("eli", "key.use") == "reject.jailbreak_key_limit"
    assert t.p("eli")["reached"] == 2  # the scene track still shows scene 2 was entered


def test_j3_1_a_prisoners_key_in_scene_6_escapes_and_the_prisoners_win() -> None:
    t = to(Table(), "dao").put(dao=6)
    t.send("dao", "key.use")
    result = t.s["finished"]
    assert result == {"winner": "prisoners", "reason": "escape", "escaped": "dao",
                      "ranking": [["chai", "dao", "eli"], ["ana", "ben"]]}
    assert t.s["ended"] is True and t.said()[-1] == "jailbreak.escaped"
    assert t.refused("dao", "turn.end") == "reject.game_over"


def test_j2_3_a_sheriff_cannot_go_past_scene_6() -> None:
    t = Table().put(ana=6)
    assert t.refused("ana", "key.use") == "reject.jailbreak_last_scene"
    assert t.refused("ana", "badge.use") == "reject.jailbreak_last_scene"


def test_j2_3_the_badge_enters_one_scene_without_a_key_once_a_game() -> None:
    t = Table()  # ana holds the badge
    hand = t.p("ana")["hand"]
    t.send("ana", "badge.use")
    assert t.p("ana")["scene"] == 2 and t.p("ana")["hand"] == hand
    t.send("ana", "key.use")  # the badge is not a key: the turn's key is still there
    assert t.p("ana")["scene"] == 3
    assert t.refused("ana", "badge.use") == "reject.jailbreak_badge_used"
    to(t, "ben")
    assert t.refused("ben", "badge.use") == "reject.jailbreak_no_badge"
