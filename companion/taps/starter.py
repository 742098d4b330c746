"""The readers' starter for `companion run`: drivers (or emulators) -> the table's inbox -> the router.

Reader threads only queue: each event goes to `Table.put_device` (and a reader's status also straight
to the `StatusBoard`, which is thread-safe). On the main loop the `TapRouter` resolves taps through
the token registry (its own SQLite file next to the game log). The starter is handed the table's
screen when there is one (a `TapScreen`, the kiosk's feed, companion/wiring.py): taps are told to
it, a token tapped while a player's booth is open acts for that player, and the screen is lent the
registry so the host can enroll from it. Without a screen a `ConsoleTapSink` prints the same on
standard error (standard output belongs to the referee's replies).
"""

from __future__ import annotations

import logging
import sys
from dataclasses import dataclass

from companion import i18n
from companion.config import Config
from companion.status import DeviceStatus, StatusBoard
from companion.table.loop import DeviceHandler, Table
from companion.taps.console_sink import ConsoleTapSink
from companion.taps.readers import OpenReaders, open_readers
from companion.taps.registry import Registry, registry_path
from companion.taps.router import TapRouter
from companion.taps.sink import TapScreen
from hardware.events import DeviceEvent, ReaderStatus

log = logging.getLogger(__name__)


@dataclass
class RunningReaders:
    table: Table
    readers: OpenReaders
    registry: Registry
    handlers: list[DeviceHandler]
    screen: TapScreen | None = None

    def stop(self) -> None:
        self.readers.stop()
        if self.screen is not None:
            self.screen.use_registry(None)
        for handler in self.handlers:
            if handler in self.table.device_handlers:
                self.table.device_handlers.remove(handler)
        self.registry.close()


def reader_status(event: ReaderStatus) -> DeviceStatus:
    detail = event.detail + (f"; {event.frames_dropped} frames dropped" if event.frames_dropped else "")
    return DeviceStatus("reader", event.reader, event.state, detail=detail)


def start_readers(table: Table, cfg: Config, status: StatusBoard,
                  screen: TapScreen | None = None) -> RunningReaders | None:
    """Start the configured readers (none configured: None); taps go to `screen`, else to the console."""
    if not cfg.readers.devices:
        return None
    registry = Registry(registry_path(cfg.storage.path))
    lang = cfg.table.language
    handlers: list[DeviceHandler]
    if screen is not None:  # the kiosk: its booth says whose turn at the reader it is; it enrolls new tags
        handlers = [TapRouter(table, registry, screen, screen.identified_player)]
        screen.use_registry(registry)
    else:
        console = ConsoleTapSink(sys.stderr, lang, {p.id: p.name for p in table.referee.setup.players})
        handlers = [TapRouter(table, registry, console),
                    lambda ev: console.reader_status(ev.reader, ev.state) if isinstance(ev, ReaderStatus) else None]
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
        if screen is not None:
            screen.use_registry(None)
        registry.close()
        raise
    drivers = {device.name: device.driver for device in cfg.readers.devices}
    for name, control in readers.controls.items():
        slot = "0 " if drivers[name] == "board" else ""
        command = f"python -m hardware.pn532 --send {control.path} place {slot}04A1B2C3D4E5F6"
        print("  » " + i18n.translate(lang, "tokens.simulated_reader", {"reader": name, "command": command}),
              file=sys.stderr, flush=True)
    return RunningReaders(table, readers, registry, handlers, screen)
