"""A board emulator on a real pty and a BoardDriver on its stable path, with event waits (no sleeps)."""

from __future__ import annotations

import queue
import time
from collections.abc import Callable
from pathlib import Path

from firmware_protocol.emulator import BoardEmulator
from hardware.board import BoardDriver
from hardware.events import ButtonEdge, DeviceEvent, ReaderStatus, TagPlaced, TagRemoved

WAIT = 10.0
TagEvent = TagPlaced | TagRemoved


class Rig:
    def __init__(
        self, tmp_path: Path, readers: int = 4, repeat_window: float = 0.05, heartbeat_ms: int = 500, **driver: float
    ) -> None:
        self.emu = BoardEmulator(str(tmp_path / "companion-board0"), readers=readers, heartbeat_ms=heartbeat_ms)
        self.events: queue.Queue[DeviceEvent] = queue.Queue()
        self.driver = BoardDriver("board0", self.emu.path, repeat_window=repeat_window, **driver)
        self.statuses: list[ReaderStatus] = []
        self.seen: list[DeviceEvent] = []
        self.markers = 0

    def __enter__(self) -> Rig:
        self.emu.plug()
        self.driver.start(self.events.put)
        self.wait_status("ok")
        return self

    def __exit__(self, *exc: object) -> None:
        self.driver.stop()
        self.emu.close()

    def next(self, accept: Callable[[DeviceEvent], bool], what: str) -> DeviceEvent:
        deadline = time.monotonic() + WAIT  # overall, however many other events come
        while True:
            try:
                event = self.events.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                raise AssertionError(f"no {what} within {WAIT} s; seen: {self.seen[-10:]}") from None
            self.seen.append(event)
            if isinstance(event, ReaderStatus):
                self.statuses.append(event)
            if accept(event):
                return event

    def wait_status(self, state: str) -> ReaderStatus:
        event = self.next(lambda e: isinstance(e, ReaderStatus) and e.state == state, f"status {state}")
        assert isinstance(event, ReaderStatus)
        return event

    def tag_events_until(self, done: Callable[[list[TagEvent]], bool]) -> list[TagEvent]:
        """Tag events in order until `done(list)` holds, then up to a fresh marker (a button press
        the emulator sends after everything before it), so that anything extra shows up too."""
        got: list[TagEvent] = []
        self.markers += 1
        button = 15
        while not done(got):
            event = self.next(lambda e: isinstance(e, TagPlaced | TagRemoved), "tag event")
            assert isinstance(event, TagPlaced | TagRemoved)
            got.append(event)
        self.emu.press(button)

        def marker(e: DeviceEvent) -> bool:
            if isinstance(e, TagPlaced | TagRemoved):
                got.append(e)
            return isinstance(e, ButtonEdge) and e.button == str(button) and e.pressed

        self.next(marker, "marker button")
        return got
