"""What table devices report: the events every reader driver emits, and the driver interface.

A driver's reader thread only frames bytes and calls `emit` with these events (which must be cheap
and thread-safe, e.g. `queue.Queue.put`); turning a tag into a token, and a token into an input,
happens on the main loop. Readers are named by the driver instance (``board0``, ``pn532``); `slot` is
the reader index on a multi-reader board (0 for a single reader).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal, Protocol

ReaderState = Literal["ok", "searching", "missing", "error"]


@dataclass(frozen=True)
class TagPlaced:
    reader: str
    slot: int
    uid: str  # upper-case hex, no separators (``04A1B2C3D4E5F6``)
    tag_type: str  # ``mifare_classic``, ``ultralight``, ``ntag``, ``iso14443a`` ...


@dataclass(frozen=True)
class TagRemoved:
    reader: str
    slot: int
    uid: str


@dataclass(frozen=True)
class ButtonEdge:
    source: str  # the board or ``gpio``
    button: str
    pressed: bool


@dataclass(frozen=True)
class ReaderStatus:
    reader: str
    state: ReaderState
    detail: str = ""  # for logs and the host, never shown as a player message
    frames_dropped: int = 0


DeviceEvent = TagPlaced | TagRemoved | ButtonEdge | ReaderStatus
Emit = Callable[[DeviceEvent], None]


class ReaderDriver(Protocol):
    """One reader device (or board). `start` returns at once; events arrive through `emit`."""

    name: str

    def start(self, emit: Emit) -> None: ...

    def stop(self) -> None:
        """Stop the reader thread and close the port; idempotent."""
        ...
