"""The table's device status (readers, broker, phones, buttons) for the status bar and the host.

Adapters set entries from their own threads; screens read a snapshot and may register a listener to
be woken when something changed (the listener must be cheap and thread-safe). No globals: the app
creates one board and hands it to each adapter.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass

# How to install the broker phones need (Debian, Raspberry Pi OS, Ubuntu): said with the broker `missing`,
# on the console, the kiosk's status bar and in `companion config check` (docs/mqtt.md).
MOSQUITTO_INSTALL_COMMAND = "sudo apt install mosquitto"


@dataclass(frozen=True)
class DeviceStatus:
    kind: str  # "reader", "broker", "phones", "buttons"
    name: str  # "board0", "mosquitto", ...
    state: str  # "ok", "searching", "missing", "error", "off"
    count: int | None = None  # phones connected, buttons present
    detail: str = ""  # for the host and the journal, never a player message


class StatusBoard:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._entries: dict[tuple[str, str], DeviceStatus] = {}
        self._listeners: list[Callable[[], None]] = []

    def set(self, status: DeviceStatus) -> None:
        with self._lock:
            key = (status.kind, status.name)
            if self._entries.get(key) == status:
                return
            self._entries[key] = status
            listeners = list(self._listeners)
        for listener in listeners:
            listener()

    def snapshot(self) -> list[DeviceStatus]:
        with self._lock:
            return sorted(self._entries.values(), key=lambda s: (s.kind, s.name))

    def listen(self, listener: Callable[[], None]) -> None:
        with self._lock:
            self._listeners.append(listener)
