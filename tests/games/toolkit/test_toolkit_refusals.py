"""The toolkit game end to end: refused inputs (wrong sender, wrong state, bad arguments) give their reason
and change nothing, and a script stops at its first refused line."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest

from companion.core.inputs import Input
from tests.kits.toolkit_script import TIMER, host, play, stored, views, vote

# -- rejections -------------------------------------------------------------------------------------------

BASE = [
    *TIMER,
    host("ballot.open", 2000, name="final", options=["red", "blue"], change="final"),
    vote("ana", "red", 3000, name="final"),
    host("counter.create", 4000, name="hp", initial=10, low=0, high=10),
]


@pytest.mark.parametrize(
    ("by", "move", "args", "code", "params"),
    [
        ("player:ana", "ballot.vote", {"name": "final", "option": "blue"}, "reject.ballot_already_voted", {}),
        ("player:ana", "ballot.vote", {"name": "final", "option": "red"}, "reject.ballot_already_voted", {}),
        ("player:ana", "counter.adjust", {"name": "hp", "player": "ben", "delta": -3}, "reject.not_yours", {}),
        ("player:ana", "ballot.close", {"name": "final"}, "reject.not_allowed",
         {"move": "ballot.close", "sender": "sender.player"}),
        ("player:ana", "timer.expire", {"name": "day"}, "reject.not_allowed",
         {"move": "timer.expire", "sender": "sender.player"}),
        ("host", "timer.warn", {"name": "day", "at_seconds": 30}, "reject.not_allowed",
         {"move": "timer.warn", "sender": "sender.host"}),
        ("table", "counter.adjust", {"name": "hp", "delta": 1}, "reject.not_allowed",
         {"move": "counter.adjust", "sender": "sender.table"}),
        ("host", "ballot.vote", {"name": "final", "option": "red"}, "reject.not_allowed",
         {"move": "ballot.vote", "sender": "sender.host"}),
        ("clock", "timer.expire", {"name": "day"}, "reject.timer_not_due", {}),
        ("host", "ballot.rig", {"name": "final"}, "reject.unknown_move", {"move": "ballot.rig"}),
        ("player:zed", "dice.roll", {}, "reject.not_a_player", {"player": "zed"}),
        ("nobody", "dice.roll", {}, "reject.unknown_sender", {"sender": "nobody"}),
        ("player:ben", "ballot.vote", {"name": "final", "option": "purple"}, "reject.ballot_unknown_option",
         {"option": "purple"}),
        ("player:ben", "ballot.vote", {"name": "nope", "option": "red"}, "reject.no_such",
         {"kind": "kind.ballot", "name": "nope"}),
        ("host", "timer.create", {"name": "day", "seconds": 5}, "reject.name_taken",
         {"kind": "kind.timer", "name": "day"}),
    ],
)
def test_a_refused_input_gives_its_reason_and_changes_nothing(
    tmp_path: Path, by: str, move: str, args: dict[str, Any], code: str, params: dict[str, Any]
) -> None:
    ref = play(tmp_path / "log.sqlite3", *BASE)
    before, state, count = views(ref), copy.deepcopy(ref.state), stored(ref)
    outcome = ref.submit(Input(move, by, args, 10_000))
    assert not outcome.accepted and outcome.reason is not None
    assert (outcome.reason.code, dict(outcome.reason.params)) == (code, params)
    assert views(ref) == before
    assert ref.state == state
    assert stored(ref) == count == len(ref.events)


@pytest.mark.parametrize(
    ("by", "move", "args", "field"),
    [
        ("host", "dice.roll", {"sides": 1}, "sides"),
        ("host", "dice.roll", {"count": "2"}, "count"),  # strict: a string is not a number
        ("host", "dice.roll", {"count": 2.0}, "count"),
        ("player:ben", "ballot.vote", {"name": "final"}, "option"),
        ("host", "timer.create", {"name": "x", "seconds": 10, "colour": "red"}, "colour"),
        ("host", "timer.create", {"name": "", "seconds": 10}, "name"),
        ("host", "ballot.open", {"name": "b", "options": ["only"]}, "options"),
        ("host", "ballot.open", {"name": "b", "options": ["a", "b"], "tie": "coin"}, "tie"),
        ("host", "counter.adjust", {"name": "hp", "delta": 1}, "player"),  # the host must name a player
        ("host", "timer.extend", {"name": "day", "seconds": 0}, "seconds"),
    ],
)
def test_bad_arguments_are_refused_naming_the_field(
    tmp_path: Path, by: str, move: str, args: dict[str, Any], field: str
) -> None:
    ref = play(tmp_path / "log.sqlite3", *BASE)
    before, count = views(ref), stored(ref)
    outcome = ref.submit(Input(move, by, args, 10_000))
    assert outcome.reason is not None
    assert outcome.reason.code == "reject.bad_argument"
    assert outcome.reason.params["field"] == field
    assert outcome.reason.params["problem"]
    assert (views(ref), stored(ref)) == (before, count)


def test_a_script_stops_at_the_first_refused_line_and_names_it(tmp_path: Path) -> None:
    from companion.scripting import ScriptError

    with pytest.raises(ScriptError) as err:
        play(tmp_path / "log.sqlite3", *BASE, vote("ana", "blue", 5000, name="final"), host("dice.roll", 6000))
    assert err.value.line == 2 + len(BASE)
    assert err.value.reason.code == "reject.ballot_already_voted"
