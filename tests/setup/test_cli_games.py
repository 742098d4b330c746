"""The command line meets its README (issue 21): `companion games ID` shows a game's options (defaults,
allowed values, what each does) and its moves, in the table's language; `show` and `export` read the
configured log; a mistyped game id, option name or option value is refused naming the nearest ones."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from hypothesis import given, settings
from hypothesis import strategies as st

from companion import i18n
from companion.cli import main
from companion.games import registry

GAMES = registry()
MSGID = re.compile(r"\b(?:cli|kind|sender|phase|game)\.[a-z_]+\.[a-z_.]+\b|\b[a-z_]+\.(?:option|move)\.[a-z_.]+\b")


@pytest.fixture
def home(tmp_path: Path) -> dict[str, str | None]:
    """A user at a terminal with no screen (as on CI): no config files of their own, state in the temp dir,
    no COMPANION_ variables, and no display to open (the kiosk tests of the same process set SDL's dummy
    driver, with which `companion run` would rightly open a kiosk and wait for it)."""
    env: dict[str, str | None] = {k: None for k in os.environ if k.startswith("COMPANION_")}
    env |= {"SDL_VIDEODRIVER": None, "DISPLAY": None, "WAYLAND_DISPLAY": None}
    env |= {"XDG_CONFIG_HOME": str(tmp_path / "cfg"), "XDG_STATE_HOME": str(tmp_path / "state")}
    return env


def cli(env: dict[str, str | None], *args: str, stdin: str | None = None) -> Result:
    return CliRunner().invoke(main, list(args), env=env, input=stdin)


def section(output: str, start: str, end: str | None = None) -> str:
    after = output.split(start, 1)[1]
    return after.split(end, 1)[0] if end else after


# --- games ID -----------------------------------------------------------------------------------------

def test_games_lockdown_shows_each_option_with_default_allowed_values_and_meaning(home: dict[str, str | None]) -> None:
    result = cli(home, "games", "lockdown")
    assert result.exit_code == 0, result.output
    out = result.output
    assert out.startswith("lockdown ") and "Lockdown" in out and "2-9" in out
    options = section(out, "Options", "Moves")
    assert "--game lockdown --option KEY=VALUE" in options
    lines = {line.split()[0]: line for line in options.splitlines() if line.startswith("  ") and line.split()}
    assert "digital" in lines["items"] and "physical" in lines["items"] and "default: digital" in lines["items"]
    assert "0-3600" in lines["free_seconds"] and "default: 300" in lines["free_seconds"]
    assert "0-1800" in lines["turn_seconds"] and "default: 120" in lines["turn_seconds"]
    assert "default: none" in lines["map_file"] and "400" in lines["map_file"]
    assert i18n.translate("en", "lockdown.option.items") in options  # what the option does
    assert not MSGID.findall(out), MSGID.findall(out)


def test_games_lockdown_shows_its_moves_with_who_phase_secrecy_and_arguments(home: dict[str, str | None]) -> None:
    out = cli(home, "games", "lockdown").output
    moves = section(out, "Moves")
    for name in GAMES["lockdown"].moves:
        assert f"  {name} " in moves or moves.count(f"  {name}\n"), name
    prepare = section(moves, "  lockdown.prepare", "  lockdown.")
    assert "a player" in prepare and "secret" in prepare and "Setup" in prepare  # its phase, by name
    for arg in ("force", "speed", "load", "spawn"):
        assert f"{arg}:" in prepare
    assert "1-10" in prepare  # speed's range
    assert "the clock" in section(moves, "  lockdown.timer_expire", "  lockdown.")


@pytest.mark.parametrize(("lang", "script"), [("zh", re.compile(r"[\u4e00-\u9fff]")),
                                              ("th", re.compile(r"[\u0e00-\u0e7f]"))])
def test_games_id_speaks_the_asked_language(home: dict[str, str | None], lang: str, script: re.Pattern[str]) -> None:
    result = cli(home, "games", "room25", "--lang", lang)
    assert result.exit_code == 0, result.output
    out = result.output
    assert i18n.translate(lang, "room25.option.mode") in out
    assert i18n.translate(lang, "sender.host") in out
    header = i18n.translate(lang, "cli.games.options", {"game": "room25"})
    assert header in out and script.search(header)  # the section titles too
    assert "Options" not in out and "Moves" not in out and "default" not in out
    assert not MSGID.findall(out), MSGID.findall(out)


def test_the_configured_language_is_the_default(home: dict[str, str | None], tmp_path: Path) -> None:
    cfg = tmp_path / "thai.toml"
    cfg.write_text('[table]\nlanguage = "th"\n', encoding="utf-8")
    out = cli(home, "--config", str(cfg), "games", "toolkit").output
    assert i18n.translate("th", "toolkit.move.timer.start") in out


def test_the_toolkits_moves_are_described(home: dict[str, str | None]) -> None:
    out = cli(home, "games", "toolkit", "--lang", "zh").output
    for name in GAMES["toolkit"].moves:
        if "clock" not in GAMES["toolkit"].moves[name].who:
            assert i18n.translate("zh", f"toolkit.move.{name}") in out, name
    assert i18n.translate("zh", "cli.games.no_options") in out


@pytest.mark.parametrize("game_id", list(GAMES))
def test_every_game_shows_every_option_and_move_in_every_language(home: dict[str, str | None], game_id: str) -> None:
    game = GAMES[game_id]
    for lang in i18n.LANGUAGES:
        result = cli(home, "games", game_id, "--lang", lang)
        assert result.exit_code == 0, result.output
        for option in game.Options.model_fields:
            assert f"  {option} " in result.output, (lang, option)
            assert i18n.translate(lang, f"{game_id}.option.{option}") in result.output
        for move in game.moves:
            assert f"  {move}" in result.output, (lang, move)
        assert not MSGID.findall(result.output), (lang, MSGID.findall(result.output))
        assert not re.findall(r"\{[a-z_]+\}", result.output)  # no unfilled placeholder


def test_games_lists_every_game_and_points_at_games_id(home: dict[str, str | None]) -> None:
    out = cli(home, "games").output
    assert [line.split()[0] for line in out.splitlines()[: len(GAMES)]] == list(GAMES)
    assert "companion games ID" in out.splitlines()[-1]


# --- mistyped names -----------------------------------------------------------------------------------

def test_a_mistyped_game_id_is_refused_naming_the_nearest(home: dict[str, str | None], tmp_path: Path) -> None:
    games = cli(home, "games", "lockdwn")
    assert games.exit_code == 2 and "“lockdwn”" in games.output and "lockdown" in games.output
    demo = cli(home, "demo", "--game", "room52")
    assert demo.exit_code == 2 and "room25" in demo.output
    db = tmp_path / "night" / "game.sqlite3"
    run = cli(home, "run", "--db", str(db), "--game", "jailbrake", "--players", "ana,ben,chai", "--jsonl", stdin="")
    assert run.exit_code != 0 and "jailbreak" in run.output
    assert not db.parent.exists()  # refused before anything was opened
    far = cli(home, "games", "chess")
    assert far.exit_code == 2 and "chess" in far.output and all(g in far.output for g in GAMES)


def test_a_mistyped_option_name_or_value_is_refused_naming_the_nearest(home: dict[str, str | None],
                                                                      tmp_path: Path) -> None:
    db = tmp_path / "night" / "game.sqlite3"
    base = ["run", "--db", str(db), "--game", "lockdown", "--players", "ana,ben", "--jsonl"]
    name = cli(home, *base, "--option", "item=physical", stdin="")
    assert name.exit_code != 0 and "“item”" in name.output and "items" in name.output
    assert "turn_seconds" in name.output  # every option it has
    value = cli(home, *base, "--option", "items=physcal", stdin="")
    assert value.exit_code != 0 and "“physcal”" in value.output and "physical" in value.output
    assert not db.parent.exists()
    none = cli(home, "run", "--db", str(db), "--game", "toolkit", "--option", "seconds=5", stdin="")
    assert none.exit_code != 0 and "seconds" in none.output and not db.parent.exists()
    chinese = cli(home, *base, "--lang", "zh", "--option", "fre_seconds=30", stdin="")
    assert "free_seconds" in chinese.output and re.search(r"[\u4e00-\u9fff]", chinese.output)
    fine = cli(home, *base, "--option", "items=physical", "--option", "free_seconds=45", stdin="")
    assert fine.exit_code == 0, fine.output


def test_a_mistyped_game_in_the_config_file_names_the_nearest_too(home: dict[str, str | None], tmp_path: Path) -> None:
    cfg = tmp_path / "club.toml"
    cfg.write_text(f'[game]\ndefault = "lab_escap"\n[storage]\npath = "{tmp_path / "club/log.sqlite3"}"\n')
    result = cli(home, "--config", str(cfg), "run", "--jsonl", stdin="")
    assert result.exit_code == 1 and "lab_escape" in result.output


@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_one_slip_of_the_finger_still_finds_the_name(data: st.DataObject) -> None:
    from companion.commandline.nearest import nearest

    game = data.draw(st.sampled_from(list(GAMES.values())))
    names = list(game.Options.model_fields) or [game.id]
    word = data.draw(st.sampled_from(names))
    at = data.draw(st.integers(0, len(word) - 1))
    letter = data.draw(st.sampled_from("abcdefghijklmnopqrstuvwxyz_"))
    slip = data.draw(st.sampled_from(["drop", "swap", "replace", "insert"]))
    typed = {"drop": word[:at] + word[at + 1:], "replace": word[:at] + letter + word[at + 1:],
             "insert": word[:at] + letter + word[at:],
             "swap": word[:at] + word[at + 1: at + 2] + word[at] + word[at + 2:]}[slip]
    if typed in names:
        return
    assert word in nearest(typed, names), (typed, names)


# --- show and export ----------------------------------------------------------------------------------

def test_show_and_export_read_the_configured_log(home: dict[str, str | None], tmp_path: Path) -> None:
    log = tmp_path / "club" / "games.sqlite3"
    cfg = tmp_path / "club.toml"
    cfg.write_text(f'[storage]\npath = "{log}"\n', encoding="utf-8")
    stdin = json.dumps({"by": "host", "move": "roles.deal", "args": {"name": "r", "roles": ["spy", "cop"]}}) + "\n"
    ran = cli(home, "--config", str(cfg), "run", "--players", "ana,ben", "--jsonl", stdin=stdin)
    assert ran.exit_code == 0, ran.output

    shown = cli(home, "--config", str(cfg), "show", "--view", "player:ana")
    assert shown.exit_code == 0, shown.output
    assert json.loads(shown.output)["private"]["roles"]["r"] in {"spy", "cop"}
    exported = cli(home, "--config", str(cfg), "export")
    assert exported.exit_code == 0 and '"roles.deal"' in exported.output
    by_env = cli(home | {"COMPANION_STORAGE__PATH": str(log)}, "show")
    assert by_env.exit_code == 0 and json.loads(by_env.output)["game"] == "toolkit"
    assert cli(home, "show", "--db", str(log)).output == cli(home, "--config", str(cfg), "show").output


def test_show_without_a_log_says_where_it_looked(home: dict[str, str | None], tmp_path: Path) -> None:
    result = cli(home, "show")
    assert result.exit_code == 1
    expected = tmp_path / "state" / "companion" / "companion.sqlite3"
    assert str(expected) in result.output and "storage.path" in result.output
    assert not expected.exists()
    thai = cli(home | {"COMPANION_TABLE__LANGUAGE": "th"}, "export")
    assert thai.exit_code == 1 and re.search(r"[\u0e00-\u0e7f]", thai.output)


# --- run --config -------------------------------------------------------------------------------------

def test_run_takes_config_like_the_group_and_refuses_two_different_ones(home: dict[str, str | None],
                                                                     tmp_path: Path) -> None:
    log = tmp_path / "night" / "game.sqlite3"
    cfg = tmp_path / "night.toml"
    cfg.write_text(f'[storage]\npath = "{log}"\n[table]\nlanguage = "zh"\n', encoding="utf-8")
    result = cli(home, "run", "--config", str(cfg), stdin="")
    assert result.exit_code == 0 and str(log) in result.output and "记录文件" in result.output
    other = tmp_path / "other.toml"
    other.write_text("")
    both = cli(home, "--config", str(other), "run", "--config", str(cfg), stdin="")
    assert both.exit_code == 2 and "--config" in both.output
