"""Configuration: layers and precedence, one message per problem, round trips. Real files, real env maps."""

from __future__ import annotations

import json
import string
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion import config as c
from companion.config import Config, ConfigError, load

HOME = "/home/tester"


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def load_files(tmp_path: Path, system: str | None = None, user: str | None = None, extra: str | None = None,
               env: dict[str, str] | None = None, flags: dict[str, object] | None = None) -> Config:
    """Load with every file under tmp_path; a file given as None is absent (not written)."""
    paths = {name: tmp_path / f"{name}.toml" for name in ("system", "user", "extra")}
    for name, text in (("system", system), ("user", user), ("extra", extra)):
        if text is not None:
            write(paths[name], text)
    return load(flags=flags, env={"HOME": HOME, **(env or {})}, system_path=paths["system"],
                user_path=paths["user"], extra_file=paths["extra"] if extra is not None else None)


def problems(tmp_path: Path, **kwargs: Any) -> list[str]:
    """The messages, with the temporary folder cut from file names to keep the expectations short."""
    with pytest.raises(ConfigError) as info:
        load_files(tmp_path, **kwargs)
    assert str(info.value) == "\n".join(map(str, info.value.problems))
    return [str(p).replace(f"{tmp_path}/", "") for p in info.value.problems]


# --- defaults and paths ---------------------------------------------------------------------------------

def test_defaults_with_no_files_and_empty_environment() -> None:
    cfg = load(env={"HOME": HOME}, system_path=None, user_path=None)
    assert cfg.model_dump(mode="json") == {
        "table": {"id": "table1", "language": "en"},
        "storage": {"path": f"{HOME}/.local/state/companion/companion.sqlite3", "synchronous": "FULL"},
        "game": {"default": "toolkit", "players": ["p1", "p2", "p3", "p4"], "options": {}, "moderator": False},
        "timers": {"resume_after_restart": "pause"},
        "display": {"size": "auto", "fullscreen": False, "enabled": "auto", "driver": None, "volume": 80,
                    "booth_timeout": 30, "attract": True, "idle_return": 120, "attract_url": None},
        "mqtt": {"broker": "auto", "url": None, "prefix": "companion", "port": 1883, "ws_port": 9001,
                 "spectators": 0, "provision": None, "page_port": 8080, "page_host": None},
        "readers": {"simulate": "auto", "repeat_window_ms": None,
                    "devices": [{"name": "pn532", "driver": "pn532", "port": "/dev/serial0"}]},
        "gpio": {"enabled": "auto", "pull_up": True, "bounce_ms": 30, "hold_ms": 800,
                 "buttons": [{"name": "next", "pin": 17, "press": "next", "long": "prev"},
                             {"name": "ok", "pin": 27, "press": "select", "long": "back"}],
                 "combos": [{"buttons": ["next", "ok"], "action": "menu", "hold_ms": 1000}],
                 "led_reader": 5, "led_broker": 6, "turn_leds": [], "buzzer": 12},
        "hall": {"url": None, "name": None, "password": None, "keepalive": 5},
        "kiosk": {"host_pin": ""},
    }
    assert isinstance(cfg.storage.path, Path)


def test_sections_table_matches_the_config_model() -> None:
    assert list(c.SECTIONS) == list(Config.model_fields)
    for name, model in c.SECTIONS.items():
        assert Config.model_fields[name].annotation is model


def test_xdg_paths_follow_the_given_environment(tmp_path: Path) -> None:
    assert c.user_config_path({"HOME": HOME}) == Path(HOME, ".config/companion/config.toml")
    assert c.user_config_path({"HOME": HOME, "XDG_CONFIG_HOME": "/xdg"}) == Path("/xdg/companion/config.toml")
    relative = {"HOME": HOME, "XDG_CONFIG_HOME": "rel"}  # the XDG spec: ignore a relative value
    assert c.user_config_path(relative) == Path(HOME, ".config/companion/config.toml")
    state = {"HOME": HOME, "XDG_STATE_HOME": "/state"}
    assert load(env=state, system_path=None, user_path=None).storage.path == Path(
        "/state/companion/companion.sqlite3")
    # the user file is found through XDG_CONFIG_HOME of the mapping passed in, not os.environ
    write(tmp_path / "xdg/companion/config.toml", '[table]\nid = "from-xdg"\n')
    cfg = load(env={"HOME": HOME, "XDG_CONFIG_HOME": str(tmp_path / "xdg")}, system_path=None)
    assert cfg.table.id == "from-xdg"
    write(tmp_path / "home/.config/companion/config.toml", '[table]\nid = "from-home"\n')
    assert load(env={"HOME": str(tmp_path / "home")}, system_path=None).table.id == "from-home"


def test_tilde_in_storage_path_is_expanded(tmp_path: Path) -> None:
    cfg = load_files(tmp_path, user='[storage]\npath = "~/games/table.sqlite3"\n')
    assert cfg.storage.path == Path("~/games/table.sqlite3").expanduser()
    assert "~" not in str(cfg.storage.path)


def test_config_is_frozen(tmp_path: Path) -> None:
    cfg = load_files(tmp_path)
    with pytest.raises(ValueError):
        cfg.table.id = "other"  # type: ignore[misc]


# --- precedence -------------------------------------------------------------------------------------------

LAYERS = ["system", "user", "extra", "env", "flag"]


@pytest.mark.parametrize("present", [LAYERS[:n] for n in range(len(LAYERS) + 1)] + [["system", "env"],
                                                                                   ["user", "flag"]])
def test_the_highest_layer_present_wins(tmp_path: Path, present: list[str]) -> None:
    kwargs: dict[str, Any] = {}
    for name in ("system", "user", "extra"):
        if name in present:
            kwargs[name] = f'[table]\nid = "{name}"\n'
    if "env" in present:
        kwargs["env"] = {"COMPANION_TABLE__ID": "env"}
    if "flag" in present:
        kwargs["flags"] = {"table.id": "flag"}
    expected = present[-1] if present else "table1"
    assert load_files(tmp_path, **kwargs).table.id == expected


def test_layers_merge_key_by_key_not_section_by_section(tmp_path: Path) -> None:
    cfg = load_files(
        tmp_path,
        system='[storage]\npath = "/var/lib/companion/companion.sqlite3"\nsynchronous = "EXTRA"\n'
               '[display]\nsize = "800x480"\n',
        user='[storage]\nsynchronous = "NORMAL"\n[table]\nlanguage = "th"\n',
        extra='[display]\nfullscreen = true\n',
        env={"COMPANION_GAME__PLAYERS": '["ana", "ben"]', "COMPANION_TABLE__LANGUAGE": "zh"},
        flags={"game.default": "toolkit", "mqtt.url": None, "table.language": "en"},
    )
    assert cfg.storage.path == Path("/var/lib/companion/companion.sqlite3")  # system
    assert cfg.storage.synchronous == "NORMAL"  # user over system
    assert cfg.display.size == "800x480" and cfg.display.fullscreen is True  # system + extra
    assert cfg.game.players == ("ana", "ben")  # env
    assert cfg.table.language == "en"  # flag over env over user
    assert cfg.mqtt.url is None  # a flag given as None is not given
    shown = c.to_toml(cfg, origins=True)
    assert f'synchronous = "NORMAL"  # {tmp_path / "user.toml"}' in shown
    assert 'players = ["ana", "ben"]  # environment variable COMPANION_GAME__PLAYERS' in shown
    assert 'language = "en"  # command-line flag table.language' in shown
    assert 'resume_after_restart = "pause"  # built-in defaults' in shown
    assert "url" not in shown


def test_describe_sources_names_every_layer_and_what_was_skipped(tmp_path: Path) -> None:
    cfg = load_files(tmp_path, user="", extra="", env={"COMPANION_TABLE__ID": "t9", "OTHER": "x"},
                     flags={"display.size": "auto"})
    assert c.describe_sources(cfg) == [
        "built-in defaults",
        f"{tmp_path / 'system.toml'}: not found, skipped",
        f"{tmp_path / 'user.toml'}: read",
        f"{tmp_path / 'extra.toml'}: read",
        "environment: COMPANION_TABLE__ID",
        "command line: display.size",
    ]
    nothing = c.describe_sources(load_files(tmp_path))
    assert nothing[-2:] == ["environment: nothing set", "command line: nothing set"]


def test_missing_system_and_user_files_are_skipped(tmp_path: Path) -> None:
    cfg = load(env={"HOME": HOME}, system_path=tmp_path / "no/such.toml", user_path=tmp_path / "nope.toml")
    assert cfg.table.id == "table1"


def test_real_os_environ_is_the_default(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COMPANION_TABLE__ID", "from-os")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    assert load(system_path=None).table.id == "from-os"


# --- environment values -----------------------------------------------------------------------------------

@pytest.mark.parametrize(("name", "text", "key", "value"), [
    ("COMPANION_STORAGE__SYNCHRONOUS", "NORMAL", ("storage", "synchronous"), "NORMAL"),
    ("COMPANION_DISPLAY__FULLSCREEN", "true", ("display", "fullscreen"), True),
    ("COMPANION_DISPLAY__SIZE", "1920x1080", ("display", "size"), "1920x1080"),
    ("COMPANION_TABLE__ID", "123", ("table", "id"), "123"),  # a TOML integer, taken as the string
    ("COMPANION_TABLE__ID", '"true"', ("table", "id"), "true"),  # TOML quotes force a string
    ("COMPANION_GAME__PLAYERS", '["ana", "ben"]', ("game", "players"), ("ana", "ben")),
    ("COMPANION_STORAGE__PATH", "/tmp/x y.sqlite3", ("storage", "path"), Path("/tmp/x y.sqlite3")),
    ("COMPANION_MQTT__URL", "mqtt://broker.local:1883", ("mqtt", "url"), "mqtt://broker.local:1883"),
    ("companion_table__id", "lower", ("table", "id"), "table1"),  # not ours: the prefix is upper case
    ("COMPANION_LOG", "debug", ("table", "id"), "table1"),  # COMPANION_ without a section: not config
])
def test_environment_values(tmp_path: Path, name: str, text: str, key: tuple[str, str],
                            value: object) -> None:
    cfg = load_files(tmp_path, env={name: text})
    assert getattr(getattr(cfg, key[0]), key[1]) == value


def test_parse_value_takes_toml_values_and_falls_back_to_the_text() -> None:
    assert c.parse_value("3") == 3
    assert c.parse_value("false") is False
    assert c.parse_value('["a"]') == ["a"]
    assert c.parse_value("FULL") == "FULL"
    assert c.parse_value("1\nx = 2") == "1\nx = 2"  # no smuggling a second key in


# --- one message per problem: source, key, value, what is allowed -------------------------------------------

def test_bad_literal_in_a_file(tmp_path: Path) -> None:
    assert problems(tmp_path, system='[storage]\nsynchronous = "FAST"\n') == [
        'system.toml: storage.synchronous = "FAST" is not allowed; choose one of NORMAL, FULL, EXTRA'
    ]


def test_bad_type_in_a_file(tmp_path: Path) -> None:
    assert problems(tmp_path, user='[display]\nfullscreen = "yes"\n[game]\nplayers = "ana"\n') == [
        'user.toml: game.players = "ana" is not allowed; expected a list of strings, '
        'e.g. ["p1", "p2"]',
        'user.toml: display.fullscreen = "yes" is not allowed; expected true or false',
    ]


def test_bad_pattern_names_the_pattern_and_the_list_item(tmp_path: Path) -> None:
    assert problems(tmp_path, extra='[game]\nplayers = ["ana", "Ben!"]\n[table]\nid = "my/table"\n') == [
        'extra.toml: table.id = "my/table" is not allowed; '
        "must match the pattern ^[a-z0-9][a-z0-9_-]{0,31}$",
        'extra.toml: game.players[1] = "Ben!" is not allowed; '
        "must match the pattern ^[a-z0-9_-]{1,32}$",
    ]


def test_other_value_rules(tmp_path: Path) -> None:
    found = problems(tmp_path, system='[game]\nplayers = ["ana", "ana"]\n[storage]\npath = ""\n'
                                      '[mqtt]\nurl = "http://user:hunter2@host"\n')
    assert found == [
        'system.toml: storage.path = "" is not allowed; expected the path of a file',
        'system.toml: game.players = ["ana", "ana"] is not allowed; player ids must be unique',
        'system.toml: mqtt.url = "http://user:***@host" is not allowed; '
        r"must match the pattern ^(mqtt|mqtts|ws|wss)://\S+$",
    ]
    assert not any("hunter2" in p for p in found)
    assert problems(tmp_path, system="[game]\nplayers = []\n")[0].endswith(
        "game.players = [] is not allowed; expected at least one item")


def test_unknown_key_lists_the_known_keys_of_its_section(tmp_path: Path) -> None:
    assert problems(tmp_path, user='[storage]\nsync = "FULL"\n') == [
        'user.toml: storage.sync = "FULL" is not a known key; [storage] has: path, synchronous'
    ]


def test_unknown_section_lists_the_sections(tmp_path: Path) -> None:
    sections = "sections are table, storage, game, timers, display, mqtt, readers, gpio, hall, kiosk"
    assert problems(tmp_path, user='language = "th"\n[sound]\nvolume = 5\n[storage]\n[empty]\n') == [
        f'user.toml: language = "th" is not a known key; there is no section [language]; {sections}',
        f"user.toml: sound.volume = 5 is not a known key; there is no section [sound]; {sections}",
        f"user.toml: empty = {{}} is not a known key; there is no section [empty]; {sections}",
    ]


def test_a_section_that_is_not_a_table(tmp_path: Path) -> None:
    assert problems(tmp_path, user="storage = 5\n") == [
        "user.toml: storage = 5 is not allowed; expected a table: a [storage] section with keys"
    ]


def test_toml_syntax_error_gives_file_line_and_column(tmp_path: Path) -> None:
    assert problems(tmp_path, system='[table]\nid = "t1"\nlanguage = \n') == [
        "system.toml: line 3, column 12: invalid TOML: Invalid value"
    ]
    assert problems(tmp_path, system='[table]\nid = "t1\n') == [
        "system.toml: line 2, column 9: invalid TOML: Illegal character '\\n'"
    ]
    assert problems(tmp_path, system='[table]\nid = "t1') == [
        "system.toml: line 2, column 9: invalid TOML: Unterminated string at end of file"
    ]


def test_bad_environment_values_name_the_variable(tmp_path: Path) -> None:
    env = {"COMPANION_DISPLAY__SIZE": "640x480", "COMPANION_DISPLAY__FULLSCREEN": "yes",
           "COMPANION_STORAGE__JOURNAL": "WAL", "COMPANION_SOUND__VOLUME": "3"}
    assert problems(tmp_path, env=env) == [
        "environment variable COMPANION_SOUND__VOLUME: sound.volume = 3 is not a known key; "
        "there is no section [sound]; sections are table, storage, game, timers, display, mqtt, readers, gpio, "
        "hall, kiosk",
        'environment variable COMPANION_STORAGE__JOURNAL: storage.journal = "WAL" is not a known key; '
        "[storage] has: path, synchronous",
        'environment variable COMPANION_DISPLAY__SIZE: display.size = "640x480" is not allowed; '
        "choose one of 800x480, 1024x600, 1280x720, 1280x800, 1920x1080, auto",
        'environment variable COMPANION_DISPLAY__FULLSCREEN: display.fullscreen = "yes" is not allowed; '
        "expected true or false",
    ]


def test_a_single_underscore_variable_is_pointed_at_the_right_name(tmp_path: Path) -> None:
    assert problems(tmp_path, env={"COMPANION_STORAGE_SYNCHRONOUS": "NORMAL"}) == [
        "environment variable COMPANION_STORAGE_SYNCHRONOUS: is not a setting; separate section and key "
        "with two underscores: COMPANION_STORAGE__SYNCHRONOUS"
    ]


def test_bad_flags_name_the_flag(tmp_path: Path) -> None:
    assert problems(tmp_path, flags={"table.language": "fr", "verbose": True, "game.colour": "red"}) == [
        "command-line flag verbose: verbose = true is not a known key; "
        "flags are dotted keys such as storage.path",
        'command-line flag table.language: table.language = "fr" is not allowed; choose one of en, zh, th',
        'command-line flag game.colour: game.colour = "red" is not a known key; '
        '[game] has: default, options, players, moderator',
    ]


def test_every_problem_in_every_layer_is_reported_at_once(tmp_path: Path) -> None:
    found = problems(tmp_path, system='[timers]\nresume_after_restart = "resume"\n', user="[[",
                     env={"COMPANION_MQTT__BROKER": "rabbit"}, flags={"display.size": "4k"})
    assert [p.split(":")[0] for p in found] == [
        "system.toml", "user.toml",
        "environment variable COMPANION_MQTT__BROKER", "command-line flag display.size"]
    assert 'timers.resume_after_restart = "resume" is not allowed; choose one of keep, pause' in found[0]
    assert found[2].endswith('mqtt.broker = "rabbit" is not allowed; '
                             "choose one of mosquitto, external, auto")


def test_a_config_naming_the_removed_embedded_broker_says_what_to_write_instead(tmp_path: Path) -> None:
    """Issue 32: Mosquitto is the one broker. A config from before names "embedded": the error says what to
    set instead and how to install Mosquitto (docs/config.md, [mqtt])."""
    found = problems(tmp_path, user='[mqtt]\nbroker = "embedded"\n')
    assert found == ['user.toml: mqtt.broker = "embedded" is not allowed; the embedded broker was removed: '
                     'Mosquitto is the one broker. Set "auto" or "mosquitto" (install it: sudo apt install '
                     'mosquitto), or "external" with mqtt.url (docs/config.md, [mqtt])']


def test_a_bad_value_in_a_lower_layer_is_reported_even_when_overridden(tmp_path: Path) -> None:
    # `companion config check` must find a broken system file even if today's user file hides it
    found = problems(tmp_path, system='[table]\nlanguage = "fr"\n', user='[table]\nlanguage = "en"\n')
    assert found == ['system.toml: table.language = "fr" is not allowed; choose one of en, zh, th']


def test_unreadable_file_is_an_error(tmp_path: Path) -> None:
    (tmp_path / "system.toml").mkdir()
    assert problems(tmp_path) == ["system.toml: cannot read: Is a directory"]
    write(tmp_path / "user.toml", "").write_bytes(b'[table]\nid = "\xff"\n')
    assert problems(tmp_path)[1] == "user.toml: not UTF-8 text (byte 14)"


def test_a_missing_config_flag_file_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError) as info:
        load(env={"HOME": HOME}, system_path=None, user_path=None, extra_file=tmp_path / "gone.toml")
    assert str(info.value) == f"{tmp_path / 'gone.toml'}: file not found"


# --- properties -------------------------------------------------------------------------------------------

def _regex(pattern: str) -> st.SearchStrategy[str]:
    return st.from_regex(pattern, fullmatch=True)


SECTION_VALUES: dict[str, dict[str, st.SearchStrategy[Any]]] = {
    "table": {"id": _regex(c.TABLE_ID), "language": st.sampled_from(["en", "zh", "th"])},
    "storage": {
        "path": st.text(st.characters(codec="utf-8", exclude_characters="\x00"), min_size=1)
        .map(lambda t: "/" + t),
        "synchronous": st.sampled_from(["NORMAL", "FULL", "EXTRA"]),
    },
    "game": {"default": _regex(c.GAME_ID),
             "players": st.lists(_regex(c.PLAYER_ID), min_size=1, max_size=9, unique=True)},
    "timers": {"resume_after_restart": st.sampled_from(["keep", "pause"])},
    "display": {"size": st.sampled_from(["800x480", "1920x1080", "auto"]), "fullscreen": st.booleans()},
    "mqtt": {
        "broker": st.sampled_from(["mosquitto", "external", "auto"]),
        "url": st.builds("{}://{}".format, st.sampled_from(["mqtt", "mqtts", "ws", "wss"]),
                         st.text(string.ascii_letters + string.digits + ":/.@-_?=%", min_size=1)),
        "prefix": _regex(c.MQTT_PREFIX),
    },
    "readers": {
        "simulate": st.sampled_from(["auto", "always", "never"]),
        "repeat_window_ms": st.integers(0, 5000),
        "devices": st.lists(st.fixed_dictionaries({
            "name": _regex(c.READER_NAME),
            "driver": st.sampled_from(["board", "pn532"]),
            "port": st.text(st.characters(codec="utf-8", exclude_characters="\x00"), min_size=1, max_size=200),
        }), max_size=4, unique_by=lambda r: r["name"]),
    },
}
VALID: st.SearchStrategy[dict[str, dict[str, Any]]] = st.fixed_dictionaries({}, optional={
    name: st.fixed_dictionaries({}, optional=keys) for name, keys in SECTION_VALUES.items()
})


def _as_toml(data: dict[str, dict[str, Any]]) -> str:
    """An independent writer: TOML basic strings accept JSON's escapes (DEL must be escaped)."""
    def value(v: object) -> str:
        if isinstance(v, dict):  # a reader: an inline table
            return "{" + ", ".join(f"{k} = {value(item)}" for k, item in v.items()) + "}"
        if isinstance(v, list) and any(isinstance(item, dict) for item in v):
            return "[" + ", ".join(value(item) for item in v) + "]"
        return json.dumps(v, ensure_ascii=False).replace("\x7f", "\\u007f")

    return "".join(f"[{section}]\n" + "".join(f"{k} = {value(v)}\n" for k, v in values.items())
                   for section, values in data.items())


@settings(max_examples=150, deadline=None)
@given(VALID)
def test_any_valid_file_round_trips(data: dict[str, dict[str, Any]]) -> None:
    env = {"HOME": HOME}
    with tempfile.TemporaryDirectory() as tmp:
        path = write(Path(tmp, "config.toml"), _as_toml(data))
        cfg = load(env=env, system_path=path, user_path=None)
        expected = load(env=env, system_path=None, user_path=None).model_dump()
        for section, values in data.items():
            expected[section].update(values)
        assert cfg.model_dump() == Config.model_validate(expected).model_dump()
        # and what to_toml writes reads back as the same config
        again = load(env=env, system_path=write(Path(tmp, "again.toml"), c.to_toml(cfg)), user_path=None)
        assert again.model_dump() == cfg.model_dump()


@settings(max_examples=150, deadline=None)
@given(st.sampled_from([f"{s}.{k}" for s, keys in SECTION_VALUES.items() for k in keys]), st.text())
def test_any_environment_value_loads_or_fails_with_a_config_error(key: str, text: str) -> None:
    if "\x00" in text:
        return  # an environment variable cannot hold NUL
    section, name = key.split(".")
    var = f"COMPANION_{section.upper()}__{name.upper()}"
    try:
        load(env={"HOME": HOME, var: text}, system_path=None, user_path=None)
    except ConfigError as err:
        assert all(p.source == f"environment variable {var}" and p.key.startswith(key) for p in err.problems)


# --- the shipped example and the docs stay in step with the model -------------------------------------------

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "companion/data/config.example.toml"
DOCS = ROOT / "docs/config.md"
ALL_KEYS = [(s, k) for s, model in c.SECTIONS.items() for k in model.model_fields]


def test_the_example_file_loads_and_shows_every_key() -> None:
    cfg = load(env={"HOME": HOME}, system_path=EXAMPLE, user_path=None)
    assert cfg.model_dump() == load(env={"HOME": HOME}, system_path=None, user_path=None).model_dump()
    text = EXAMPLE.read_text(encoding="utf-8")
    for section, key in ALL_KEYS:
        assert f"[{section}]" in text
        assert f"\n{key} = " in text or f"\n# {key} = " in text, f"{section}.{key} missing from the example"


def test_the_docs_name_every_key_and_their_toml_examples_load(tmp_path: Path) -> None:
    text = DOCS.read_text(encoding="utf-8")
    for section, key in ALL_KEYS:
        assert f"### `[{section}]`" in text and f"| `{key}` |" in text, f"{section}.{key} missing from docs"
    blocks = text.split("```toml\n")[1:]
    assert len(blocks) >= 2
    for n, block in enumerate(blocks):
        load(env={"HOME": HOME}, system_path=write(tmp_path / f"doc{n}.toml", block.split("```")[0]),
             user_path=None)


# --- [gpio]: buttons, LEDs, buzzer (issue 7) ------------------------------------------------------------

def test_gpio_section_is_read_with_buttons_combos_and_unwired_parts(tmp_path: Path) -> None:
    cfg = load_files(tmp_path, system="""
[gpio]
enabled = true
bounce_ms = 50
buttons = [{ name = "red", pin = 22, press = "select" }, { name = "blue", pin = 23, long = "menu" }]
combos = [{ buttons = ["red", "blue"], action = "back", hold_ms = 0 }]
turn_leds = [13, 19, 26]
led_broker = false
buzzer = false
""")
    gpio = cfg.gpio
    assert gpio.enabled is True and gpio.bounce_ms == 50
    assert [(b.name, b.pin, b.press, b.long) for b in gpio.buttons] == [("red", 22, "select", None),
                                                                       ("blue", 23, None, "menu")]
    assert gpio.combos[0].buttons == ("red", "blue") and gpio.combos[0].hold_ms == 0
    assert gpio.turn_leds == (13, 19, 26)
    assert gpio.led_broker is None and gpio.buzzer is None and gpio.led_reader == 5


def test_gpio_bad_values_name_key_value_and_what_is_allowed(tmp_path: Path) -> None:
    assert problems(tmp_path, system="""
[gpio]
enabled = "yes"
bounce_ms = 500
buttons = [{ name = "a", pin = 22, press = "jump" }, { name = "b", pin = 40 }, { pin = 3 },
           { name = "c", pin = 4, x = 1 }]
turn_leds = [true]
led_reader = true
""") == [
        'system.toml: gpio.enabled = "yes" is not allowed; expected "auto", true or false',
        "system.toml: gpio.bounce_ms = 500 is not allowed; must be at most 200",
        "system.toml: gpio.buttons[0][press] = \"jump\" is not allowed; "
        "choose one of 'next', 'prev', 'select', 'back' or 'menu'",
        "system.toml: gpio.buttons[1][pin] = 40 is not allowed; must be at most 27",
        "system.toml: gpio.buttons[2][name] = { pin = 3 } is not allowed; lacks this key; a button needs name and pin",
        "system.toml: gpio.buttons[3][x] = 1 is not a known key; a button has: name, pin, press, long",
        "system.toml: gpio.led_reader = true is not allowed; "
        "expected a GPIO pin number (BCM), or false when it is not wired",
        "system.toml: gpio.turn_leds = [true] is not allowed; "
        "expected a list of GPIO pin numbers (BCM), e.g. [13, 19, 26]",
    ]


def test_gpio_pin_wired_twice_is_charged_to_the_layer_that_wired_it(tmp_path: Path) -> None:
    # the user file moves the reader LED onto the first button's pin (set in the system file)
    assert problems(tmp_path, system='[gpio]\nbuttons = [{ name = "next", pin = 22 }, { name = "ok", pin = 23 }]\n',
                    user="[gpio]\nled_reader = 23\n") == [
        "user.toml: gpio.led_reader = 23 uses GPIO23, which gpio.buttons[1] already uses; each pin wires one part",
    ]


def test_gpio_checks_across_layers_are_made_on_the_merged_config(tmp_path: Path) -> None:
    # buttons from one layer, a combo naming them from another: fine together
    cfg = load_files(tmp_path, system='[gpio]\nbuttons = [{ name = "a", pin = 22 }, { name = "b", pin = 23 }]\n',
                     user='[gpio]\ncombos = [{ buttons = ["a", "b"], action = "menu" }]\n')
    assert cfg.gpio.combos[0].buttons == ("a", "b")
    # renaming the buttons breaks the default combo: said with the way out
    assert problems(tmp_path / "2", user='[gpio]\nbuttons = [{ name = "a", pin = 22 }]\n') == [
        'user.toml: gpio.combos[0] = { buttons = ["next", "ok"], action = "menu", hold_ms = 1000 } names the '
        "button 'next', which is not one of gpio.buttons (a); change it, or set combos = [] for none",
    ]
    assert problems(tmp_path / "3", user='[gpio]\ncombos = [{ buttons = ["ok", "ok"], action = "menu" }]\n') == [
        'user.toml: gpio.combos[0] = { buttons = ["ok", "ok"], action = "menu", hold_ms = 1000 } needs two '
        "different buttons",
    ]


def test_gpio_names_must_be_unique_and_environment_can_switch_it_off(tmp_path: Path) -> None:
    assert problems(tmp_path, user='[gpio]\nbuttons = [{ name = "a", pin = 22 }, { name = "a", pin = 23 }]\n') == [
        'user.toml: gpio.buttons = [{ name = "a", pin = 22 }, { name = "a", pin = 23 }] is not allowed; '
        "button names must be unique",
    ]
    assert load_files(tmp_path / "e", env={"COMPANION_GPIO__ENABLED": "false"}).gpio.enabled is False
