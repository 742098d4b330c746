"""Replay and scripting for rules checks and hosts preparing a night (issue 31): a refused line prints its
reason and the view just before it (`--json` too); the whole story of announcements on request
(`--all-announcements`; views keep the last 20), also of a finished game in a log (`show`); and a
script's file options (Lockdown's `map_file`, Betrayal's `data`) are found next to the script, whatever
the working directory (docs/scripting.md)."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from companion.cli import main
from companion.games.betrayal import data as betrayal_data

ROOT = Path(__file__).resolve().parents[2]
HAUNT = ROOT / "docs" / "games" / "betrayal" / "haunt-4.jsonl"  # 64 announcements, finished

BAD = ('{"game": "toolkit", "players": ["ana", "ben"]}\n'
       '{"by": "host", "move": "ballot.open", "args": {"name": "b", "options": ["x", "y"], "change": "final"}}\n'
       '{"by": "player:ana", "move": "ballot.vote", "args": {"name": "b", "option": "x"}}\n'
       '{"by": "player:ana", "move": "ballot.vote", "args": {"name": "b", "option": "y"}}\n')


@pytest.fixture
def runner(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> CliRunner:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "cfg"))
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    for key in [k for k in os.environ if k.startswith("COMPANION_")]:
        monkeypatch.delenv(key)
    return CliRunner()


def test_a_refused_line_prints_its_reason_and_the_view_just_before_it(runner: CliRunner, tmp_path: Path) -> None:
    script = tmp_path / "bad.jsonl"
    script.write_text(BAD, encoding="utf-8")
    result = runner.invoke(main, ["replay", str(script), "--json"])
    assert result.exit_code == 1
    assert f"{script}:4:" in result.stderr and "reject.ballot_already_voted" in result.stderr
    view = json.loads(result.stdout)  # the state after line 3: ana's first vote counted
    assert view["table"]["ballots"]["b"]["cast"] == 1 and view["table"]["ballots"]["b"]["open"]


def test_the_view_before_a_refusal_is_readable_without_json_and_for_any_audience(runner: CliRunner,
                                                                                 tmp_path: Path) -> None:
    script = tmp_path / "bad.jsonl"
    script.write_text(BAD, encoding="utf-8")
    result = runner.invoke(main, ["replay", str(script), "--view", "player:ana"])
    assert result.exit_code == 1 and "reject.ballot_already_voted" in result.stderr
    view = json.loads(result.stdout)  # indented JSON, as a replay that succeeds prints it
    assert view["table"]["ballots"]["b"]["cast"] == 1 and "\n  " in result.stdout


def test_all_announcements_gives_the_whole_story(runner: CliRunner) -> None:
    short = json.loads(runner.invoke(main, ["replay", str(HAUNT), "--json"]).stdout)
    assert short["announced"] == 64 and len(short["announcements"]) == 20
    whole = json.loads(runner.invoke(main, ["replay", str(HAUNT), "--json", "--all-announcements"]).stdout)
    story = whole["announcements"]
    assert len(story) == 64 and story[-20:] == short["announcements"]
    assert any(a["msg"] == "betrayal.haunt_revealed" for a in story)  # long gone from the last 20


def test_a_finished_games_story_is_shown_whole_from_its_log(runner: CliRunner, tmp_path: Path) -> None:
    db = tmp_path / "night.sqlite3"
    assert runner.invoke(main, ["replay", str(HAUNT), "--db", str(db)]).exit_code == 0
    shown = runner.invoke(main, ["show", "--db", str(db), "--all-announcements"])
    assert shown.exit_code == 0, shown.output
    view = json.loads(shown.stdout)
    assert view["ended"] and len(view["announcements"]) == 64
    replayed = json.loads(runner.invoke(main, ["replay", str(HAUNT), "--json", "--all-announcements"]).stdout)
    assert view["announcements"] == replayed["announcements"]


def test_the_story_holds_no_secret(runner: CliRunner) -> None:
    """Announcements are public: the whole story of the haunt shows neither side's goals."""
    out = runner.invoke(main, ["replay", str(HAUNT), "--json", "--all-announcements"]).stdout
    goals = betrayal_data.of({"data": None}).haunt(2).goals
    for text in (goals.heroes.en, goals.traitor.en):
        assert text not in out


def test_map_file_is_found_next_to_the_script(runner: CliRunner, tmp_path: Path) -> None:
    night = tmp_path / "night"
    night.mkdir()
    shutil.copy(ROOT / "companion" / "games" / "lockdown" / "data" / "map.toml", night / "our-map.toml")
    script = night / "lockdown.jsonl"
    script.write_text('{"game": "lockdown", "players": ["ana", "ben"], "options": {"map_file": "our-map.toml"}}\n',
                      encoding="utf-8")
    assert not (Path.cwd() / "our-map.toml").exists()
    result = runner.invoke(main, ["replay", str(script), "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["options"]["map_file"] == str(night / "our-map.toml")


def test_a_data_directory_is_found_next_to_the_script(runner: CliRunner, tmp_path: Path) -> None:
    shutil.copytree(betrayal_data.bundled_dir(), tmp_path / "our-house")
    script = tmp_path / "betrayal.jsonl"
    script.write_text('{"game": "betrayal", "players": ["ana", "ben", "chai"], "options": {"data": "our-house"}}\n',
                      encoding="utf-8")
    result = runner.invoke(main, ["replay", str(script), "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["options"]["data"] == str(tmp_path / "our-house")


def test_an_absolute_map_file_is_kept(runner: CliRunner, tmp_path: Path) -> None:
    mine = tmp_path / "elsewhere.toml"
    shutil.copy(ROOT / "companion" / "games" / "lockdown" / "data" / "map.toml", mine)
    script = tmp_path / "sub" / "lockdown.jsonl"
    script.parent.mkdir()
    script.write_text(json.dumps({"game": "lockdown", "players": ["ana", "ben"], "options": {"map_file": str(mine)}})
                      + "\n", encoding="utf-8")
    result = runner.invoke(main, ["replay", str(script), "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["options"]["map_file"] == str(mine)
