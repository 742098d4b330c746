"""The command line as a user meets it: replay, demo, games, show, export, config check."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from companion import i18n
from companion.cli import main

DEMO = Path(__file__).resolve().parents[2] / "companion" / "scripts" / "toolkit-demo.jsonl"


@pytest.fixture
def runner(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> CliRunner:
    # A user with no config files of their own; state goes to the temp dir.
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "cfg"))
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    for key in [k for k in os.environ if k.startswith("COMPANION_")]:
        monkeypatch.delenv(key)
    return CliRunner()


def test_python_dash_m_companion_shows_help() -> None:
    out = subprocess.run([sys.executable, "-m", "companion", "--help"], capture_output=True, text=True, check=True)
    for command in ("run", "demo", "replay", "games", "config"):
        assert command in out.stdout


def test_replay_prints_the_public_view_without_secrets(runner: CliRunner) -> None:
    result = runner.invoke(main, ["replay", str(DEMO), "--view", "public", "--json"])
    assert result.exit_code == 0, result.output
    view = json.loads(result.output)
    ballot = view["table"]["ballots"]["exile"]
    assert ballot["result"]["totals"] == {"ana": 3, "ben": 3, "chai": 0, "dao": 0}
    assert ballot["result"]["winner"] == "ana"  # the host broke the tie
    assert "werewolf" in json.dumps(view)  # revealed for ana ...
    assert view["table"]["deals"]["roles"]["revealed"] == {"ana": "werewolf"}
    assert "seer" not in json.dumps(view["table"]["deals"]["roles"]["revealed"])  # ... nobody else's


def test_replay_player_view_has_only_that_players_secrets(runner: CliRunner) -> None:
    result = runner.invoke(main, ["replay", str(DEMO), "--view", "player:ben", "--json"])
    private = json.loads(result.output)["private"]
    assert private["ballots"]["exile"] == {"eligible": True, "my_vote": "ana"}
    assert private["counters"] == {"hp": 6}


def test_a_rejected_line_gives_its_number_and_reason_and_fails(runner: CliRunner, tmp_path: Path) -> None:
    script = tmp_path / "bad.jsonl"
    script.write_text(
        '{"game": "toolkit", "players": ["ana", "ben"]}\n'
        '{"by": "host", "move": "ballot.open", "args": {"name": "b", "options": ["x", "y"], "change": "final"}}\n'
        "# a comment line\n"
        '{"by": "player:ana", "move": "ballot.vote", "args": {"name": "b", "option": "x"}}\n'
        '{"by": "player:ana", "move": "ballot.vote", "args": {"name": "b", "option": "y"}}\n',
        encoding="utf-8",
    )
    result = runner.invoke(main, ["replay", str(script)])
    assert result.exit_code == 1
    assert f"{script}:5:" in result.output
    assert "reject.ballot_already_voted" in result.output


def test_replay_reports_a_bad_setup_on_line_1(runner: CliRunner, tmp_path: Path) -> None:
    script = tmp_path / "bad.jsonl"
    script.write_text('{"game": "chess", "players": ["a"]}\n', encoding="utf-8")
    result = runner.invoke(main, ["replay", str(script)])
    assert result.exit_code == 1
    assert ":1:" in result.output and "chess" in result.output


@pytest.mark.parametrize(("lang", "sample"), [("en", "Timer"), ("zh", "计时器"), ("th", "ตัวจับเวลา")])
def test_demo_speaks_the_tables_language(runner: CliRunner, lang: str, sample: str) -> None:
    result = runner.invoke(main, ["demo", "--lang", lang])
    assert result.exit_code == 0, result.output
    assert sample in result.output
    assert "toolkit." not in result.output  # no message id leaks through untranslated
    assert i18n.translate(lang, "toolkit.role.werewolf") in result.output  # ana's role was revealed, in words
    assert i18n.translate(lang, "toolkit.role.seer") not in result.output  # the others were not
    assert "werewolf" not in result.output and "“exile”" not in result.output  # ids never (companion/naming.py)


def test_games_lists_the_toolkit(runner: CliRunner) -> None:
    result = runner.invoke(main, ["games", "--lang", "zh"])
    assert result.exit_code == 0
    assert result.output.startswith("toolkit")


def test_config_check_names_the_bad_key_value_and_choices(runner: CliRunner, tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text('[storage]\nsynchronous = "FAST"\n', encoding="utf-8")
    result = runner.invoke(main, ["--config", str(bad), "config", "check"])
    assert result.exit_code == 1
    assert "storage.synchronous" in result.output and "FAST" in result.output and "FULL" in result.output


def test_run_show_and_export_round_trip(runner: CliRunner, tmp_path: Path) -> None:
    db = tmp_path / "night.sqlite3"
    lines = [
        {"by": "host", "move": "roles.deal", "args": {"name": "r", "roles": ["spy", "cop"]}},
        {"by": "player:ana", "move": "dice.roll", "args": {}},
    ]
    stdin = "".join(json.dumps(x) + "\n" for x in lines)
    result = runner.invoke(main, ["run", "--db", str(db), "--players", "ana,ben", "--jsonl"], input=stdin)
    assert result.exit_code == 0, result.output
    replies = [json.loads(line) for line in result.output.splitlines() if '"line"' in line]
    assert [r["ok"] for r in replies] == [True, True]
    assert "spy" not in result.output and "cop" not in result.output  # the console is a public output

    shown = runner.invoke(main, ["show", "--db", str(db), "--view", "player:ana"])
    assert json.loads(shown.output)["private"]["roles"]["r"] in {"spy", "cop"}

    exported = tmp_path / "night.jsonl"
    assert runner.invoke(main, ["export", "--db", str(db), "-o", str(exported)]).exit_code == 0
    again = runner.invoke(main, ["replay", str(exported), "--view", "host", "--json"])
    assert again.exit_code == 0, again.output
    original = runner.invoke(main, ["show", "--db", str(db), "--view", "host"])
    assert json.loads(again.output) == json.loads(original.output)


def test_run_starts_a_new_game_with_the_options_given(runner: CliRunner, tmp_path: Path) -> None:
    db = tmp_path / "night.sqlite3"
    args = ["run", "--db", str(db), "--game", "lockdown", "--players", "ana,ben", "--jsonl",
            "--option", "items=physical", "--option", "free_seconds=45"]
    assert runner.invoke(main, args, input="").exit_code == 0
    exported = tmp_path / "night.jsonl"
    assert runner.invoke(main, ["export", "--db", str(db), "-o", str(exported)]).exit_code == 0
    setup = json.loads(exported.read_text(encoding="utf-8").splitlines()[0])
    assert setup["options"] == {"items": "physical", "free_seconds": 45}


def test_run_refuses_an_option_the_game_does_not_take(runner: CliRunner, tmp_path: Path) -> None:
    db = tmp_path / "night.sqlite3"
    args = ["run", "--db", str(db), "--game", "lockdown", "--players", "ana,ben", "--option", "free_seconds=soon"]
    result = runner.invoke(main, args, input="")
    assert result.exit_code != 0
    assert "free_seconds" in result.output
    bad = runner.invoke(main, ["run", "--db", str(db), "--option", "items"], input="")
    assert bad.exit_code == 2 and "KEY=VALUE" in bad.output


def test_demo_plays_a_games_recorded_game(runner: CliRunner) -> None:
    result = runner.invoke(main, ["demo", "--game", "lockdown", "--lang", "zh"])
    assert result.exit_code == 0, result.output
    ranking_prefix = i18n.translate("zh", "status.ranking", {"ranking": "\x00"}).split("\x00")[0]
    assert result.output.strip().splitlines()[-1].startswith(ranking_prefix)  # the game ran to its end
    missing = runner.invoke(main, ["demo", "--game", "toolkit"])
    assert missing.exit_code == 2 and "lockdown" in missing.output
