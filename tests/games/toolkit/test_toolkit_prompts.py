"""The toolkit's prompts: what each sender may input now, as forms, and only in that sender's view.

A prompt is a promise: filled in with any value its fields allow, the referee accepts it. The property
test at the end checks that promise on random sessions.
"""

from __future__ import annotations

import itertools
import json
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion import i18n
from companion.core.inputs import Input
from companion.core.referee import Referee
from tests.kits.toolkit_script import PLAYERS, host, play, player, scene, vote


def prompts_of(ref: Referee, audience: str, move: str | None = None) -> list[dict[str, Any]]:
    shown: list[dict[str, Any]] = ref.view(audience)["prompts"]
    return [p for p in shown if move is None or p["move"] == move]


TYPED = itertools.count()


def fill(prompt: dict[str, Any], pick: int = 0) -> dict[str, Any]:
    """The args a phone sends for a prompt: its fixed args plus one allowed value per field."""
    args = dict(prompt["fixed"])
    for f in prompt["fields"]:
        if f["kind"] == "choice":
            args[f["name"]] = f["choices"][pick % len(f["choices"])]["value"]
        elif f["kind"] == "number":
            args[f["name"]] = [f["min"], f["max"], f["default"] if f["default"] is not None else f["min"]][pick % 3]
        elif f["kind"] == "text":  # a suggested name, or a typed one never used before
            args[f["name"]] = f["choices"][pick % len(f["choices"])]["value"] if f["choices"] else f"typed{next(TYPED)}"
        elif f["kind"] == "subset":  # the first `min` of them up to all of them
            values = [c["value"] for c in f["choices"]]
            args[f["name"]] = values[:f["min"] + pick % (len(values) - f["min"] + 1)]
        elif f["kind"] == "texts":  # as many typed lines as it asks for, or more
            args[f["name"]] = [f"line{i}" for i in range(min(f["max"], f["min"] + pick))]
    return args


def send(ref: Referee, by: str, prompt: dict[str, Any], at: int, pick: int = 0) -> None:
    outcome = ref.submit(Input(prompt["move"], by, fill(prompt, pick), at))
    assert outcome.accepted, (prompt, outcome.reason)


def test_a_voter_of_an_open_ballot_is_offered_its_options_and_the_vote_counts(tmp_path: Path) -> None:
    ref = play(tmp_path / "log.sqlite3", host("ballot.open", 0, name="exile", options=["red", "blue", "green"]))
    [ballot] = prompts_of(ref, "player:chai", "ballot.vote")
    assert ballot["fixed"] == {"name": "exile"} and ballot["params"] == {"name": "exile"}
    [option] = ballot["fields"]
    assert option["kind"] == "choice" and option["default"] is None
    assert [(c["value"], c["label"], c["plain"]) for c in option["choices"]] == [
        ("red", "red", True), ("blue", "blue", True), ("green", "green", True)]
    send(ref, "player:chai", ballot, 100, pick=1)
    assert ref.view("player:chai")["private"]["ballots"]["exile"]["my_vote"] == "blue"


def test_only_voters_get_the_ballot_and_only_while_it_is_open(tmp_path: Path) -> None:
    ref = play(tmp_path / "log.sqlite3",
               host("ballot.open", 0, name="exile", options=["red", "blue"], voters=["ana", "ben"]))
    assert len(prompts_of(ref, "player:ana", "ballot.vote")) == 1
    assert prompts_of(ref, "player:chai", "ballot.vote") == []
    assert ref.submit(Input("ballot.close", "host", {"name": "exile"}, 10)).accepted
    assert prompts_of(ref, "player:ana", "ballot.vote") == []


def test_a_changeable_vote_is_offered_again_with_the_players_own_vote_preselected(tmp_path: Path) -> None:
    ref = play(tmp_path / "log.sqlite3", host("ballot.open", 0, name="exile", options=["red", "blue"]),
               vote("ana", "blue", 10))
    [again] = prompts_of(ref, "player:ana", "ballot.vote")
    assert again["fields"][0]["default"] == "blue"
    [other] = prompts_of(ref, "player:ben", "ballot.vote")
    assert other["fields"][0]["default"] is None  # Ben's form says nothing of Ana's vote


def test_a_final_vote_is_not_offered_again(tmp_path: Path) -> None:
    ref = play(tmp_path / "log.sqlite3",
               host("ballot.open", 0, name="exile", options=["red", "blue"], change="final"),
               vote("ana", "blue", 10))
    assert prompts_of(ref, "player:ana", "ballot.vote") == []
    assert len(prompts_of(ref, "player:ben", "ballot.vote")) == 1


def test_a_player_may_change_only_their_own_counter_within_its_bounds(tmp_path: Path) -> None:
    ref = play(tmp_path / "log.sqlite3",
               host("counter.create", 0, name="coins", initial=3, low=0, high=10, players=["ana", "ben"]))
    [coins] = prompts_of(ref, "player:ana", "counter.adjust")
    assert coins["fixed"] == {"name": "coins"} and coins["params"] == {"name": "coins", "value": 3}
    [delta] = coins["fields"]
    assert (delta["kind"], delta["min"], delta["max"]) == ("number", -3, 7)
    assert prompts_of(ref, "player:chai", "counter.adjust") == []
    send(ref, "player:ana", coins, 100, pick=1)  # the largest change offered reaches the top
    assert ref.view("player:ana")["private"]["counters"]["coins"] == 10
    assert ref.view("player:ben")["private"]["counters"]["coins"] == 3


def test_prompts_appear_only_in_their_senders_view(tmp_path: Path) -> None:
    ref = play(tmp_path / "log.sqlite3", *scene("red", "blue"))
    assert "prompts" not in ref.view("public")
    ben = prompts_of(ref, "player:ben")
    assert {p["move"] for p in ben} == {"ballot.vote", "counter.adjust", "dice.roll"}
    assert "ballot.close" in {p["move"] for p in prompts_of(ref, "host")}
    assert "ballot.close" not in {p["move"] for p in ben}


def test_a_players_prompts_do_not_depend_on_anyone_elses_secrets(tmp_path: Path) -> None:
    a = play(tmp_path / "a.sqlite3", *scene("red", "blue", ben_hp=-2))
    b = play(tmp_path / "b.sqlite3", *scene("blue", "red", ben_hp=-7))
    for aud in ["host", "player:chai", "player:dao"]:
        assert prompts_of(a, aud) == prompts_of(b, aud), aud
    assert prompts_of(a, "player:ben") != prompts_of(b, "player:ben")  # the comparison can fail


def test_the_host_gets_the_sessions_controls(tmp_path: Path) -> None:
    ref = play(tmp_path / "log.sqlite3",
               host("timer.create", 0, name="day", seconds=60), host("timer.start", 10, name="day"),
               host("ballot.open", 20, name="exile", options=["red", "blue"], tie="host_decides"),
               vote("ana", "red", 30), vote("ben", "blue", 40), host("ballot.close", 50, name="exile"),
               *scene("red", "blue")[:2])
    creating = {"timer.create", "ballot.open", "roles.deal", "counter.create"}  # test_toolkit_host_forms.py
    moves = [p["move"] for p in prompts_of(ref, "host") if p["move"] not in creating]
    assert moves == ["timer.pause", "timer.extend", "ballot.decide", "counter.adjust", "counter.reveal",
                     "roles.reveal", "dice.roll", "game.end"]
    [decide] = prompts_of(ref, "host", "ballot.decide")
    assert [c["value"] for c in decide["fields"][0]["choices"]] == ["red", "blue"]
    send(ref, "host", decide, 60, pick=1)
    assert ref.view("public")["table"]["ballots"]["exile"]["result"]["winner"] == "blue"
    send(ref, "host", prompts_of(ref, "host", "timer.pause")[0], 70)
    assert [p["move"] for p in prompts_of(ref, "host")][:3] == ["timer.resume", "timer.start", "timer.extend"]


def test_nobody_is_prompted_once_the_game_is_over(tmp_path: Path) -> None:
    ref = play(tmp_path / "log.sqlite3", host("ballot.open", 0, name="exile", options=["red", "blue"]),
               host("game.end", 10))
    assert all(prompts_of(ref, aud) == [] for aud in ["host", *(f"player:{p}" for p in PLAYERS)])


def labels(prompts: list[dict[str, Any]]) -> set[str]:
    ids = {p["label"] for p in prompts} | {f["label"] for p in prompts for f in p["fields"]}
    return ids | {c["label"] for p in prompts for f in p["fields"] for c in f["choices"] if not c["plain"]}


def test_every_label_a_prompt_shows_is_translated_in_every_language(tmp_path: Path) -> None:
    tie = [host("ballot.open", 0, name="x", options=["red", "blue"], tie="host_decides"), vote("ana", "red", 1, "x"),
           vote("ben", "blue", 2, "x"), host("ballot.close", 3, name="x")]
    before = play(tmp_path / "a.sqlite3", *scene("red", "blue"), host("timer.create", 4000, name="day", seconds=9))
    after = play(tmp_path / "b.sqlite3", *tie, host("timer.create", 4, name="day", seconds=9),
                 host("timer.start", 5, name="day"), host("timer.pause", 6, name="day"))
    shown = labels([p for ref in (before, after) for aud in ["host", "player:ben"] for p in prompts_of(ref, aud)])
    assert {"toolkit.prompt.vote", "toolkit.prompt.everyone", "toolkit.prompt.timer_resume",
            "toolkit.prompt.ballot_decide"} <= shown
    for lang in i18n.LANGUAGES:
        assert shown <= i18n.msgids(lang), (lang, shown - i18n.msgids(lang))


# -- a prompt is a promise --------------------------------------------------------------------------------

OPTIONS = ["red", "blue", "green"]
SCENE = [
    host("timer.create", 0, name="t", seconds=30),
    host("ballot.open", 0, name="b", options=OPTIONS, voters=["ana", "ben"], change="final", tie="host_decides"),
    host("ballot.open", 0, name="c", options=OPTIONS[:2]),
    host("counter.create", 0, name="hp", initial=5, low=0, high=9, players=["ana", "chai"]),
    host("roles.deal", 0, name="d", roles=["wolf", "seer", "villager", "villager"]),
]
SENDERS = ["host", *(f"player:{p}" for p in PLAYERS)]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.sampled_from(SENDERS), st.integers(0, 50), st.integers(0, 5)), min_size=1,
                max_size=25))
def test_every_prompt_filled_with_any_offered_value_is_accepted(picks: list[tuple[str, int, int]]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        ref = play(Path(tmp) / "log.sqlite3", *SCENE)
        at = 1000
        for sender, which, pick in picks:
            offered = [p for p in prompts_of(ref, sender) if p["move"] != "game.end" or which == 50]
            if not offered:
                continue
            prompt = offered[which % len(offered)]
            at += 1000
            outcome = ref.submit(Input(prompt["move"], sender, fill(prompt, pick), at))
            assert outcome.accepted, (sender, json.dumps(prompt), outcome.reason)
        ref.log.close()


def test_fill_uses_every_kind_of_field() -> None:
    # Guards the property test above: its helper must produce args for each field kind the toolkit uses.
    prompt = {"fixed": {"name": "x"}, "fields": [
        {"name": "option", "kind": "choice", "choices": [{"value": "a"}, {"value": "b"}]},
        {"name": "delta", "kind": "number", "min": -2, "max": 4, "default": None}]}
    assert fill(prompt, 1) == {"name": "x", "option": "b", "delta": 4}
    assert player("ana", "dice.roll", 0) == {"by": "player:ana", "move": "dice.roll", "args": {}, "at": 0}
