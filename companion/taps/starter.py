"""The readers' starter for `companion run`: drivers (or emulators) -> the table's inbox -> the router.

Reader threads only queue: each event goes to `Table.put_device` (and a reader's status also straight
to the `StatusBoard`, which is thread-safe). On the main loop the `TapRouter` resolves taps through
the token registry (its own SQLite file next to the game log). Taps are told to the table's screen if
an output is a `TapSink` (the kiosk), else printed by a `ConsoleTapSink` on standard error (standard
output belongs to the referee's replies). A sink that also has ``identified_player() -> str | None``
(the kiosk's booth, while a player's figure is on the reader) makes tokens act for that player, and
one with ``use_registry(registry | None)`` is lent the registry so the host can enroll from the screen.
"""

from __future__ import annotations

import logging
import sys
from dataclasses import dataclass

from companion import i18n
from companion.config import Config
from companion.status import DeviceStatus, StatusBoard
from companion.table.loop import DeviceHandler, Table
from companion.taps.console_sink import ConsoleTapSink, find_sink
from companion.taps.readers import OpenReaders, open_readers
from companion.taps.registry import Registry, registry_path
from companion.taps.router import TapRouter
from hardware.events import DeviceEvent, ReaderStatus

log = logging.getLogger(__name__)


@dataclass
class RunningReaders:
    table: Table
    readers: OpenReaders
    registry: Registry
    handlers: list[DeviceHandler]
    sink: object = None

    def stop(self) -> None:
        self.readers.stop()
        lend = getattr(self.sink, "use_registry", None)
        if callable(lend):
            lend(None)
        for handler in self.handlers:
            if handler in self.table.device_handlers:
                self.table.device_handlers.remove(handler)
        self.registry.close()


def reader_status(event: ReaderStatus) -> DeviceStatus:
    detail = event.detail + (f"; {event.frames_dropped} frames dropped" if event.frames_dropped else "")
    return DeviceStatus("reader", event.reader, event.state, detail=detail)


def start_readers(table: Table, cfg: Config, status: StatusBoard) -> RunningReaders | None:
    if not cfg.readers.devices:
        return None
    registry = Registry(registry_path(cfg.storage.path))
    lang = cfg.table.language
    console = ConsoleTapSink(sys.stderr, lang, {p.id: p.name for p in table.referee.setup.players})
    sink = find_sink(table.outputs) or console
    identify = getattr(sink, "identified_player", None)  # the kiosk's booth: whose turn at the reader it is
    router = TapRouter(table, registry, sink, identify) if callable(identify) else TapRouter(table, registry, sink)
    lend = getattr(sink, "use_registry", None)  # the kiosk enrolls unknown tags from its screen
    if callable(lend):
        lend(registry)
    handlers: list[DeviceHandler] = [router]
    if sink is console:
        handlers.append(lambda ev: console.reader_status(ev.reader, ev.state) if isinstance(ev, ReaderStatus) else None)
    table.device_handlers.extend(handlers)

    def emit(event: DeviceEvent) -> None:  # on a reader thread: queue only
        if isinstance(event, ReaderStatus):
            status.set(reader_status(event))
        table.put_device(event)

    sim_dir = cfg.storage.path.parent / "readers"
    try:
        readers = open_readers(cfg.readers, sim_dir, emit)
    except BaseException:
        for handler in handlers:
            table.device_handlers.remove(handler)
        if callable(lend):
            lend(None)
        registry.close()
        raise
    drivers = {device.name: device.driver for device in cfg.readers.devices}
    for name, control in readers.controls.items():
        slot = "0 " if drivers[name] == "board" else ""
        command = f"python -m hardware.pn532 --send {control.path} place {slot}04A1B2C3D4E5F6"
        print("  » " + i18n.translate(lang, "tokens.simulated_reader", {"reader": name, "command": command}),
              file=sys.stderr, flush=True)
    return RunningReaders(table, readers, registry, handlers, sink)
