"""Another game without a restart (issue 21, NEWGAME_IFACE.md): the host's `table.new_game` is handled by
the table, which starts the game in the same SQLite log, runs it from then on and tells every output;
bad arguments get a specific message id and change nothing; after a power cut the new game is the one
resumed. Real SQLite files, a real Table, the real games."""

from __future__ import annotations

import json
import os
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion import i18n
from companion.config import load
from companion.core.contract import Player, Setup
from companion.core.eventlog import EventLog
from companion.core.referee import HOST_VIEW, Outcome, Referee
from companion.games import registry
from companion.table.loop import Table
from companion.table.next_game import NAME_MAX, setup_of
from companion.table.opening import open_table
from companion.table.views import Views

ANA, BEN, CHAI = {"id": "ana", "name": "Ana"}, {"id": "ben", "name": "Ben"}, {"id": "p3", "name": "ชัย"}


class Told:
    """An output that keeps what it was told."""

    def __init__(self) -> None:
        self.publics: list[dict[str, Any]] = []

    def changed(self, views: Views, outcomes: list[Outcome]) -> None:
        self.publics.append(views.public)


def table_on(path: Path, game: str = "toolkit", players: tuple[str, ...] = ("ana", "ben")) -> Table:
    log = EventLog(path)
    setup = Setup(game, tuple(Player(p, p.title()) for p in players), {}, seed=7)
    return Table(Referee.start(registry(), log, setup, created_at=1))


def new_game(game: str, players: list[dict[str, str]], options: dict[str, Any] | None = None,
             by: str = "host", cid: str | None = None) -> dict[str, Any]:
    raw: dict[str, Any] = {"by": by, "move": "table.new_game", "args": {"game": game, "players": players}}
    if options is not None:
        raw["args"]["options"] = options
    if cid is not None:
        raw["id"] = cid
    return raw


def code(outcome: Outcome) -> str:
    assert not outcome.accepted and outcome.reason is not None
    return outcome.reason.code


def test_the_host_starts_another_game_in_the_same_log(tmp_path: Path) -> None:
    table = table_on(tmp_path / "log.db")
    told = Told()
    table.outputs.append(told)
    first = table.referee.game_id
    assert table.handle({"by": "host", "move": "game.end", "args": {}}).accepted
    outcome = table.handle(new_game("room25", [ANA, BEN, CHAI], {"mode": "competition"}))
    assert outcome.accepted
    public = told.publics[-1]
    assert (public["game"], public["number"], public["options"]) == ("room25", first + 1, {"mode": "competition"})
    assert [p["name"] for p in public["players"]] == ["Ana", "Ben", "ชัย"]
    assert not public["begun"] and not public["ended"]
    assert table.views.public == public  # the table's views are the new game's
    log = table.referee.log
    assert [log.game(n).setup.game for n in (first, first + 1)] == ["toolkit", "room25"]  # type: ignore[union-attr]
    assert "seed" not in json.dumps(table.views.view(HOST_VIEW))  # the seed never leaves the core


def test_a_game_that_has_not_begun_can_be_replaced_one_under_way_cannot(tmp_path: Path) -> None:
    table = table_on(tmp_path / "log.db")
    assert table.handle(new_game("toolkit", [ANA, BEN, CHAI])).accepted  # nothing had happened yet
    number = table.referee.game_id
    assert table.handle({"by": "host", "move": "dice.roll", "args": {"sides": 6, "count": 1}}).accepted
    refused = table.handle(new_game("room25", [ANA, BEN]))
    assert code(refused) == "reject.game_in_progress"
    assert table.referee.game_id == number and table.views.public["game"] == "toolkit"
    assert i18n.translate("en", code(refused)).startswith("A game is under way: end the game first")


def test_only_the_host_may_start_another_game(tmp_path: Path) -> None:
    table = table_on(tmp_path / "log.db")
    table.handle({"by": "host", "move": "game.end", "args": {}})
    number = table.referee.game_id
    for by in ("player:ana", "table"):
        assert code(table.handle(new_game("room25", [ANA, BEN], by=by))) == "reject.not_allowed"
    assert table.referee.game_id == number


@pytest.mark.parametrize(("args", "expected", "params"), [
    (new_game("rom25", [ANA])["args"], "reject.new_game.unknown_game", {"game": "rom25", "nearest": ["room25"]}),
    (new_game("chess", [ANA])["args"], "reject.new_game.unknown_game_list", {"game": "chess"}),
    (new_game("jailbreak", [ANA, BEN])["args"], "reject.player_count", {"got": 2, "low": 3}),
    (new_game("toolkit", [ANA, {"id": "ana", "name": "Anna"}])["args"], "reject.duplicate_player", {}),
    (new_game("toolkit", [{"id": "Ana", "name": "Ana"}])["args"], "reject.new_game.player_id", {"id": "Ana"}),
    (new_game("toolkit", [{"id": "x" * 17, "name": "X"}])["args"], "reject.new_game.player_id", {}),
    (new_game("toolkit", [{"id": "ana", "name": "   "}])["args"], "reject.new_game.player_name", {"id": "ana"}),
    (new_game("toolkit", [{"id": "ana", "name": "A" * 25}])["args"], "reject.new_game.player_name", {"most": 24}),
    (new_game("room25", [ANA], {"mood": "x"})["args"], "reject.new_game.unknown_option", {"nearest": ["mode"]}),
    (new_game("room25", [ANA], {"mode": "competiton"})["args"], "reject.new_game.bad_choice",
     {"nearest": ["competition", "cooperation"]}),
    (new_game("room25", [ANA], {"program_seconds": -1})["args"], "reject.bad_argument", {"field": "program_seconds"}),
    (new_game("lockdown", [ANA, BEN], {"map_file": "/etc/passwd"})["args"], "reject.new_game.option_set_up", {}),
    ({"game": "toolkit", "players": [ANA], "seed": 1}, "reject.bad_argument", {"field": "seed"}),
    ({"game": "toolkit", "players": "ana"}, "reject.bad_argument", {"field": "players"}),
])
def test_bad_arguments_are_refused_with_a_specific_message_and_change_nothing(
        tmp_path: Path, args: dict[str, Any], expected: str, params: dict[str, Any]) -> None:
    table = table_on(tmp_path / "log.db")
    table.handle({"by": "host", "move": "game.end", "args": {}})
    before = table.views.public
    outcome = table.handle({"by": "host", "move": "table.new_game", "args": args})
    assert code(outcome) == expected
    assert outcome.reason is not None and all(outcome.reason.params.get(k) == v for k, v in params.items())
    for lang in i18n.LANGUAGES:  # a translated text, every placeholder filled
        assert "{" not in i18n.translate(lang, expected, dict(outcome.reason.params))
    assert table.views.public == before
    assert table.referee.log.latest_game().id == before["number"]  # type: ignore[union-attr]


def test_a_retried_command_starts_one_game(tmp_path: Path) -> None:
    table = table_on(tmp_path / "log.db")
    first = table.handle(new_game("room25", [ANA, BEN, CHAI], {"mode": "competition"}, cid="h-1"))
    again = table.handle(new_game("room25", [ANA, BEN, CHAI], {"mode": "competition"}, cid="h-1"))
    assert first.accepted and again.accepted and again.duplicate
    assert table.referee.log.latest_game().id == table.referee.game_id == 2  # type: ignore[union-attr]


def test_play_again_keeps_a_set_up_file_the_game_already_uses(tmp_path: Path) -> None:
    log = EventLog(tmp_path / "log.db")
    setup = Setup("lockdown", (Player("ana", "Ana"), Player("ben", "Ben")), {"free_seconds": 60}, seed=3)
    current = Referee.start(registry(), log, setup, created_at=1).setup
    again = setup_of({"game": "lockdown", "players": [ANA, BEN], "options": dict(current.options)},
                     registry(), 9, current)
    assert again.options == {"free_seconds": 60} and again.seed == 9


@settings(max_examples=40, deadline=None)
@given(st.lists(st.text(min_size=1, max_size=30), min_size=1, max_size=6))
def test_any_name_in_any_script_within_the_length_is_kept_stripped(names: list[str]) -> None:
    players = [{"id": f"p{n}", "name": name} for n, name in enumerate(names, start=1)]
    try:
        setup = setup_of({"game": "toolkit", "players": players}, registry(), 1)
    except Exception as err:
        assert getattr(err, "code", None) == "reject.new_game.player_name"
        assert any(not 0 < len(n.strip()) <= NAME_MAX for n in names)
        return
    assert [p.name for p in setup.players] == [n.strip() for n in names]


def test_after_a_power_cut_the_new_game_is_the_one_resumed(tmp_path: Path) -> None:
    path = tmp_path / "state" / "log.db"
    cfg = load(flags={"storage.path": str(path), "game.default": "toolkit", "game.players": ["ana", "ben"]},
               system_path=None, user_path=None, env={"HOME": str(tmp_path)})
    table, resumed = open_table(cfg)
    assert not resumed
    table.handle({"by": "host", "move": "game.end", "args": {}})
    assert table.handle(new_game("room25", [ANA, BEN, CHAI], {"mode": "competition"})).accepted
    number = table.referee.game_id
    # the power goes: nothing is closed, the SQLite file is all that is left
    again, resumed = open_table(cfg)
    assert resumed and again.referee.game_id == number
    assert again.views.public["game"] == "room25" and again.views.public["options"] == {"mode": "competition"}
    assert [p["name"] for p in again.views.public["players"]] == ["Ana", "Ben", "ชัย"]
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT count(*) FROM games").fetchone()[0] == 2


def test_the_console_says_the_new_game_and_its_announcements(tmp_path: Path) -> None:
    import io

    from companion.console import ConsoleOutput

    table = table_on(tmp_path / "log.db")
    out = io.StringIO()
    console = ConsoleOutput(out, "en")
    table.outputs.append(console)
    console.show(table.views.public)
    table.handle({"by": "host", "move": "game.end", "args": {}})
    table.handle(new_game("toolkit", [ANA, BEN]))
    table.handle({"by": "host", "move": "dice.roll", "args": {"sides": 6, "count": 1}})
    lines = out.getvalue().splitlines()
    assert any("Another game: " in line and "(game 2 in the log)" in line for line in lines)
    assert "rolled" in lines[-1].lower() or "dice" in lines[-1].lower()  # the new game's first announcement


def test_companion_runs_another_game_from_its_console(tmp_path: Path) -> None:
    """`companion run --jsonl`: the host's lines on standard input end the game and start another one;
    the replies, the notice and the new game's announcements come on standard output, no restart."""
    from click.testing import CliRunner

    from companion.cli import main

    env: dict[str, str | None] = {k: None for k in os.environ if k.startswith("COMPANION_")}
    env |= {"XDG_CONFIG_HOME": str(tmp_path / "cfg"), "XDG_STATE_HOME": str(tmp_path / "state")}
    db = tmp_path / "night.sqlite3"
    lines = [{"by": "host", "move": "game.end", "args": {}},
             new_game("lab_escape", [ANA, CHAI], {"dice": "table"}),
             {"by": "player:ana", "move": "table.new_game", "args": {"game": "toolkit", "players": [ANA]}}]
    stdin = "".join(json.dumps(x) + "\n" for x in lines)
    result = CliRunner().invoke(main, ["run", "--db", str(db), "--players", "ana,ben", "--jsonl"], input=stdin, env=env)
    assert result.exit_code == 0, result.output
    out = [json.loads(line) for line in result.output.splitlines() if line.startswith("{")]
    replies = [o for o in out if "line" in o]
    assert [r["ok"] for r in replies] == [True, True, False]
    assert replies[-1]["reason"]["code"] == "reject.not_allowed"
    assert {"new_game": {"game": "lab_escape", "number": 2}} in out
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT count(*) FROM games").fetchone()[0] == 2


def test_what_a_setup_announces_by_itself_is_not_a_start(tmp_path: Path) -> None:
    """Jailbreak announces at its setup, before anyone has played: another game may still be chosen
    (the host has nothing to end), and the kiosk still shows the attract loop for it."""
    from companion.kiosk.screens import started
    from companion.table.next_game import in_progress

    table = table_on(tmp_path / "log.db", "jailbreak", ("ana", "ben", "chai"))
    public = table.views.public
    assert public["announced"] > 0 and not public["begun"]
    assert not in_progress(public) and not started(public)
    outcome = table.handle({"by": "host", "move": "table.new_game", "args": {
        "game": "room25", "players": [{"id": "ana", "name": "Ana"}, {"id": "ben", "name": "Ben"}],
        "options": {"mode": "cooperation"}}})
    assert outcome.accepted, outcome
    assert table.views.public["game"] == "room25"
