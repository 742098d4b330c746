"""SerialLink over a real pseudo-terminal: bytes reach the framer, writes reach the device, an unplug is
reported at once and the link reopens the same (symlinked) path when the device comes back."""

from __future__ import annotations

import queue
from pathlib import Path

from firmware_protocol.pty_plug import PtyPlug
from hardware.events import DeviceEvent, ReaderStatus
from hardware.serial_link import SerialLink

WAIT = 5.0


class Recorder:
    """A framer that records what the link calls, for the test to wait on."""

    def __init__(self) -> None:
        self.calls: queue.Queue[tuple[str, object]] = queue.Queue()

    def connection_made(self, link: SerialLink) -> None:
        self.calls.put(("made", link.sessions))

    def data_received(self, data: bytes) -> None:
        self.calls.put(("data", data))

    def connection_lost(self, why: str) -> None:
        self.calls.put(("lost", why))

    def tick(self, now: float) -> None:
        pass

    def next(self, kind: str) -> object:
        while True:
            got, value = self.calls.get(timeout=WAIT)
            if got == kind:
                return value


def read_bytes(plug: PtyPlug, count: int) -> bytes:
    got = b""
    while len(got) < count:
        chunk = plug.read(WAIT)
        assert chunk, "the device side heard nothing"
        got += chunk
    return got


def next_status(events: queue.Queue[DeviceEvent]) -> ReaderStatus:
    while True:
        event = events.get(timeout=WAIT)
        if isinstance(event, ReaderStatus):
            return event


def test_bytes_both_ways_and_reconnect_after_unplug(tmp_path: Path) -> None:
    plug = PtyPlug(str(tmp_path / "companion-board0"))
    plug.plug()
    framer = Recorder()
    events: queue.Queue[DeviceEvent] = queue.Queue()
    link = SerialLink(plug.path, framer, events.put, name="board0")
    link.start()
    try:
        assert framer.next("made") == 1
        plug.write(b"\x00hello\x00")
        got = b""
        while len(got) < 7:
            got += framer.next("data")  # type: ignore[operator]
        assert got == b"\x00hello\x00"
        assert link.write(b"cmd")
        assert read_bytes(plug, 3) == b"cmd"

        plug.unplug()
        assert framer.next("lost")
        assert next_status(events).state == "missing"
        assert not link.write(b"lost")
        assert next_status(events).state == "searching"

        plug.plug()
        assert framer.next("made") == 2
        plug.write(b"again")
        got = b""
        while len(got) < 5:
            got += framer.next("data")  # type: ignore[operator]
        assert got == b"again"
    finally:
        link.stop()
        plug.unplug()
    assert not link.connected


def test_absent_device_is_missing_then_searching_and_stop_returns(tmp_path: Path) -> None:
    events: queue.Queue[DeviceEvent] = queue.Queue()
    link = SerialLink(str(tmp_path / "nothing-here"), Recorder(), events.put, name="board1")
    link.start()
    assert next_status(events).state == "missing"
    assert next_status(events).state == "searching"
    link.stop()
    link.stop()  # idempotent
    assert not link.connected


def test_loop_url_opens(tmp_path: Path) -> None:
    framer = Recorder()
    events: queue.Queue[DeviceEvent] = queue.Queue()
    link = SerialLink("loop://", framer, events.put, name="loop")
    link.start()
    try:
        framer.next("made")
        assert link.write(b"echo")
        got = b""
        while len(got) < 4:
            got += framer.next("data")  # type: ignore[operator]
        assert got == b"echo"
    finally:
        link.stop()


class Clumsy(Recorder):
    """A framer with a bug on some input."""

    def data_received(self, data: bytes) -> None:
        if b"!" in data:
            self.calls.put(("raised", data))
            raise ValueError("framer bug")
        super().data_received(data)


def test_a_failing_framer_is_counted_and_the_thread_goes_on(tmp_path: Path) -> None:
    plug = PtyPlug(str(tmp_path / "companion-board0"))
    plug.plug()
    framer = Clumsy()
    events: queue.Queue[DeviceEvent] = queue.Queue()
    link = SerialLink(plug.path, framer, events.put, name="board0")
    link.start()
    try:
        framer.next("made")
        plug.write(b"!")
        framer.next("raised")
        plug.write(b"after")
        got = b""
        while b"after" not in got:
            got += framer.next("data")  # type: ignore[operator]
        assert link.frames_dropped == 1  # counted on the reader thread before it read "after"
    finally:
        link.stop()
        plug.unplug()
