"""The turn (J2.1): flips, handcuffs (J2.7), the draw, the discard down to 5; the sheriffs' equipment
(badge, handcuffs, baton); and the sheriffs' win when the deck runs out (J3.2). Worked out by hand."""

from __future__ import annotations

from tests.kits.jailbreak_table import GAME, Table


def to(t: Table, pid: str) -> Table:
    while t.turn() != pid:
        t.send(t.turn(), "turn.end")
    return t


def cuffs_table() -> Table:
    """ana: badge; ben: handcuffs and ... (5 players: one piece each)."""
    return Table(5, equipment=[["badge"], ["handcuffs"]])


def test_j2_1_discard_down_to_five_at_the_end_of_the_turn() -> None:
    t = Table().hands(ana=8)
    t.send("ana", "turn.end")
    assert t.p("ana")["hand"] == 5
    assert "jailbreak.discarded" in t.said()
    t.hands(eli=3)
    t.send("eli", "turn.end")
    assert t.p("eli")["hand"] == 3  # under 5: nothing to discard


def test_j2_1_each_turn_draws_two() -> None:
    t = Table()
    deck, hand = t.s["deck"], t.p("eli")["hand"]
    t.send("ana", "turn.end")
    assert t.s["deck"] == deck - 2 and t.p("eli")["hand"] == hand + 2
    assert t.s["drawn"] + t.s["deck"] == t.s["deck_size"]


def test_handcuffs_go_on_a_player_in_the_same_scene_only() -> None:
    t = to(cuffs_table(), "ben").put(ben=2, chai=3, dao=2)
    assert t.refused("ben", "cuffs.place", target="chai") == "reject.jailbreak_cannot_cuff"
    assert t.refused("ben", "cuffs.place", target="ben") == "reject.jailbreak_cannot_cuff"
    t.send("ben", "cuffs.place", target="dao")
    assert t.p("dao")["cuffed_by"] == "ben"
    assert t.refused("ben", "cuffs.place", target="dao") == "reject.jailbreak_cuffs_out"
    assert "cuffs.place" not in t.moves("ben")


def test_only_the_sheriff_with_the_handcuffs_places_them() -> None:
    t = to(cuffs_table(), "eli")
    assert t.refused("eli", "cuffs.place", target="dao") == "reject.jailbreak_no_handcuffs"


def test_j2_1_a_cuffed_player_without_a_key_skips_the_action_phase_but_draws() -> None:
    t = to(cuffs_table(), "ben").put(ben=1)
    t.send("ben", "cuffs.place", target="ana")
    t.send("ben", "turn.end")
    assert t.turn() == "ana" and t.phase() == "cuffs"
    hand = t.p("ana")["hand"]
    assert t.refused("ana", "key.use") == "reject.wrong_phase"
    t.send("ana", "cuffs.stay")
    assert t.p("ana")["hand"] == min(5, hand + 2)  # drew 2, then discarded down to 5
    assert t.turn() == "eli" and t.p("ana")["cuffed_by"] == "ben"  # still cuffed
    assert "jailbreak.action_skipped" in t.said()


def test_j2_1_j2_7_own_key_opens_the_cuffs_they_return_and_the_turn_goes_on() -> None:
    t = to(cuffs_table(), "ben")
    t.send("ben", "cuffs.place", target="ana").send("ben", "turn.end")
    hand, deck = t.p("ana")["hand"], t.s["deck"]
    t.send("ana", "cuffs.unlock")
    assert t.p("ana")["cuffed_by"] is None and t.phase() == "action"
    assert t.p("ana")["hand"] == hand - 1 + 2 and t.s["deck"] == deck - 2
    # the key counted as this turn's key (J2.2)
    assert t.refused("ana", "key.use") == "reject.jailbreak_key_limit"
    t.send("ana", "turn.end")
    to(t, "ben")
    t.send("ben", "cuffs.place", target="ana")  # J2.7: back with ben, usable again
    assert t.p("ana")["cuffed_by"] == "ben"


def test_j2_1_a_player_in_the_same_scene_may_use_a_key_on_the_cuffs() -> None:
    t = to(cuffs_table(), "ben").put(ben=2, ana=2, chai=2, dao=3)
    t.send("ben", "cuffs.place", target="ana").send("ben", "turn.end")
    assert t.refused("dao", "cuffs.unlock") == "reject.jailbreak_cannot_unlock"  # another scene
    assert [p.move for p in GAME.prompts(t.s, "player:chai")] == ["cuffs.unlock"]
    hand = t.p("chai")["hand"]
    t.send("chai", "cuffs.unlock")
    assert t.p("chai")["hand"] == hand - 1 and t.p("ana")["cuffed_by"] is None
    t.send("ana", "key.use")  # a helper's key leaves ana's key for the turn
    assert t.p("ana")["scene"] == 3


def test_j2_5_baton_turns_a_knife_hit_into_a_flip() -> None:
    t = to(Table(5, equipment=[["badge"], ["baton"]]), "ben").hands(ben=3, chai=2)
    t.send("ben", "attack", card="knife", target="chai").send("chai", "attack.take")
    assert t.phase() == "baton" and GAME.current_player(t.s) == "ben"
    t.send("ben", "baton.use")
    # ben: 3 - knife - discarded card = 1; chai keeps both cards but is face down
    assert (t.p("ben")["hand"], t.p("chai")["hand"], t.p("chai")["flipped"]) == (1, 2, True)
    assert t.said()[-1] == "jailbreak.flipped_baton"


def test_j2_5_baton_may_be_left_and_the_card_taken() -> None:
    t = to(Table(5, equipment=[["badge"], ["baton"]]), "ben").hands(ben=3, chai=2)
    t.send("ben", "attack", card="knife", target="chai").send("chai", "attack.take").send("ben", "baton.pass")
    assert (t.p("ben")["hand"], t.p("chai")["hand"], t.p("chai")["flipped"]) == (3, 1, False)


def test_j2_5_no_baton_choice_without_a_card_to_discard() -> None:
    t = to(Table(5, equipment=[["badge"], ["baton"]]), "ben").hands(ben=1, chai=2)
    t.send("ben", "attack", card="knife", target="chai").send("chai", "attack.take")
    assert t.phase() == "action" and t.p("ben")["hand"] == 1


def test_j3_2_the_sheriffs_win_when_the_deck_must_be_drawn_from_and_is_empty() -> None:
    t = Table()
    t.s["deck"] = 3
    t.s["drawn"] = t.s["deck_size"] - 3
    t.send("ana", "turn.end")  # eli draws 2: one left
    assert t.s["deck"] == 1 and t.s["finished"] is None
    t.send("eli", "turn.end")  # dao draws 1, then must draw from an empty deck
    assert t.s["deck"] == 0 and t.p("dao")["hand"] == 5
    assert t.s["finished"] == {"winner": "sheriffs", "reason": "deck", "escaped": None,
                               "ranking": [["ana", "ben"], ["chai", "dao", "eli"]]}
    assert t.said()[-1] == "jailbreak.deck_out"
    assert t.refused("dao", "turn.end") == "reject.game_over"


def test_j3_2_an_empty_deck_is_not_a_loss_until_someone_must_draw() -> None:
    t = to(Table(), "eli").hands(eli=5)
    t.s["deck"] = 0
    t.send("eli", "key.use")  # playing on is fine
    assert t.s["finished"] is None
    t.send("eli", "card.use", card="cash")  # the cash draw finds the deck empty
    assert t.s["finished"]["winner"] == "sheriffs"


def test_j2_1_a_flipped_first_in_a_row_is_skipped_and_the_next_one_plays() -> None:
    t = Table()
    t.p("eli")["flipped"] = True
    t.p("dao")["flipped"] = True
    t.send("ana", "turn.end")
    assert t.turn() == "chai" and not t.p("eli")["flipped"] and not t.p("dao")["flipped"]
    assert t.said().count("jailbreak.turn_skipped") == 2


def test_j2_1_when_everyone_else_is_skipped_the_same_player_plays_again() -> None:
    t = Table(3).hands(ana=7)  # ana (sheriff), ben, chai; ccw from ana: chai, ben
    t.p("ben")["flipped"] = True
    t.p("chai")["flipped"] = True
    deck = t.s["deck"]
    t.send("ana", "turn.end")  # discard to 5, chai and ben skipped, ana's next turn draws 2
    assert t.turn() == "ana" and t.p("ana")["hand"] == 7 and t.s["deck"] == deck - 2
    assert t.s["turn"]["number"] == 4  # ana 1, chai 2 (skipped), ben 3 (skipped), ana 4
