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
import shutil
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, StrictBool, ValidationError, field_validator
from pydantic_core import ErrorDetails

SYSTEM_PATH = Path("/etc/companion/config.toml")
ENV_PREFIX = "COMPANION_"
PLAYER_ID = r"^[a-z0-9_-]{1,32}$"
TABLE_ID = r"^[a-z0-9][a-z0-9_-]{0,31}$"  # goes into MQTT topics and file names: no '/', '+', '#'
GAME_ID = r"^[a-z][a-z0-9_]{0,31}$"
DISPLAY_DRIVERS = ("kmsdrm", "x11", "wayland", "dummy")
# The screens the kiosk is laid out and tested for (tests/kits/kiosk_fixtures.py: SIZES): the Pi's 7" panel,
# 7" HDMI panels, 720p, 10" panels and 1080p TVs; "auto" is the screen's own size when fullscreen.
DisplaySize = Literal["800x480", "1024x600", "1280x720", "1280x800", "1920x1080", "auto"]
DISPLAY_SIZES: tuple[str, ...] = tuple(size for size in get_args(DisplaySize) if size != "auto")
MQTT_PREFIX = r"^[A-Za-z0-9_-]+(/[A-Za-z0-9_-]+)*$"
MQTT_URL = r"^(mqtt|mqtts|ws|wss)://\S+$"
HALL_URL = r"^mqtt://[A-Za-z0-9.-]{1,253}(:[0-9]{1,5})?$"  # the hall's central broker (a bridge: plain MQTT)
# The password goes on a line of Mosquitto's config (`remote_password`): printable ASCII without spaces.
HALL_PASSWORD = r"^[!-~]{1,128}$"
READER_NAME = r"^[a-z0-9][a-z0-9_-]{0,31}$"
BUTTON_NAME = r"^[a-z][a-z0-9_-]{0,15}$"
BUTTON_ACTIONS = ("next", "prev", "select", "back", "menu")  # the kiosk's actions (docs/kiosk.md)
ButtonAction = Literal["next", "prev", "select", "back", "menu"]
Pin = Annotated[int, Field(ge=2, le=27)]  # BCM numbers on the 40-pin header; 0 and 1 belong to HATs


def _xdg(env: Mapping[str, str], var: str, fallback: str) -> Path:
    value = env.get(var, "")
    if value and os.path.isabs(value):  # the XDG spec says to ignore relative values
        return Path(value)
    return Path(env.get("HOME") or Path.home()) / fallback


def user_config_path(env: Mapping[str, str] | None = None) -> Path:
    """`$XDG_CONFIG_HOME/companion/config.toml`, by default `~/.config/companion/config.toml`."""
    return _xdg(os.environ if env is None else env, "XDG_CONFIG_HOME", ".config") / "companion/config.toml"


def default_storage_path(env: Mapping[str, str] | None = None) -> Path:
    """`$XDG_STATE_HOME/companion/companion.sqlite3`, by default under `~/.local/state`."""
    env = os.environ if env is None else env
    return _xdg(env, "XDG_STATE_HOME", ".local/state") / "companion/companion.sqlite3"


class _Section(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, coerce_numbers_to_str=True)


class TableConfig(_Section):
    id: Annotated[str, Field(pattern=TABLE_ID)] = "table1"
    language: Literal["en", "zh", "th"] = "en"


class StorageConfig(_Section):
    path: Path = Field(default_factory=default_storage_path)
    synchronous: Literal["NORMAL", "FULL", "EXTRA"] = "FULL"

    @field_validator("path")
    @classmethod
    def _expand(cls, v: Path) -> Path:
        if v == Path():  # "" or "."
            raise ValueError("expected the path of a file")
        try:
            return v.expanduser()
        except RuntimeError:  # "~name" of a user this machine does not have
            raise ValueError(f"cannot expand {str(v).split('/')[0]}: no such user") from None


class GameConfig(_Section):
    default: Annotated[str, Field(pattern=GAME_ID)] = "toolkit"
    #: The new game's options (see `companion games`); checked against the game's own schema at start.
    options: dict[Annotated[str, Field(pattern=r"^[a-z][a-z0-9_]{0,31}$")], Any] = Field(default_factory=dict)
    players: Annotated[tuple[Annotated[str, Field(pattern=PLAYER_ID)], ...], Field(min_length=1)] = (
        "p1", "p2", "p3", "p4")

    @field_validator("players")
    @classmethod
    def _unique(cls, v: tuple[str, ...]) -> tuple[str, ...]:
        if len(set(v)) != len(v):
            raise ValueError("player ids must be unique")
        return v


class TimersConfig(_Section):
    resume_after_restart: Literal["keep", "pause"] = "pause"


class DisplayConfig(_Section):
    size: DisplaySize = "auto"
    fullscreen: StrictBool = False
    enabled: Literal["auto"] | StrictBool = "auto"  # auto: a screen when there is one (not in --jsonl mode)
    driver: Literal["kmsdrm", "x11", "wayland", "dummy"] | None = None  # SDL video driver; default: SDL's choice
    volume: Annotated[int, Field(ge=0, le=100)] = 80
    booth_timeout: Annotated[int, Field(ge=5, le=600)] = 30  # seconds a booth stays open untouched
    attract: StrictBool = True  # the attract loop until the game's first input

    @field_validator("enabled", mode="before")
    @classmethod
    def _enabled(cls, v: object) -> object:
        if v == "auto" or isinstance(v, bool):
            return v
        raise ValueError('expected "auto", true or false')

    @field_validator("driver", mode="before")
    @classmethod
    def _driver(cls, v: object) -> object:
        if v is None or v in DISPLAY_DRIVERS:
            return v
        raise ValueError("choose one of " + ", ".join(DISPLAY_DRIVERS))


class MqttConfig(_Section):
    broker: Literal["embedded", "mosquitto", "external", "auto"] = "auto"
    url: Annotated[str, Field(pattern=MQTT_URL)] | None = None
    prefix: Annotated[str, Field(pattern=MQTT_PREFIX)] = "companion"
    port: Annotated[int, Field(ge=0, le=65535)] = 1883  # embedded/mosquitto MQTT listener; 0: any free port
    ws_port: Annotated[int, Field(ge=0, le=65535)] = 9001  # their WebSockets listener, for phones
    spectators: Annotated[int, Field(ge=0, le=200)] = 0  # spectator credentials per game (0: none)
    provision: str | None = None  # external broker: command run with the new game's credentials file
    page_port: Annotated[int, Field(ge=0, le=65535)] = 8080  # the phone page's HTTP port (0: any free port)
    page_host: Annotated[str, Field(pattern=r"^[A-Za-z0-9.-]{1,253}$")] | None = None  # how phones reach the Pi


class HallConfig(_Section):
    """The hall this table belongs to on a league night (docs/hall.md): its central broker, this table's
    name on the hall's screen and its password there (its user name is the table id)."""

    url: str | None = None  # unset: no hall
    name: str | None = None  # default: the table id
    password: str | None = Field(default=None, repr=False)
    keepalive: Annotated[int, Field(ge=5, le=300)] = 5  # seconds (5 at least for Mosquitto); a drop shows in ~1.5x

    @field_validator("name")
    @classmethod
    def _name(cls, v: str | None) -> str | None:
        if v is not None and not (0 < len(v) <= 64 and v.isprintable() and v.strip()):
            raise ValueError("expected 1-64 printable characters")
        return v

    @field_validator("url")
    @classmethod
    def _url(cls, v: str | None) -> str | None:
        if v is None:
            return v
        if not re.fullmatch(HALL_URL, v):
            raise ValueError("expected mqtt://host:port, the hall's central broker (a bridge speaks plain MQTT)")
        port = v.rsplit(":", 1)[1] if v.count(":") == 2 else "1883"
        if not 0 < int(port) < 65536:
            raise ValueError("the port must be 1-65535")
        return v

    @field_validator("password")
    @classmethod
    def _password(cls, v: str | None) -> str | None:
        if v is not None and not re.fullmatch(HALL_PASSWORD, v):
            raise ValueError("expected 1-128 printable ASCII characters without spaces (it goes on a line of "
                             "Mosquitto's bridge config)")
        return v

    def problems(self, mqtt: MqttConfig) -> list[tuple[str, str]]:
        """Checks across sections: (key, what is wrong). A bridge is Mosquitto's own: the table's broker
        must be the managed Mosquitto (an external broker is bridged by its owner, docs/config.md)."""
        if self.url is None:
            return []
        out = []
        if self.password is None:
            out.append(("password", "must be set with hall.url: the table's password on the hall's broker "
                                    "(`companion hall` prints it)"))
        kind = mqtt.broker
        if kind == "auto":
            kind = "external" if mqtt.url else "mosquitto" if shutil.which("mosquitto") else "embedded"
        if kind != "mosquitto":
            out.append(("url", f"needs the managed Mosquitto (mqtt.broker = \"mosquitto\"), but the table's broker "
                               f"is {kind}; bridges are Mosquitto's (install mosquitto), and an external broker "
                               "is bridged to the hall by its owner (docs/config.md, [hall])"))
        return out


class ReaderConfig(_Section):
    """One reader: its name (in the status bar), its driver, and its port (any pyserial URL or path)."""

    name: Annotated[str, Field(pattern=READER_NAME)]
    driver: Literal["board", "pn532"]
    port: Annotated[str, Field(min_length=1, max_length=200)]


class ReadersConfig(_Section):
    simulate: Literal["auto", "always", "never"] = "auto"
    devices: tuple[ReaderConfig, ...] = (ReaderConfig(name="pn532", driver="pn532", port="/dev/serial0"),)
    repeat_window_ms: Annotated[int, Field(ge=0, le=5000)] | None = None  # None: each driver's own

    @field_validator("devices")
    @classmethod
    def _unique_names(cls, v: tuple[ReaderConfig, ...]) -> tuple[ReaderConfig, ...]:
        names = [r.name for r in v]
        if len(set(names)) != len(names):
            raise ValueError("reader names must be unique")
        return v


class ButtonConfig(_Section):
    """One push button between a GPIO pin and ground (pull-up) or 3.3 V (pull-down)."""

    name: Annotated[str, Field(pattern=BUTTON_NAME)]
    pin: Pin
    press: ButtonAction | None = None  # a short press
    long: ButtonAction | None = None  # held for gpio.hold_ms


class ComboConfig(_Section):
    """Two buttons held together (e.g. the host menu)."""

    buttons: tuple[Annotated[str, Field(pattern=BUTTON_NAME)], Annotated[str, Field(pattern=BUTTON_NAME)]]
    action: ButtonAction
    hold_ms: Annotated[int, Field(ge=0, le=5000)] = 1000


def _pin_or_off(v: object) -> object:
    """`false` means "not wired"; any other bool is a mistake (pydantic would read true as pin 1)."""
    if v is False or v is None:
        return None
    if isinstance(v, bool):
        raise ValueError("expected a GPIO pin number (BCM), or false when it is not wired")
    return v


class GpioConfig(_Section):
    """Buttons, status LEDs and a buzzer on the Pi's header (docs/pi.md, hardware/README.md)."""

    enabled: Literal["auto"] | StrictBool = "auto"  # auto: on a Raspberry Pi (or GPIOZERO_PIN_FACTORY set)
    pull_up: StrictBool = True  # buttons wired to ground, the Pi's internal pull-ups on
    bounce_ms: Annotated[int, Field(ge=0, le=200)] = 30
    hold_ms: Annotated[int, Field(ge=200, le=5000)] = 800  # a long press
    buttons: tuple[ButtonConfig, ...] = (
        ButtonConfig(name="next", pin=17, press="next", long="prev"),
        ButtonConfig(name="ok", pin=27, press="select", long="back"),
    )
    combos: tuple[ComboConfig, ...] = (ComboConfig(buttons=("next", "ok"), action="menu"),)
    led_reader: Pin | None = 5
    led_broker: Pin | None = 6
    turn_leds: tuple[Pin, ...] = ()  # one LED per seat, in the game's seat order: lit on that seat's turn
    buzzer: Pin | None = 12  # a passive piezo (gpiozero TonalBuzzer): a PWM pin

    @field_validator("enabled", mode="before")
    @classmethod
    def _enabled(cls, v: object) -> object:
        if v == "auto" or isinstance(v, bool):
            return v
        raise ValueError('expected "auto", true or false')

    @field_validator("led_reader", "led_broker", "buzzer", mode="before")
    @classmethod
    def _off(cls, v: object) -> object:
        return _pin_or_off(v)

    @field_validator("turn_leds", mode="before")
    @classmethod
    def _no_bools(cls, v: object) -> object:
        if isinstance(v, list | tuple) and any(isinstance(pin, bool) for pin in v):
            raise ValueError("expected a list of GPIO pin numbers (BCM), e.g. [13, 19, 26]")
        return v

    @field_validator("buttons")
    @classmethod
    def _unique_buttons(cls, v: tuple[ButtonConfig, ...]) -> tuple[ButtonConfig, ...]:
        names = [b.name for b in v]
        if len(set(names)) != len(names):
            raise ValueError("button names must be unique")
        return v

    def wiring_problems(self) -> list[tuple[str, str]]:
        """Checks across keys, made on the merged config (a layer may set buttons, another the combos):
        (key, what is wrong) for each combo naming an unknown button and each pin wired twice."""
        out: list[tuple[str, str]] = []
        names = {b.name for b in self.buttons}
        for i, combo in enumerate(self.combos):
            unknown = [name for name in combo.buttons if name not in names]
            if unknown:
                out.append((f"combos[{i}]", f"names the button {unknown[0]!r}, which is not one of gpio.buttons "
                            f"({', '.join(sorted(names)) or 'none'}); change it, or set combos = [] for none"))
            elif combo.buttons[0] == combo.buttons[1]:
                out.append((f"combos[{i}]", "needs two different buttons"))
        users: dict[int, str] = {}
        wired = [(f"buttons[{i}]", b.pin) for i, b in enumerate(self.buttons)]
        wired += [(f"turn_leds[{i}]", pin) for i, pin in enumerate(self.turn_leds)]
        wired += [(key, getattr(self, key)) for key in ("led_reader", "led_broker", "buzzer")]
        for who, pin in wired:
            if pin is None:
                continue
            if pin in users:
                out.append((who, f"uses GPIO{pin}, which gpio.{users[pin]} already uses; each pin wires one part"))
            else:
                users[pin] = who
        return out


SECTIONS: dict[str, type[_Section]] = {
    "table": TableConfig, "storage": StorageConfig, "game": GameConfig,
    "timers": TimersConfig, "display": DisplayConfig, "mqtt": MqttConfig, "readers": ReadersConfig,
    "gpio": GpioConfig, "hall": HallConfig,
}
ITEMS: dict[tuple[str, str], tuple[type[_Section], str]] = {  # lists of tables: the model, how to name one
    ("readers", "devices"): (ReaderConfig, "a reader"),
    ("gpio", "buttons"): (ButtonConfig, "a button"),
    ("gpio", "combos"): (ComboConfig, "a combo"),
}


class Config(_Section):
    """All settings. Provenance (which layer set what) rides along privately: compare with model_dump()."""

    table: TableConfig = Field(default_factory=TableConfig)
    storage: StorageConfig = Field(default_factory=StorageConfig)
    game: GameConfig = Field(default_factory=GameConfig)
    timers: TimersConfig = Field(default_factory=TimersConfig)
    display: DisplayConfig = Field(default_factory=DisplayConfig)
    mqtt: MqttConfig = Field(default_factory=MqttConfig)
    readers: ReadersConfig = Field(default_factory=ReadersConfig)
    gpio: GpioConfig = Field(default_factory=GpioConfig)
    hall: HallConfig = Field(default_factory=HallConfig)
    _sources: tuple[str, ...] = PrivateAttr(default=())
    _origins: dict[str, str] = PrivateAttr(default_factory=dict)


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
