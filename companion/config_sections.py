"""The configuration's sections: what each key may be, its default and its checks (docs/config.md).

One pydantic model per TOML section (`[table]`, `[storage]`, ... `[hall]`) and `Config`, all of them;
reading the layers, reporting problems and writing TOML back is companion/config.py, which also
re-exports these names (callers import them from there).
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Annotated, Any, Literal, Protocol, TypeVar, get_args

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, StrictBool, field_validator

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
    #: The host does not play but moderates the new game: the host's page and menu show the deal, votes
    #: as cast once closed and hidden counters (docs/game-night.md, "A moderator"); everyone is told.
    moderator: bool = False

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
    # the attract loop until the game's first input, and which games it shows (companion/kiosk/reel.py)
    attract: StrictBool | Literal["all", "this game"] | Annotated[list[Annotated[str, Field(pattern=GAME_ID)]], Field(
        min_length=1)] = True
    idle_return: Annotated[int, Field(ge=0, le=3600)] = 120  # s untouched after a game ends: the loop (0: never)
    # a page that says what this table is (or the spectator page): its QR code on the attract loop
    attract_url: Annotated[str, Field(pattern=r"^https?://[!-~]{1,200}$")] | None = None

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


EMBEDDED_REMOVED = ('the embedded broker was removed: Mosquitto is the one broker. Set "auto" or "mosquitto" '
                    '(install it: sudo apt install mosquitto), or "external" with mqtt.url (docs/config.md, [mqtt])')


class KioskConfig(_Section):
    """The kiosk's host lock (docs/kiosk.md): `host_pin` is the PIN the host menu asks for (4 to 8
    digits), "off" for no lock (a family table), or "" to let the host choose one on the kiosk the first
    time the menu opens (kept in the private state directory)."""

    host_pin: str = ""

    @field_validator("host_pin", mode="before")
    @classmethod
    def _host_pin(cls, v: object) -> object:
        if v in ("", "off") or (isinstance(v, str) and v.isascii() and v.isdigit() and 4 <= len(v) <= 8):
            return v
        raise ValueError('expected 4 to 8 digits, "off", or "" (chosen on the kiosk)')


class MqttConfig(_Section):
    broker: Literal["mosquitto", "external", "auto"] = "auto"
    url: Annotated[str, Field(pattern=MQTT_URL)] | None = None
    prefix: Annotated[str, Field(pattern=MQTT_PREFIX)] = "companion"
    port: Annotated[int, Field(ge=0, le=65535)] = 1883  # the managed Mosquitto's MQTT listener; 0: any free port
    ws_port: Annotated[int, Field(ge=0, le=65535)] = 9001  # their WebSockets listener, for phones
    spectators: Annotated[int, Field(ge=0, le=200)] = 0  # spectator credentials per game (0: none)
    provision: str | None = None  # external broker: command run with the new game's credentials file
    page_port: Annotated[int, Field(ge=0, le=65535)] = 8080  # the phone page's HTTP port (0: any free port)
    page_host: Annotated[str, Field(pattern=r"^[A-Za-z0-9.-]{1,253}$")] | None = None  # how phones reach the Pi

    @field_validator("broker", mode="before")
    @classmethod
    def _broker(cls, v: object) -> object:
        if v == "embedded":  # a config from before issue 32: say what to write instead
            raise ValueError(EMBEDDED_REMOVED)
        return v


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
            kind = "external" if mqtt.url else "mosquitto"
        if kind != "mosquitto":
            out.append(("url", f"needs the managed Mosquitto (mqtt.broker = \"mosquitto\"), but the table's broker "
                               f"is {kind}; bridges are Mosquitto's, and an external broker is bridged to the hall "
                               "by its owner (docs/config.md, [hall])"))
        return out


class ReaderConfig(_Section):
    """One reader: its name (in the status bar), its driver, and its port (any pyserial URL or path)."""

    name: Annotated[str, Field(pattern=READER_NAME)]
    driver: Literal["board", "pn532"]
    port: Annotated[str, Field(min_length=1, max_length=200)]




class _HasName(Protocol):
    @property
    def name(self) -> str: ...


_Named = TypeVar("_Named", bound=tuple[_HasName, ...])

def _unique(items: _Named, what: str) -> _Named:
    """`items` if no two share a name, else the error a config file's author reads."""
    names = [item.name for item in items]
    if len(set(names)) != len(names):
        raise ValueError(f"{what} names must be unique")
    return items

class ReadersConfig(_Section):
    simulate: Literal["auto", "always", "never"] = "auto"
    devices: tuple[ReaderConfig, ...] = (ReaderConfig(name="pn532", driver="pn532", port="/dev/serial0"),)
    repeat_window_ms: Annotated[int, Field(ge=0, le=5000)] | None = None  # None: each driver's own

    @field_validator("devices")
    @classmethod
    def _unique_names(cls, v: tuple[ReaderConfig, ...]) -> tuple[ReaderConfig, ...]:
        return _unique(v, "reader")


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
        return _unique(v, "button")

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
    "gpio": GpioConfig, "hall": HallConfig, "kiosk": KioskConfig,
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
    kiosk: KioskConfig = Field(default_factory=KioskConfig)
    _sources: tuple[str, ...] = PrivateAttr(default=())
    _origins: dict[str, str] = PrivateAttr(default_factory=dict)
