"""What `companion run` attaches to a table: one starter per feature (readers, phones, buttons).

A starter looks at the config and, if its feature is wanted and possible here, starts its adapter
threads (which only queue inputs with `Table.put` and set the `StatusBoard`) and returns a handle to
stop them; otherwise it returns None. The kiosk is not a starter: it owns the main thread.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from companion.config import Config
from companion.status import StatusBoard
from companion.table.loop import Table


class Running(Protocol):
    def stop(self) -> None: ...


Starter = Callable[[Table, Config, StatusBoard], Running | None]


def starters() -> list[Starter]:
    """Each feature adds its starter here (imported lazily, so a missing optional part fails alone)."""
    from companion.gpio.starter import start_gpio  # buttons, status LEDs, buzzer (docs/pi.md)
    from companion.phones.serve import starter as phones  # broker, mirror and the phone page (docs/phones.md)
    from companion.taps.starter import start_readers  # NFC readers -> token router (docs/readers.md)
    from companion.watchdog import start_notify  # systemd: READY=1 after the others, the watchdog feed

    return [start_readers, phones, start_gpio, start_notify]


def start_all(table: Table, cfg: Config, status: StatusBoard) -> list[Running]:
    return [running for start in starters() if (running := start(table, cfg, status)) is not None]


def stop_all(running: list[Running]) -> None:
    for handle in reversed(running):
        handle.stop()
