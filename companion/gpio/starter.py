"""The GPIO starter for `companion run`: buttons -> gestures -> the table's inbox; the public view and
the device status -> LEDs; taps and timers -> the buzzer.

Threads: gpiozero's callbacks only queue raw edges (hardware/gpio/devices.py). One thread of ours,
``gpio``, debounces them and makes gestures (hardware/gpio/gestures.py), and drives the LEDs and the
buzzer; it only queues into the table: each gesture becomes `Table.put_device(ButtonEdge("gpio",
action, ...))`, which the kiosk turns into `Kiosk.button` on its loop (companion/kiosk/engine.py).
The public view reaches this thread from the table's output call; the tap cue from a device handler
on the main loop. No game logic runs here.
"""

from __future__ import annotations

import logging
import os
import queue
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.config import Config, GpioConfig
from companion.core.referee import Outcome
from companion.gpio.signals import TimerCues, device_led, timers_of, turn_leds
from companion.status import DeviceStatus, StatusBoard
from companion.table.loop import Table
from companion.table.views import Views
from companion.taps.registry import Registry, registry_path
from hardware.events import ButtonEdge, DeviceEvent, TagPlaced
from hardware.gpio.devices import Panel
from hardware.gpio.gestures import ButtonSpec, ComboSpec, Gesture, Gestures

logger = logging.getLogger(__name__)
PI_MODEL = Path("/proc/device-tree/model")
IDLE_S = 60.0  # nothing due: look again this often anyway


def on_a_pi(env: Mapping[str, str], model: Path = PI_MODEL) -> bool:
    """GPIO is here: a Raspberry Pi, or a pin factory chosen by hand (GPIOZERO_PIN_FACTORY=mock...)."""
    if env.get("GPIOZERO_PIN_FACTORY"):
        return True
    try:
        return "Raspberry Pi" in model.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return False


def monotonic_ms() -> int:
    return time.monotonic_ns() // 1_000_000


@dataclass(frozen=True)
class _View:
    public: dict[str, Any]


@dataclass(frozen=True)
class _Cue:
    name: str


_STATUS, _TICK, _STOP = object(), object(), object()


class GpioLoop:
    """The ``gpio`` thread: everything in `inbox` (raw edges, views, status, cues) handled in order."""

    def __init__(self, cfg: GpioConfig, panel_factory: Callable[[Callable[[Any], None]], Panel], act:
                 Callable[[Gesture], None], status: StatusBoard, clock_ms: Callable[[], int],
                 table_ms: Callable[[], int]) -> None:
        self.inbox: queue.Queue[object] = queue.Queue()
        self.gestures = Gestures([ButtonSpec(b.name, b.press, b.long) for b in cfg.buttons],
                                 [ComboSpec(c.buttons, c.action, c.hold_ms) for c in cfg.combos],
                                 bounce_ms=cfg.bounce_ms, hold_ms=cfg.hold_ms)
        self.panel = panel_factory(self.inbox.put)
        self.act, self.status, self.clock_ms, self.table_ms = act, status, clock_ms, table_ms
        self.turn_count = len(cfg.turn_leds)
        self.timers: dict[str, dict[str, Any]] = {}
        self.cues = TimerCues()
        self.handled = 0  # items handled so far (tests wait on `settled`)
        self.settled = threading.Condition()
        self._thread = threading.Thread(target=self._run, name="gpio", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def poke(self) -> None:
        """Look at the clocks again (a test moved its fake clock)."""
        self.inbox.put(_TICK)

    def stop(self) -> None:
        self.inbox.put(_STOP)
        self._thread.join(timeout=10)
        self.panel.close()

    def wait_handled(self, count: int, timeout: float = 10.0) -> bool:
        with self.settled:
            return self.settled.wait_for(lambda: self.handled >= count, timeout)

    def _timeout(self) -> float:
        waits = [IDLE_S]
        due = self.gestures.next_due()
        if due is not None:
            waits.append((due - self.clock_ms()) / 1000)
        now = self.table_ms()
        timer_due = TimerCues.next_due(self.timers, now)
        if timer_due is not None:
            waits.append((timer_due - now) / 1000)
        return max(0.0, min(waits))

    def _run(self) -> None:
        while True:
            try:
                item = self.inbox.get(timeout=self._timeout())
            except queue.Empty:
                item = _TICK
            if item is _STOP:
                return
            try:
                self._handle(item)
                if not self.inbox.empty():  # edges still queued carry their own times: take them first
                    continue
                for gesture in self.gestures.tick(self.clock_ms()):
                    self.act(gesture)
                for cue in self.cues.update(self.timers, self.table_ms()):
                    self.panel.play(cue)
            except Exception:  # a flaky pin must not stop the buttons for the evening
                logger.exception("gpio: handling %r failed", item)
            finally:
                self._count()

    def _count(self) -> None:
        with self.settled:
            self.handled += 1
            self.settled.notify_all()

    def _handle(self, item: object) -> None:
        if isinstance(item, tuple):
            name, pressed, at = item
            for gesture in self.gestures.edge(name, pressed, at):
                self.act(gesture)
        elif isinstance(item, _View):
            for i, mode in enumerate(turn_leds(item.public, self.turn_count)):
                self.panel.led(f"turn{i}", mode)
            self.timers = timers_of(item.public)
        elif item is _STATUS:
            snapshot = self.status.snapshot()
            self.panel.led("reader", device_led(snapshot, "reader"))
            self.panel.led("broker", device_led(snapshot, "broker"))
        elif isinstance(item, _Cue):
            self.panel.play(item.name)


class _ViewTap:
    """A table output (on the main loop): hands the public view to the GPIO thread."""

    def __init__(self, loop: GpioLoop) -> None:
        self.loop = loop

    def changed(self, views: Views, outcomes: list[Outcome]) -> None:
        self.loop.inbox.put(_View(views.public))


@dataclass
class RunningGpio:
    table: Table
    loop: GpioLoop
    status: StatusBoard
    output: _ViewTap
    handler: Callable[[DeviceEvent], None] | None
    registry: Registry | None

    def stop(self) -> None:
        if self.output in self.table.outputs:
            self.table.outputs.remove(self.output)
        if self.handler is not None and self.handler in self.table.device_handlers:
            self.table.device_handlers.remove(self.handler)
        self.loop.stop()
        if self.registry is not None:
            self.registry.close()
        self.status.set(DeviceStatus("buttons", "gpio", "off"))


def gesture_to_table(table: Table) -> Callable[[Gesture], None]:
    """A gesture is a press of the button named after its action (`Kiosk.button` takes those)."""

    def act(gesture: Gesture) -> None:
        logger.info("gpio: %s %s -> %s", gesture.kind, gesture.button, gesture.action)
        table.put_device(ButtonEdge("gpio", gesture.action, True))
        table.put_device(ButtonEdge("gpio", gesture.action, False))

    return act


def start(table: Table, cfg: Config, status: StatusBoard, *, clock_ms: Callable[[], int] = monotonic_ms,
          pin_factory: Any = None, wait: Callable[[float], Any] | None = None) -> RunningGpio:
    """Open the parts and start the thread (raises gpiozero's error when a pin cannot be had)."""
    g = cfg.gpio
    leds = {name: pin for name, pin in (("reader", g.led_reader), ("broker", g.led_broker)) if pin is not None}
    leds.update({f"turn{i}": pin for i, pin in enumerate(g.turn_leds)})

    def panel(put: Callable[[Any], None]) -> Panel:
        return Panel({b.name: b.pin for b in g.buttons}, put, clock_ms, pull_up=g.pull_up, leds=leds,
                     buzzer=g.buzzer, wait=wait, pin_factory=pin_factory)

    loop = GpioLoop(g, panel, gesture_to_table(table), status, clock_ms, table.clock.now_ms)
    output = _ViewTap(loop)
    registry: Registry | None = None
    handler: Callable[[DeviceEvent], None] | None = None
    if g.buzzer is not None:
        try:
            registry = Registry(registry_path(cfg.storage.path))
        except BaseException:
            loop.panel.close()
            raise

        def handler(event: DeviceEvent) -> None:  # on the main loop: a lookup, then queue the cue
            if isinstance(event, TagPlaced):
                assert registry is not None
                loop.inbox.put(_Cue("known" if registry.lookup(event.uid) else "unknown"))

        table.device_handlers.append(handler)
    table.outputs.append(output)
    loop.inbox.put(_View(table.views.public))  # before the table's loop runs: safe here
    loop.inbox.put(_STATUS)
    status.listen(lambda: loop.inbox.put(_STATUS))  # cheap and thread-safe, as the board asks
    status.set(DeviceStatus("buttons", "gpio", "ok", count=len(g.buttons)))
    loop.start()
    return RunningGpio(table, loop, status, output, handler, registry)


def start_gpio(table: Table, cfg: Config, status: StatusBoard) -> RunningGpio | None:
    """The starter: GPIO when configured and present; a part that cannot be opened is an error on the
    status bar and in the journal, and the table goes on without buttons."""
    if cfg.gpio.enabled is False or (cfg.gpio.enabled == "auto" and not on_a_pi(os.environ)):
        return None
    try:
        return start(table, cfg, status)
    except Exception as err:
        logger.error("gpio: cannot open the buttons, LEDs or buzzer: %s", err)
        status.set(DeviceStatus("buttons", "gpio", "error", detail=f"{type(err).__name__}: {err}"))
        return None
