"""Configuration: one TOML format, read in layers, validated, handed to callers as a `Config` object.

Layers, later wins: built-in defaults < system file < user file < `--config FILE` < environment
(`COMPANION_<SECTION>__<KEY>`) < command-line flags (dotted keys). There is no global: `load()` returns a
frozen `Config` that callers pass around. Every problem in every layer is collected and raised together
as a `ConfigError`, each naming its source, the dotted key, the bad value and what is allowed.
See docs/config.md.
"""

from __future__ import annotations

import enum
import json
import os
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, get_args

from pydantic import ValidationError
from pydantic_core import ErrorDetails

from companion.config_sections import (  # the sections, re-exported: callers import them from here
    BUTTON_ACTIONS,
    BUTTON_NAME,
    DISPLAY_DRIVERS,
    DISPLAY_SIZES,
    GAME_ID,
    HALL_PASSWORD,
    HALL_URL,
    ITEMS,
    MQTT_PREFIX,
    MQTT_URL,
    PLAYER_ID,
    READER_NAME,
    SECTIONS,
    TABLE_ID,
    ButtonAction,
    ButtonConfig,
    ComboConfig,
    Config,
    DisplayConfig,
    DisplaySize,
    GameConfig,
    GpioConfig,
    HallConfig,
    KioskConfig,
    MqttConfig,
    Pin,
    ReaderConfig,
    ReadersConfig,
    StorageConfig,
    TableConfig,
    TimersConfig,
    default_storage_path,
    user_config_path,
)

__all__ = [  # the sections (companion/config_sections.py), and reading them in layers (here)
    "AUTO",
    "BUTTON_ACTIONS",
    "BUTTON_NAME",
    "DISPLAY_DRIVERS",
    "DISPLAY_SIZES",
    "ENV_PREFIX",
    "GAME_ID",
    "HALL_PASSWORD",
    "HALL_URL",
    "ITEMS",
    "MQTT_PREFIX",
    "MQTT_URL",
    "PLAYER_ID",
    "READER_NAME",
    "SECTIONS",
    "SYSTEM_PATH",
    "TABLE_ID",
    "ButtonAction",
    "ButtonConfig",
    "ComboConfig",
    "Config",
    "ConfigError",
    "DisplayConfig",
    "DisplaySize",
    "GameConfig",
    "GpioConfig",
    "HallConfig",
    "KioskConfig",
    "MqttConfig",
    "Pin",
    "Problem",
    "ReaderConfig",
    "ReadersConfig",
    "StorageConfig",
    "TableConfig",
    "TimersConfig",
    "default_storage_path",
    "describe_sources",
    "load",
    "parse_value",
    "to_toml",
    "user_config_path",
]

SYSTEM_PATH = Path("/etc/companion/config.toml")
ENV_PREFIX = "COMPANION_"


@dataclass(frozen=True)
class Problem:
    source: str  # a file path (with line/column for syntax errors), an environment variable, or a flag
    key: str  # dotted key, e.g. "storage.synchronous"; "" for a problem with a whole file
    value: str  # the bad value as written in TOML; "" with key ""
    detail: str  # what is wrong and what is allowed

    def __str__(self) -> str:
        what = f"{self.key} = {self.value} " if self.key else ""
        return f"{self.source}: {what}{self.detail}"


class ConfigError(Exception):
    def __init__(self, problems: list[Problem]) -> None:
        super().__init__("\n".join(map(str, problems)))
        self.problems = problems


@dataclass
class _Layer:
    label: str  # the source of every key, unless `origins` names a more precise one
    data: dict[str, Any] = field(default_factory=dict)
    origins: dict[str, str] = field(default_factory=dict)
    given: list[str] = field(default_factory=list)  # variable names or flags, for describe_sources


def _toml(value: object) -> str:
    """A value as TOML writes it (JSON's string escapes are valid TOML, except for a raw DEL); a table
    inside a list (a reader) as an inline table."""
    if isinstance(value, dict) and value:
        return "{ " + ", ".join(f"{key} = {_toml(item)}" for key, item in value.items()) + " }"
    if isinstance(value, list | tuple) and any(isinstance(item, dict) for item in value):
        return "[" + ", ".join(_toml(item) for item in value) + "]"
    return json.dumps(value, ensure_ascii=False, default=str).replace("\x7f", "\\u007f")


def _show(value: object) -> str:
    """A value for a message: short, and without a password in a URL (user:secret@host)."""
    text = re.sub(r"(://[^:/@\s]*:)[^@/\s]*@", r"\1***@", _toml(value))
    return text if len(text) <= 80 else text[:77] + "..."


def parse_value(text: str) -> object:
    """A TOML value (`true`, `3`, `["a", "b"]`, `"quoted"`) if `text` is one, else `text` itself."""
    try:
        parsed = tomllib.loads(f"v = {text}")
    except tomllib.TOMLDecodeError:
        return text
    return parsed["v"] if len(parsed) == 1 else text


def _allowed(section: str, key: str, err: ErrorDetails) -> str:
    kind, ctx = err["type"], err.get("ctx") or {}
    if len(err["loc"]) > 2:  # inside a list of tables, e.g. readers.devices[0][driver]
        model, noun = ITEMS.get((section, key), (ReaderConfig, "an item"))
        needed = [name for name, f in model.model_fields.items() if f.is_required()]
        return {
            "literal_error": f"choose one of {ctx.get('expected')}",
            "model_type": "expected an inline table such as { " + ", ".join(f"{k} = ..." for k in needed) + " }",
            "missing": f"lacks this key; {noun} needs " + " and ".join(
                [", ".join(needed[:-1]), needed[-1]] if len(needed) > 1 else needed),
            "greater_than_equal": f"must be at least {ctx.get('ge')}",
            "less_than_equal": f"must be at most {ctx.get('le')}",
            "int_type": "expected a whole number",
            "int_parsing": "expected a whole number",
            "string_pattern_mismatch": f"must match the pattern {ctx.get('pattern')}",
        }.get(kind) or str(err["msg"]).removeprefix("Value error, ")
    if kind == "literal_error":
        choices = get_args(SECTIONS[section].model_fields[key].annotation)
        return "choose one of " + ", ".join(map(str, choices))
    return {
        "string_pattern_mismatch": f"must match the pattern {ctx.get('pattern')}",
        "bool_type": "expected true or false",
        "string_type": "expected a string",
        "tuple_type": 'expected a list of strings, e.g. ["p1", "p2"]',
        "too_short": "expected at least one item",
        "path_type": "expected a file path string",
        "model_type": f"expected a table: a [{section}] section with keys",
        "greater_than_equal": f"must be at least {ctx.get('ge')}",
        "less_than_equal": f"must be at most {ctx.get('le')}",
        "int_type": "expected a whole number",
        "int_parsing": "expected a whole number",
    }.get(kind) or str(err["msg"]).removeprefix("Value error, ")


def _check(layer: _Layer) -> list[Problem]:
    """Validate one layer on its own, so each problem is charged to the layer that has it."""
    problems, known = [], {}
    for section, values in layer.data.items():
        if section in SECTIONS:
            known[section] = values
            continue
        for key, value in (values.items() if isinstance(values, dict) and values else [("", values)]):
            dotted = f"{section}.{key}" if key else section
            problems.append(Problem(layer.origins.get(dotted, layer.label), dotted, _show(value),
                                    f"is not a known key; there is no section [{section}]; "
                                    f"sections are {', '.join(SECTIONS)}"))
    try:
        Config.model_validate(known)
    except ValidationError as exc:
        for err in exc.errors():
            section, key = str(err["loc"][0]), ".".join(str(p) for p in err["loc"][1:2])
            dotted = f"{section}.{key}" if key else section
            where = dotted + "".join(f"[{p}]" for p in err["loc"][2:])
            source = layer.origins.get(dotted, layer.label)
            if err["type"] == "extra_forbidden" and len(err["loc"]) > 3:
                model, noun = ITEMS.get((section, key), (ReaderConfig, "an item"))
                detail = f"is not a known key; {noun} has: {', '.join(model.model_fields)}"
            elif err["type"] == "extra_forbidden":
                detail = f"is not a known key; [{section}] has: {', '.join(SECTIONS[section].model_fields)}"
            else:
                detail = "is not allowed; " + _allowed(section, key, err)
            shown = "***" if dotted == "hall.password" else _show(err["input"])
            problems.append(Problem(source, where, shown, detail))
    return problems


def _read_file(path: Path, required: bool) -> tuple[_Layer | None, list[Problem], str]:
    label = str(path)
    try:
        text = path.read_bytes().decode("utf-8")
    except FileNotFoundError:
        return None, ([Problem(label, "", "", "file not found")] if required else []), "not found, skipped"
    except OSError as err:
        return None, [Problem(label, "", "", f"cannot read: {err.strerror or err}")], "unreadable"
    except UnicodeDecodeError as err:
        return None, [Problem(label, "", "", f"not UTF-8 text (byte {err.start})")], "unreadable"
    try:
        return _Layer(label, tomllib.loads(text)), [], "read"
    except tomllib.TOMLDecodeError as err:
        msg = str(err)
        at = re.search(r" \(at line (\d+), column (\d+)\)$", msg)
        if at:
            msg, label = msg[: at.start()], f"{label}: line {at[1]}, column {at[2]}"
        else:  # "(at end of document)"
            lines = text.split("\n")
            label = f"{label}: line {len(lines)}, column {len(lines[-1]) + 1}"
            msg = msg.replace(" (at end of document)", " at end of file")
        return None, [Problem(label, "", "", f"invalid TOML: {msg}")], "invalid"


def _from_env(env: Mapping[str, str]) -> tuple[_Layer, list[Problem]]:
    layer, problems = _Layer("environment"), []
    for name, text in sorted(env.items()):
        if not name.startswith(ENV_PREFIX):
            continue
        rest = name[len(ENV_PREFIX):]
        if "__" not in rest:  # e.g. COMPANION_STORAGE_SYNCHRONOUS: close to a setting, say so
            section = next((s for s in SECTIONS if rest.lower().startswith(s + "_")), None)
            if section:
                fix = f"{ENV_PREFIX}{section.upper()}__{rest[len(section) + 1:].upper()}"
                problems.append(Problem(f"environment variable {name}", "", "",
                                        f"is not a setting; separate section and key with two "
                                        f"underscores: {fix}"))
            continue
        section, _, key = (part.lower() for part in rest.partition("__"))
        layer.data.setdefault(section, {})[key] = parse_value(text)
        layer.origins[f"{section}.{key}"] = f"environment variable {name}"
        layer.given.append(name)
    return layer, problems


def _from_flags(flags: Mapping[str, object]) -> tuple[_Layer, list[Problem]]:
    layer, problems = _Layer("command line"), []
    for dotted, value in flags.items():
        section, dot, key = dotted.partition(".")
        if value is None:  # a flag that was not given
            continue
        if not dot or not key:
            problems.append(Problem(f"command-line flag {dotted}", dotted, _show(value),
                                    "is not a known key; flags are dotted keys such as storage.path"))
            continue
        layer.data.setdefault(section, {})[key] = value
        layer.origins[dotted] = f"command-line flag {dotted}"
        layer.given.append(dotted)
    return layer, problems


class _Auto(enum.Enum):
    AUTO = "auto"


AUTO = _Auto.AUTO  # user_path=AUTO: $XDG_CONFIG_HOME/companion/config.toml from `env`


def load(
    *,
    flags: Mapping[str, object] | None = None,
    env: Mapping[str, str] | None = None,
    system_path: Path | None = SYSTEM_PATH,
    user_path: Path | _Auto | None = AUTO,
    extra_file: Path | None = None,
) -> Config:
    """Read every layer and return the merged config, or raise ConfigError listing every problem.

    `env` defaults to os.environ; a path of None skips that file; a missing system or user file is
    skipped, a missing `extra_file` (given with --config) is an error. Flags whose value is None are
    ignored, so a CLI can pass all its options.
    """
    env = os.environ if env is None else env
    if user_path is AUTO:
        user_path = user_config_path(env)
    defaults = _Layer("built-in defaults", {"storage": {"path": str(default_storage_path(env))}})
    layers, problems, sources = [defaults], [], ["built-in defaults"]
    files = [(system_path, False), (user_path, False), (extra_file, True)]
    for path, required in files:
        if isinstance(path, Path):
            layer, found, status = _read_file(path, required)
            sources.append(f"{path}: {status}")
            problems += found + (_check(layer) if layer else [])
            layers += [layer] if layer else []
    for layer, found in (_from_env(env), _from_flags(flags or {})):
        problems += found + _check(layer)
        layers.append(layer)
        sources.append(f"{layer.label}: " + (", ".join(layer.given) or "nothing set"))
    if problems:
        raise ConfigError(problems)
    merged: dict[str, dict[str, Any]] = {}
    origins: dict[str, str] = {}
    for layer in layers:
        for section, values in layer.data.items():
            merged.setdefault(section, {}).update(values)
            for key in values:
                origins[f"{section}.{key}"] = layer.origins.get(f"{section}.{key}", layer.label)
    config = Config.model_validate(merged)  # every layer passed on its own, so the merge does too
    problems = [_wiring_problem(config, key, detail, origins) for key, detail in config.gpio.wiring_problems()]
    problems += [Problem(origins.get(f"hall.{key}") or origins.get("hall.url", "built-in defaults"), f"hall.{key}",
                         _show(getattr(config.hall, key)), detail) for key, detail in config.hall.problems(config.mqtt)]
    if problems:
        raise ConfigError(problems)
    config._sources, config._origins = tuple(sources), origins
    return config


def _wiring_problem(config: Config, key: str, detail: str, origins: dict[str, str]) -> Problem:
    """A problem across [gpio] keys, charged to the layer that set the list or pin named."""
    field_name = key.split("[")[0]
    value: Any = config.gpio.model_dump(mode="json")[field_name]
    if "[" in key:
        value = value[int(key.split("[")[1].rstrip("]"))]
    source = origins.get(f"gpio.{field_name}") or origins.get("gpio.buttons", "built-in defaults")
    return Problem(source, f"gpio.{key}", _show(value), detail)


def describe_sources(config: Config) -> list[str]:
    """One line per layer: which files were read or skipped, which variables and flags were set."""
    return list(config._sources)


def to_toml(config: Config, *, origins: bool = False) -> str:
    """The config as a TOML file (keys left unset, such as mqtt.url, are omitted); with `origins`,
    each line ends with a comment naming the layer that set it."""
    out: list[str] = []
    for section, values in config.model_dump(mode="json").items():
        out.append(f"\n[{section}]" if out else f"[{section}]")
        for key, value in values.items():
            if value is not None:
                where = config._origins.get(f"{section}.{key}", "built-in defaults")
                out.append(f"{key} = {_toml(value)}" + (f"  # {where}" if origins else ""))
    return "\n".join(out) + "\n"
