"""The one place that says ids in words (companion/naming.py): what each param is said as, in every
language, from the names a table gave; saying twice changes nothing; nothing a phone sends breaks it."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from companion import i18n
from companion.console import reason_text
from companion.core.referee import Outcome
from companion.core.rejection import Rejected
from companion.naming import Namer, said_view

PLAYERS = [{"id": "p1", "name": "Somchai"}, {"id": "p2", "name": "Wanida"}]
TABLE = {"timers": {"day": {}, "Speech clock": {}}, "ballots": {"exile": {}, "Quiz": {}},
         "deals": {"roles": {"pool": ["werewolf", "seer"], "revealed": {"p2": "seer"}}}, "counters": {"hp": {}}}
NAMER = Namer("toolkit", PLAYERS, TABLE)


def said(lang: str, msgid: str, **params: Any) -> str:
    return NAMER.text(lang, msgid, params)


def test_a_vote_result_a_role_and_a_timer_read_as_the_host_named_them_in_every_language() -> None:
    assert said("en", "toolkit.ballot_result", name="exile", winner="p2") == \
        i18n.translate("en", "toolkit.ballot_result", {"name": "Exile vote", "winner": "Wanida"})
    zh = said("zh", "toolkit.role_revealed", name="roles", player="p2", role="werewolf")
    assert "狼人" in zh and "Wanida" in zh and "werewolf" not in zh and "roles" not in zh
    assert said("th", "toolkit.prompt.timer_start", name="day") == \
        i18n.translate("th", "toolkit.prompt.timer_start", {"name": i18n.translate("th", "timer.toolkit.day")})
    assert "Speech clock" in said("en", "toolkit.timer_started", name="Speech clock")  # typed: as typed


def test_a_refusal_says_the_move_in_words_and_an_unknown_one_without_quoting_it() -> None:
    wrong = NAMER.reason(Rejected("reject.wrong_phase", move="roles.reveal"))
    assert wrong.code == "reject.wrong_phase" and wrong.params["move"]["en"] == "Reveal a role"
    assert "roles.reveal" not in i18n.describe("zh", wrong.to_json())
    assert "attack.take" in i18n.describe("en", Rejected("reject.wrong_phase", move="attack.take").to_json())
    jail = Namer("jailbreak", PLAYERS)
    assert jail.describe("en", {"code": "reject.wrong_phase", "params": {"move": "attack.take"}}) == \
        i18n.translate("en", "reject.wrong_phase", {"move": "Take the attack card"})
    odd = jail.describe("th", {"code": "reject.unknown_move", "params": {"move": "x.y"}})
    assert "x.y" not in odd and odd == i18n.translate("th", "reject.unknown_move")
    refused = {"code": "reject.not_allowed", "params": {"move": "game.end", "sender": "sender.player"}}
    host = jail.describe("en", refused)
    assert "game.end" not in host and i18n.translate("en", "move.game.end") in host


def test_which_kind_a_name_is_comes_from_its_kind_param_the_table_or_the_message() -> None:
    assert NAMER.kind_of("exile", "anything", None) == "ballots"  # the one kind with that name
    assert NAMER.kind_of("exile", "x", "kind.timer") == "timers"  # said beside it
    both = Namer("toolkit", PLAYERS, {"timers": {"vote": {}}, "ballots": {"vote": {}}})
    assert both.kind_of("vote", "toolkit.ballot_opened", None) == "ballots"
    assert both.kind_of("vote", "toolkit.timer_started", None) == "timers"
    assert NAMER.kind_of("Ana", "phone.you_are", None) is None  # a seat's name: not a thing's
    assert NAMER.params({"name": "Somchai"}, "kiosk.setup.seat") == {"name": "Somchai"}


def test_players_senders_and_a_tied_ranking() -> None:
    out = NAMER.params({"by": "player:p1", "players": ["p1", "p2"], "ranking": [["p1"], ["p2", "p1"]],
                        "target": "host", "to": "p2", "option": "Go on"})
    assert out == {"by": "Somchai", "players": ["Somchai", "Wanida"], "ranking": ["Somchai", "Wanida = Somchai"],
                   "target": "sender.host", "to": "Wanida", "option": "Go on"}


def test_a_view_is_said_once_its_names_titled_and_its_args_untouched() -> None:
    prompt = {"move": "timer.start", "label": "toolkit.prompt.timer_start", "params": {"name": "day"},
              "fixed": {"name": "day"}, "fields": [{"name": "player", "label": "toolkit.prompt.player", "choices": [
                  {"value": "p2", "label": "Wanida", "plain": True, "params": {}, "group": "", "group_params": {}}]}]}
    view = {"game": "toolkit", "players": PLAYERS, "table": TABLE, "prompts": [prompt],
            "announcements": [{"at": 1, "msg": "toolkit.ballot_opened", "params": {"name": "exile"}}],
            "host_menu": [{"key": "start:day", "label": "host.menu.start", "params": {}, "timer": "day",
                           "move": "timer.start", "args": {"name": "day"}}]}
    once = said_view(view)
    assert once["prompts"][0]["fixed"] == {"name": "day"} and once["prompts"][0]["params"]["name"]["en"] == "Day"
    assert once["host_menu"][0]["args"] == {"name": "day"} and once["host_menu"][0]["params"]["timer"]["zh"] == "白天"
    assert once["announcements"][0]["params"]["name"]["th"] == i18n.translate("th", "toolkit.name.exile")
    assert once["names"]["ballots"] == {"exile": NAMER.thing("ballots", "exile"), "Quiz": "Quiz"}
    assert once["names"]["roles"]["werewolf"]["zh"] == "狼人"
    assert said_view(once) == once  # a said view said again is the same
    assert view["prompts"][0]["params"] == {"name": "day"}  # the view itself is not changed


JSONISH = st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=40),
                       lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                                 max_size=4), max_leaves=20)


@settings(max_examples=200, deadline=None)
@given(params=st.dictionaries(st.sampled_from(["by", "player", "ranking", "name", "kind", "timer", "role", "roles",
                                               "move", "phase", "option", "other"]), JSONISH, max_size=6),
       msgid=st.text(max_size=30))
def test_anything_a_phone_sends_is_said_without_raising(params: dict[str, Any], msgid: str) -> None:
    out = NAMER.params(params, msgid)
    assert set(out) == set(params)
    for lang in i18n.LANGUAGES:
        assert isinstance(i18n.translate_line(lang, "reject.no_such", out), str)


def test_the_console_says_a_refusal_with_names() -> None:
    refused = Outcome(accepted=False, reason=Rejected("reject.wrong_phase", move="ballot.close"))
    text = reason_text("zh", refused, NAMER)
    assert "ballot.close" not in text and i18n.translate("zh", "move.toolkit.ballot.close") in text
    turn = reason_text("en", Outcome(accepted=False, reason=Rejected("reject.not_your_turn", player="p2")), NAMER)
    assert "Wanida" in turn and "p2" not in turn
