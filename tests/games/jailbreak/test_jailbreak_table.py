"""The table side of Jailbreak: prompts, card tokens, the turn timer (and what its expiry does), a
restart, and the views (the rng seed, the one secret, never in a public output)."""

from __future__ import annotations

import json

import pytest

from companion import i18n
from companion.core.inputs import Input
from tests.kits.jailbreak_table import GAME, Table


def to(t: Table, pid: str) -> Table:
    while t.turn() != pid:
        t.send(t.turn(), "turn.end")
    return t


def test_the_action_prompts_offer_what_the_rules_allow() -> None:
    t = to(Table(), "eli").put(eli=2, dao=2, chai=3, ana=4, ben=4)
    prompts = {p.move: p for p in GAME.prompts(t.s, "player:eli")}
    assert set(prompts) == {"key.use", "attack", "card.use", "scene.back", "turn.end"}
    attacks = [p for p in GAME.prompts(t.s, "player:eli") if p.move == "attack"]
    offered = {p.fixed["card"]: [c.value for c in p.fields[0].choices] for p in attacks}
    assert offered == {"knife": ["dao"], "steel_pipe": ["dao"], "rope": ["chai"]}  # no bullet without the pistol
    assert GAME.prompts(t.s, "player:dao") == []  # not dao's turn
    t.send("eli", "key.use")
    assert "key.use" not in [p.move for p in GAME.prompts(t.s, "player:eli")]


def test_the_badge_holder_is_offered_the_badge_until_it_is_used() -> None:
    t = Table()
    assert "badge.use" in t.moves("ana")
    t.send("ana", "badge.use")
    assert "badge.use" not in t.moves("ana")


def test_every_prompt_is_accepted_when_sent() -> None:
    t = to(Table(), "ben").put(ben=2, chai=2, dao=3)
    for p in GAME.prompts(t.s, "player:ben"):
        args = dict(p.fixed)
        for f in p.fields:
            args[f.name] = f.choices[0].value
        fresh = to(Table(), "ben").put(ben=2, chai=2, dao=3)
        fresh.send("ben", p.move, **args)  # raises if refused
        assert fresh.s != t.s


@pytest.mark.parametrize(("card", "expected"), [
    ("key", ("key.use", {})),
    ("cigarette", ("card.use", {"card": "cigarette"})),
    ("bible", ("card.use", {"card": "bible"})),
    ("knife", ("attack", {"card": "knife", "target": "dao"})),  # the only one in eli's scene
    ("steel_pipe", ("attack", {"card": "steel_pipe", "target": "dao"})),
    ("rope", None),  # nobody in an adjacent scene
    ("bullet", None),  # no pistol
    ("badge", None),  # not a card
])
def test_a_tapped_card_means_the_play_it_can_be(card: str, expected: object) -> None:
    t = to(Table(), "eli").put(eli=2, dao=2)
    assert GAME.on_token(t.s, "card", card, "player:eli") == expected
    assert GAME.on_token(t.s, "card", card, "player:dao") is None  # not dao's turn
    assert GAME.on_token(t.s, "card", card, "table") is None  # nobody identified
    assert GAME.on_token(t.s, "room", card, "player:eli") is None


def test_a_tapped_trade_card_answers_an_attack_and_a_key_opens_cuffs() -> None:
    t = to(Table(), "eli").send("eli", "attack", card="knife", target="dao")
    assert GAME.on_token(t.s, "card", "vodka", "player:dao") == ("attack.trade", {"card": "vodka"})
    assert GAME.on_token(t.s, "card", "key", "player:dao") is None
    c = to(Table(5, equipment=[["badge"], ["handcuffs"]]), "ben")
    c.send("ben", "cuffs.place", target="ana").send("ben", "turn.end")
    assert GAME.on_token(c.s, "card", "key", "player:ben") == ("cuffs.unlock", {})  # ben is in ana's scene
    assert GAME.on_token(c.s, "card", "key", "player:ana") == ("cuffs.unlock", {})


def test_phase_and_current_player() -> None:
    t = to(Table(), "eli")
    assert (GAME.phase(t.s), GAME.current_player(t.s)) == ("action", "eli")
    t.send("eli", "attack", card="knife", target="dao")
    assert (GAME.phase(t.s), GAME.current_player(t.s)) == ("response", "dao")
    assert GAME.view_public(t.s)["turn"]["player"] == "eli"


# -- the turn timer ----------------------------------------------------------------------------------------


def test_the_first_turn_timer_waits_for_the_host_then_every_turn_starts_it() -> None:
    t = Table(turn_seconds=60)
    assert t.s["timer"]["running"] is False and GAME.deadlines(t.s) == []
    assert "timer.start" in [p.move for p in GAME.prompts(t.s, "host")]
    t.send("host", "timer.start")
    due = GAME.deadlines(t.s)
    assert [(d.move, d.at) for d in due] == [("timer.warn", t.at + 50_000), ("timer.expire", t.at + 60_000)]
    t.send("ana", "turn.end")
    assert t.s["timer"]["running"] and t.s["timer"]["deadline"] == t.at + 60_000  # eli's turn, fresh


def expire(t: Table) -> None:
    t.at = int(t.s["timer"]["deadline"])
    t.send("clock", "timer.expire", name="turn")


def test_timer_expiry_in_the_action_phase_ends_the_turn_with_the_discard() -> None:
    t = Table(turn_seconds=30).hands(ana=7)
    t.send("host", "timer.start")
    assert t.refused("clock", "timer.expire", name="turn") == "reject.timer_not_due"
    expire(t)
    assert t.turn() == "eli" and t.p("ana")["hand"] == 5
    assert "jailbreak.timer_expired" in t.said()


def test_timer_expiry_while_answering_an_attack_lets_it_hit() -> None:
    t = Table(turn_seconds=30).send("host", "timer.start")
    t.send("ana", "attack", card="steel_pipe", target="dao")
    expire(t)
    assert t.p("dao")["flipped"] is True and t.turn() == "eli"


def test_timer_expiry_with_cuffs_on_keeps_them_on() -> None:
    t = to(Table(5, turn_seconds=30, equipment=[["badge"], ["handcuffs"]]).send("host", "timer.start"), "ben")
    t.send("ben", "cuffs.place", target="ana").send("ben", "turn.end")
    assert t.phase() == "cuffs"
    expire(t)
    assert t.turn() == "eli" and t.p("ana")["cuffed_by"] == "ben"


def test_timer_expiry_at_the_baton_choice_takes_the_card() -> None:
    t = to(Table(5, turn_seconds=30, equipment=[["badge"], ["baton"]]).send("host", "timer.start"), "ben")
    t.hands(ben=3, chai=2)
    t.send("ben", "attack", card="knife", target="chai").send("chai", "attack.take")
    expire(t)
    assert (t.p("chai")["hand"], t.p("chai")["flipped"]) == (1, False) and t.turn() == "ana"


def test_a_restart_pauses_a_running_timer_and_the_host_sets_it() -> None:
    t = Table(turn_seconds=30)
    assert GAME.on_resume(t.s) == []
    t.send("host", "timer.start")
    assert GAME.on_resume(t.s) == [("timer.pause", {})]
    t.send("host", "timer.pause")
    assert GAME.deadlines(t.s) == [] and t.s["timer"]["remaining"] == 29_000  # paused a second in
    t.send("host", "timer.resume").send("host", "timer.extend", seconds=15)
    assert t.s["timer"]["deadline"] == t.at - 1000 + 29_000 + 15_000
    t.send("host", "timer.set", seconds=0)
    assert t.s["timer"] is None and GAME.deadlines(t.s) == []
    assert t.refused("host", "timer.start") == "reject.jailbreak_no_timer"
    assert Table().refused("ana", "timer.start") == "reject.not_allowed"


# -- views -------------------------------------------------------------------------------------------------


def test_the_public_view_shows_the_table() -> None:
    t = to(Table(), "eli").put(eli=3)
    v = GAME.view_public(t.s)
    assert v["people"]["eli"]["scene"] == 3 and v["deck"] == t.s["deck"]
    assert v["turn"]["player"] == "eli" and v["turn"]["phase"] == "action" and v["direction"] == "counter-clockwise"
    me = GAME.view_player(t.s, "eli")
    assert me == {"role": "prisoner", "character": t.s["characters"]["eli"], "equipment": [], "my_turn": True,
                  "keys_left": 1, "attacks_left": 1}


def test_the_seed_never_reaches_a_public_output() -> None:
    seed = 918_273_645_546
    t = Table(seed=seed)
    for _ in range(6):
        t.send(t.turn(), "turn.end")
    outputs = [GAME.view_public(t.s), *(GAME.view_player(t.s, p) for p in t.s["roles"]), GAME.view_host(t.s),
               t.s["announcements"], [p.to_json() for p in GAME.prompts(t.s, "host")]]
    text = json.dumps(outputs)
    assert str(seed) not in text and "rng" not in text


@pytest.mark.parametrize("lang", ["en", "zh", "th"])
def test_every_announcement_and_prompt_reads_in_every_language(lang: str) -> None:
    t = to(Table(5, equipment=[["badge"], ["baton"]]), "ben").hands(ben=5)
    t.send("ben", "attack", card="knife", target="chai").send("chai", "attack.trade", card="cash")
    t.send("ben", "card.use", card="vodka").send("ben", "attack", card="knife", target="dao")
    t.send("dao", "attack.take").send("ben", "baton.use").send("ben", "key.use").send("ben", "scene.back")
    texts = [i18n.describe(lang, a) for a in t.s["announcements"]]
    for p in GAME.prompts(t.s, "player:ben"):
        texts.append(i18n.translate(lang, p.label, p.params))
        texts += [i18n.translate(lang, c.label, c.params) for f in p.fields for c in f.choices if not c.plain]
    assert texts and all("{" not in x and "jailbreak." not in x and "kind." not in x for x in texts), texts


def test_refusals_are_translated() -> None:
    t = to(Table(), "eli")
    code = t.refused("eli", "attack", card="bullet", target="dao")
    assert i18n.translate("zh", code) == "子弹需要装备手枪。"
    err = GAME.moves["attack"]
    assert err.on_turn and "player" in err.who
    assert Input("attack", "player:eli").move == "attack"


def test_the_host_corrects_a_hand_count_for_all_to_see() -> None:
    t = Table()
    deck = t.s["deck"]
    t.send("host", "hand.set", player="dao", cards=2)
    assert t.p("dao")["hand"] == 2 and t.s["deck"] == deck
    assert t.s["announcements"][-1]["params"] == {"player": "dao", "cards": 2}
    assert t.refused("host", "hand.set", player="zed", cards=2) == "reject.not_a_player"
    assert t.refused("host", "hand.set", player="dao", cards=-1) == "reject.bad_argument"
    assert t.refused("ana", "hand.set", player="dao", cards=3) == "reject.not_allowed"
    assert "hand.set" in [p.move for p in GAME.prompts(t.s, "host")]
