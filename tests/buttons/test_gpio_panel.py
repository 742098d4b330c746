"""GPIO buttons, LEDs and buzzer through gpiozero's mock pins (issue 7): every configured action, long
press, the host-menu combination and debounce reach the table's inbox as `ButtonEdge`s from the ``gpio``
thread; LEDs follow the status board and the public view's turn; the buzzer plays the tap and timer cues.

Mock pins do not bounce and gpiozero's own callbacks carry no time, so the driver takes its clock from
the test (a fake one, moved by hand) and the chatter is made by driving the pins."""

from __future__ import annotations

import queue
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory, MockPWMPin

from companion.config import Config, GpioConfig, StorageConfig
from companion.core.contract import Player, Setup
from companion.core.eventlog import EventLog
from companion.core.referee import Referee
from companion.games import registry as games
from companion.gpio import starter as gpio_starter
from companion.gpio.starter import RunningGpio, _View, start, start_gpio
from companion.status import DeviceStatus, StatusBoard
from companion.table.loop import DeviceNotice, Table
from companion.taps.registry import Registry, Token, registry_path
from hardware.events import ButtonEdge, TagPlaced

WAIT = 10.0
KNOWN = "DEADBEEF"


@dataclass
class FakeClock:
    ms: int = 1_000_000

    def now_ms(self) -> int:
        return self.ms


@dataclass
class Rig:
    table: Table
    running: RunningGpio
    factory: MockFactory
    clock: FakeClock  # the buttons' clock
    table_clock: FakeClock
    status: StatusBoard
    acted_on: set[str] = field(default_factory=set)
    _handled: int = 0

    def pin(self, number: int) -> Any:
        return self.factory.pin(number)

    def settle(self) -> None:
        """Wait until the gpio thread has handled everything queued so far."""
        loop = self.running.loop
        self.running.loop.poke()
        self._handled = loop.handled + loop.inbox.qsize()
        assert loop.wait_handled(self._handled, WAIT)

    def edges(self) -> list[tuple[str, bool]]:
        """The button edges queued to the table so far (nothing else may be there)."""
        self.settle()
        out = []
        while True:
            try:
                item = self.table.inbox.get_nowait()
            except queue.Empty:
                return out
            assert isinstance(item, DeviceNotice) and isinstance(item.event, ButtonEdge)
            assert item.event.source == "gpio"
            out.append((item.event.button, item.event.pressed))

    def actions(self) -> list[str]:
        got = self.edges()
        assert got[1::2] == [(name, False) for name, _ in got[0::2]]  # each press is followed by its release
        return [name for name, _ in got[0::2]]

    def press(self, number: int, at: int | None = None) -> None:
        if at is not None:
            self.clock.ms = at
        self.pin(number).drive_low()

    def release(self, number: int, at: int | None = None) -> None:
        if at is not None:
            self.clock.ms = at
        self.pin(number).drive_high()

    def at(self, ms: int) -> None:
        self.clock.ms = ms
        self.settle()


GPIO = GpioConfig(
    enabled=True, bounce_ms=30, hold_ms=800,
    buttons=({"name": "next", "pin": 17, "press": "next", "long": "prev"},  # type: ignore[arg-type]
             {"name": "ok", "pin": 27, "press": "select", "long": "back"},
             {"name": "red", "pin": 22, "press": "menu"}),
    combos=({"buttons": ("next", "ok"), "action": "menu", "hold_ms": 1000},),  # type: ignore[arg-type]
    led_reader=5, led_broker=6, turn_leds=(13, 19), buzzer=12)


@pytest.fixture
def rig(tmp_path: Path) -> Iterator[Rig]:
    factory = MockFactory(pin_class=MockPWMPin)
    Device.pin_factory = factory  # also the default, as the tests do; reset below
    log_path = tmp_path / "game.sqlite3"
    setup = Setup("toolkit", (Player("ana", "Ana"), Player("ben", "Ben")), {}, seed=5)
    table_clock = FakeClock()
    table = Table(Referee.start(games(), EventLog(log_path), setup, created_at=0), clock=table_clock)
    cfg = Config(storage=StorageConfig(path=log_path), gpio=GPIO)
    with Registry(registry_path(log_path)) as reg:
        reg.enroll(Token(KNOWN, "toolkit", "player", "ana", "Ana's meeple"))
    clock, status = FakeClock(), StatusBoard()
    running = start(table, cfg, status, clock_ms=clock.now_ms, pin_factory=factory, wait=lambda s: None)
    rig = Rig(table, running, factory, clock, table_clock, status)
    try:
        yield rig
    finally:
        running.stop()
        table.referee.log.close()
        factory.reset()
        Device.pin_factory = None


def test_short_presses_act_on_release_and_a_plain_button_at_once(rig: Rig) -> None:
    rig.press(17, at=1000)
    assert rig.actions() == []  # it may still become a long press or the menu
    rig.release(17, at=1200)
    rig.press(27, at=2000)
    rig.release(27, at=2100)
    rig.press(22, at=3000)  # no long action, no combination: acts as it goes down
    assert rig.actions() == ["next", "select", "menu"]
    rig.release(22, at=5000)
    assert rig.actions() == []


def test_long_presses_fire_when_held_and_the_release_does_nothing(rig: Rig) -> None:
    rig.press(17, at=1000)
    rig.at(1799)
    assert rig.actions() == []
    rig.at(1800)
    assert rig.actions() == ["prev"]
    rig.release(17, at=4000)
    rig.press(27, at=5000)
    rig.at(6000)
    rig.release(27, at=6100)
    assert rig.actions() == ["back"]


def test_both_buttons_held_open_the_host_menu(rig: Rig) -> None:
    rig.press(17, at=1000)
    rig.press(27, at=1100)
    rig.at(2099)
    assert rig.actions() == []
    rig.at(2100)
    assert rig.actions() == ["menu"]
    rig.release(17, at=3000)
    rig.release(27, at=3100)
    assert rig.actions() == []  # neither release is a press of its own


def test_contact_chatter_is_one_press(rig: Rig) -> None:
    rig.press(17, at=1000)
    for t in (1002, 1005, 1011, 1020):  # the contact bounces for 20 ms
        rig.release(17, at=t)
        rig.press(17, at=t + 1)
    rig.release(17, at=1300)
    for t in (1303, 1310):
        rig.press(17, at=t)
        rig.release(17, at=t + 2)
    rig.at(5000)
    assert rig.actions() == ["next"]


def test_gestures_are_made_on_the_gpio_thread_and_only_queued(rig: Rig) -> None:
    threads: list[str] = []
    rig.table.device_handlers.append(lambda ev: threads.append(threading.current_thread().name))
    rig.press(22, at=1000)
    rig.settle()
    # queued, not handled: the handlers run when the table's loop takes the event from its inbox
    assert threads == [] and rig.table.inbox.qsize() == 2
    item = rig.table.inbox.get_nowait()
    assert isinstance(item, DeviceNotice)
    rig.table.device(item.event)
    assert threads == [threading.current_thread().name]


def led(rig: Rig, pin: int) -> str:
    device = rig.running.loop.panel.leds
    name = {5: "reader", 6: "broker", 13: "turn0", 19: "turn1"}[pin]
    blinking = getattr(device[name], "_blink_thread", None) is not None
    return "blink" if blinking else ("on" if rig.pin(pin).state else "off")


def test_status_leds_follow_the_status_board(rig: Rig) -> None:
    rig.settle()
    assert (led(rig, 5), led(rig, 6)) == ("off", "off")  # no reader, no broker yet
    rig.status.set(DeviceStatus("reader", "pn532", "searching"))
    rig.status.set(DeviceStatus("broker", "mosquitto", "ok"))
    rig.settle()
    assert (led(rig, 5), led(rig, 6)) == ("blink", "on")
    rig.status.set(DeviceStatus("reader", "pn532", "ok"))
    rig.status.set(DeviceStatus("reader", "board0", "ok"))
    rig.settle()
    assert led(rig, 5) == "on"
    rig.status.set(DeviceStatus("reader", "board0", "missing"))  # one missing reader: off
    rig.status.set(DeviceStatus("broker", "mosquitto", "error"))
    rig.settle()
    assert (led(rig, 5), led(rig, 6)) == ("off", "off")
    buttons = [s for s in rig.status.snapshot() if s.kind == "buttons"]
    assert buttons == [DeviceStatus("buttons", "gpio", "ok", count=3)]


def test_turn_leds_light_the_seat_whose_turn_it_is(rig: Rig) -> None:
    loop = rig.running.loop
    players = [{"id": "ana"}, {"id": "ben"}]
    for turn, expected in (("ben", ("off", "on")), ("ana", ("on", "off")), (None, ("off", "off"))):
        loop.inbox.put(_View({"players": players, "turn": turn, "table": {}}))
        rig.settle()
        assert (led(rig, 13), led(rig, 19)) == expected


def cues(rig: Rig) -> list[str]:
    rig.settle()
    player = rig.running.loop.panel.player
    assert player is not None
    assert player.wait_idle(WAIT)
    out = []
    while not player.played.empty():
        out.append(player.played.get_nowait())
    return out


def test_buzzer_tells_known_tokens_from_unknown_tags(rig: Rig) -> None:
    rig.table.device(TagPlaced("pn532", 0, KNOWN, "ntag"))  # the main loop's device handlers
    rig.table.device(TagPlaced("pn532", 0, "0A0B0C0D", "ntag"))
    assert cues(rig) == ["known", "unknown"]
    assert rig.pin(12).state == 0  # silent after the cue


def test_buzzer_warns_at_ten_seconds_and_sounds_the_expiry_once(rig: Rig) -> None:
    table, clock = rig.table, rig.table_clock
    assert table.handle({"by": "host", "move": "timer.create", "args": {"name": "day", "seconds": 30}}).accepted
    assert table.handle({"by": "host", "move": "timer.start", "args": {"name": "day"}}).accepted
    start_ms = clock.ms
    clock.ms = start_ms + 19_999
    assert cues(rig) == []
    clock.ms = start_ms + 20_000
    assert cues(rig) == ["warning"]
    clock.ms = start_ms + 30_000
    table.tick()  # the referee's deadline: the timer is expired in the view too
    assert cues(rig) == ["expired"]
    clock.ms = start_ms + 40_000
    assert cues(rig) == []


@pytest.mark.filterwarnings("ignore::gpiozero.PinFactoryFallback")
def test_starter_stays_off_without_gpio_and_reports_parts_it_cannot_open(tmp_path: Path,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    status = StatusBoard()
    table = Table(Referee.start(games(), EventLog(":memory:"), Setup(
        "toolkit", (Player("ana", "Ana"),), {}, seed=1), created_at=0))
    cfg = Config(storage=StorageConfig(path=tmp_path / "g.sqlite3"), gpio=GpioConfig(enabled=False))
    assert start_gpio(table, cfg, status) is None
    assert not gpio_starter.on_a_pi({}, tmp_path / "no-model")
    (tmp_path / "model").write_text("Raspberry Pi 4 Model B Rev 1.5\x00")
    assert gpio_starter.on_a_pi({}, tmp_path / "model")
    assert gpio_starter.on_a_pi({"GPIOZERO_PIN_FACTORY": "mock"}, tmp_path / "no-model")
    # enabled = true on a machine without GPIO (this one): an error on the status bar, no exception
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    Device.pin_factory = None
    cfg = Config(storage=StorageConfig(path=tmp_path / "g.sqlite3"), gpio=GpioConfig(enabled=True))
    assert start_gpio(table, cfg, status) is None
    (entry,) = [s for s in status.snapshot() if s.kind == "buttons"]
    assert entry.state == "error" and entry.detail
    assert table.outputs == [] and table.device_handlers == []
    table.referee.log.close()
