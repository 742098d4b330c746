"""The toolkit game end to end: who sees what.

Secrecy is checked by counterfactuals: two games that differ only in a secret (who voted for what, a
hidden counter) must give identical views to everyone who may not know that secret. A search for the
option's text would not do, since the public view rightly lists every option.
"""

from __future__ import annotations

import json
from pathlib import Path

from tests.kits.toolkit_script import PLAYERS, host, play, scene

# -- who sees what ----------------------------------------------------------------------------------------


def test_each_player_sees_their_own_vote_counter_and_role_and_nothing_of_anyone_else(tmp_path: Path) -> None:
    ref = play(tmp_path / "log.sqlite3", *scene("red", "blue"))
    revealed = play(tmp_path / "all.sqlite3", *scene("red", "blue"), host("roles.reveal", 4000, name="roles"))
    deal = revealed.view("public")["table"]["deals"]["roles"]["revealed"]
    assert sorted(deal.values()) == ["seer", "villager", "villager", "wolf"]
    votes = {"ana": "red", "ben": "blue", "chai": None, "dao": None}
    for p in PLAYERS:
        shown = ref.view(f"player:{p}")
        assert shown["me"] == p
        assert shown["private"] == {
            "ballots": {"exile": {"eligible": True, "my_vote": votes[p]}},
            "counters": {"hp": 8 if p == "ben" else 10},
            "roles": {"roles": deal[p]},
        }


def test_the_public_view_shows_how_many_voted_and_the_tally_but_never_who_voted_what(tmp_path: Path) -> None:
    a = play(tmp_path / "a.sqlite3", *scene("red", "blue"))
    b = play(tmp_path / "b.sqlite3", *scene("blue", "red"))
    assert a.view("public")["table"]["ballots"]["exile"]["cast"] == 2
    assert "votes" not in json.dumps(a.view("public"))
    assert a.view("public") == b.view("public")
    close = host("ballot.close", 9000, name="exile")
    a = play(tmp_path / "a2.sqlite3", *scene("red", "blue"), close)
    b = play(tmp_path / "b2.sqlite3", *scene("blue", "red"), close)
    assert a.view("public")["table"]["ballots"]["exile"]["result"]["totals"] == {"red": 1, "blue": 1, "green": 0}
    assert a.view("public") == b.view("public")


def test_views_of_those_not_in_a_secret_do_not_depend_on_it(tmp_path: Path) -> None:
    a = play(tmp_path / "a.sqlite3", *scene("red", "blue", ben_hp=-2))
    b = play(tmp_path / "b.sqlite3", *scene("blue", "red", ben_hp=-7))
    for aud in ["public", "host", "player:chai", "player:dao"]:
        assert a.view(aud) == b.view(aud), aud
    assert a.view("player:ana") != b.view("player:ana")  # the checks above compare views that can differ


def test_the_host_sees_who_has_not_voted_and_the_history_without_any_secret_move(tmp_path: Path) -> None:
    ref = play(tmp_path / "log.sqlite3", *scene("red", "blue"))
    shown = ref.view("host")
    assert shown["host"] == {"ballots_waiting_for": {"exile": ["chai", "dao"]}}
    history = [(h["by"], h.get("move"), "args" in h) for h in shown["history"]]
    assert history == [
        ("host", None, False),  # the deal, "the host acted"
        ("host", "counter.create", True),
        ("host", "ballot.open", True),
        ("player:ben", None, False),  # the counter change
        ("player:ana", None, False),  # the votes
        ("player:ben", None, False),
    ]
    secret = [h for h in shown["history"] if h["msg"] == "history.acted"]
    assert all(set(h) == {"seq", "by", "at", "msg", "params"} for h in secret)
