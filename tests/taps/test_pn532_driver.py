"""The PN532 driver against the PN532 emulator over a real pseudo-terminal: set-up, taps, removal, the
repeat window, noise, a silent chip, and unplug/replug. Waits on events and on the emulator's poll count,
never on the clock."""

from __future__ import annotations

import queue
from collections.abc import Iterator
from pathlib import Path

import pytest

from hardware.events import DeviceEvent, ReaderStatus, TagPlaced, TagRemoved
from hardware.pn532 import frames
from hardware.pn532.control import ControlSocket, send
from hardware.pn532.driver import Pn532Driver
from hardware.pn532.emulator import Emulator

WAIT = 10.0


class Events:
    """What a driver emitted, split into tag events and status reports."""

    def __init__(self) -> None:
        self.tags: queue.Queue[DeviceEvent] = queue.Queue()
        self.status: queue.Queue[ReaderStatus] = queue.Queue()

    def emit(self, event: DeviceEvent) -> None:
        (self.status if isinstance(event, ReaderStatus) else self.tags).put(event)  # type: ignore[arg-type]

    def tag(self) -> DeviceEvent:
        return self.tags.get(timeout=WAIT)

    def state(self, wanted: str) -> ReaderStatus:
        while True:
            got = self.status.get(timeout=WAIT)
            if got.state == wanted:
                return got

    def no_tags(self) -> None:
        assert self.tags.empty(), self.tags.get_nowait()


@pytest.fixture
def emulator(tmp_path: Path) -> Iterator[Emulator]:
    with Emulator(tmp_path / "pn532", seed=1) as emu:
        yield emu


def start(emu: Emulator, **options: float) -> tuple[Pn532Driver, Events]:
    events = Events()
    driver = Pn532Driver(str(emu.link), poll_interval=options.pop("poll_interval", 0.01), tick=0.01, **options)
    driver.start(events.emit)
    return driver, events


@pytest.fixture
def reader(emulator: Emulator) -> Iterator[tuple[Emulator, Pn532Driver, Events]]:
    driver, events = start(emulator)
    yield emulator, driver, events
    driver.stop()


def test_the_driver_wakes_and_sets_up_the_chip_then_reports_ok(reader: tuple[Emulator, Pn532Driver, Events]) -> None:
    emu, _, events = reader
    ok = events.state("ok")
    assert ok.reader == "pn532" and ok.detail == "PN532 firmware 1.6"
    assert emu.wait_polls(1)
    assert emu.commands[frames.SAM_CONFIGURATION] == 1
    assert emu.commands[frames.GET_FIRMWARE_VERSION] == 1
    assert emu.commands[frames.RF_CONFIGURATION] == 1


@pytest.mark.parametrize(("uid", "kind"), [("DEADBEEF", "mifare_classic"), ("04A1B2C3D4E5F6", "ultralight")])
def test_a_tag_left_on_the_reader_is_one_tap(reader: tuple[Emulator, Pn532Driver, Events], uid: str,
                                             kind: str) -> None:
    emu, _, events = reader
    events.state("ok")
    emu.place(uid)
    assert events.tag() == TagPlaced("pn532", 0, uid, kind)
    assert emu.wait_polls(30)  # it stays on the reader for 30 more polls
    events.no_tags()
    emu.remove()
    assert events.tag() == TagRemoved("pn532", 0, uid)


def test_a_tag_put_back_within_the_repeat_window_is_not_a_second_tap(emulator: Emulator) -> None:
    driver, events = start(emulator, repeat_window=30.0)
    try:
        events.state("ok")
        emulator.place("DEADBEEF")
        assert events.tag() == TagPlaced("pn532", 0, "DEADBEEF", "mifare_classic")
        emulator.remove()
        assert emulator.wait_polls(5)  # the reader has seen it gone
        emulator.place("DEADBEEF")
        assert emulator.wait_polls(5)
        events.no_tags()
    finally:
        driver.stop()


def test_after_the_window_the_same_tag_taps_again(emulator: Emulator) -> None:
    driver, events = start(emulator, repeat_window=0.0)
    try:
        events.state("ok")
        for _ in range(3):
            emulator.place("04A1B2C3D4E5F6")
            assert isinstance(events.tag(), TagPlaced)
            emulator.remove()
            assert isinstance(events.tag(), TagRemoved)
    finally:
        driver.stop()


def test_another_tag_replaces_the_first(reader: tuple[Emulator, Pn532Driver, Events]) -> None:
    emu, _, events = reader
    emu.place("DEADBEEF")
    assert events.tag() == TagPlaced("pn532", 0, "DEADBEEF", "mifare_classic")
    emu.place("04A1B2C3D4E5F6")
    assert events.tag() == TagRemoved("pn532", 0, "DEADBEEF")
    assert events.tag() == TagPlaced("pn532", 0, "04A1B2C3D4E5F6", "ultralight")


def test_noise_and_corrupted_replies_are_dropped_counted_and_never_a_tap(
    reader: tuple[Emulator, Pn532Driver, Events],
) -> None:
    emu, driver, events = reader
    events.state("ok")
    emu.place("DEADBEEF")
    assert events.tag() == TagPlaced("pn532", 0, "DEADBEEF", "mifare_classic")
    for _ in range(20):
        emu.corrupt(3)
        emu.command("noise 40")
        assert emu.wait_polls(3)
    emu.inject(frames.reply(0x4A, b"\x01\x01\x00\x04\x08\x04\x11\x22\x33\x44"))  # unasked: says nothing
    assert emu.wait_polls(5)
    events.no_tags()
    assert driver.frames_dropped > 0
    emu.remove()
    assert events.tag() == TagRemoved("pn532", 0, "DEADBEEF")
    report = events.state("ok")  # the status carries the count (re-reported at most once a second)
    assert report.frames_dropped > 0


def test_a_silent_chip_is_missing_and_found_again_without_a_second_tap(
    reader: tuple[Emulator, Pn532Driver, Events],
) -> None:
    emu, _, events = reader
    events.state("ok")
    emu.place("DEADBEEF")
    assert isinstance(events.tag(), TagPlaced)
    emu.mute()
    assert "no answer" in events.state("missing").detail
    emu.mute(False)
    events.state("ok")
    assert emu.wait_polls(10)
    events.no_tags()


def test_unplug_and_replug_fifty_times_no_phantom_and_no_lost_taps(
    reader: tuple[Emulator, Pn532Driver, Events],
) -> None:
    emu, _, events = reader
    events.state("ok")
    emu.place("DEADBEEF")
    on = "DEADBEEF"
    assert events.tag() == TagPlaced("pn532", 0, on, "mifare_classic")
    for session in range(50):
        emu.unplug()
        events.state("missing")
        swap = session % 5 == 4  # now and then the tag is changed while the reader is away
        if swap:
            new = f"04A1B2C3D4E5{session:02X}"
            emu.place(new)
        emu.plug()
        events.state("ok")
        if swap:
            assert events.tag() == TagRemoved("pn532", 0, on)
            assert events.tag() == TagPlaced("pn532", 0, new, "ultralight")
            on = new
        assert emu.wait_polls(3)
        events.no_tags()


def test_the_emulator_answers_per_the_manual(emulator: Emulator) -> None:
    import serial

    port = serial.serial_for_url(str(emulator.link), timeout=WAIT)
    try:
        d = frames.Decoder()

        def ask(data: bytes, answers: int = 2) -> list[frames.Message]:
            port.write(data)
            got: list[frames.Message] = []
            while len(got) < answers:
                got += d.feed(port.read(1))
            return got

        poll = frames.command(0x4A, b"\x01\x00")
        port.write(poll)  # asleep: no answer to a command without a wake-up
        port.write(frames.WAKE_UP)
        assert ask(poll) == [frames.Ack(), frames.ErrorFrame()]  # awake, but not configured
        assert ask(frames.command(0x14, b"\x01\x14\x01")) == [frames.Ack(), frames.Frame(0xD5, b"\x15")]
        assert ask(frames.command(0x02))[1] == frames.Frame(0xD5, bytes.fromhex("0332010607"))
        emulator.place("04A1B2C3D4E5F6")
        tag = frames.Frame(0xD5, bytes.fromhex("4B01010044" "0007" "04A1B2C3D4E5F6"))
        assert ask(poll) == [frames.Ack(), tag]
        assert ask(frames.NACK, answers=1) == [tag]  # a NACK asks for the last answer again
        assert ask(frames.command(0x60)) == [frames.Ack(), frames.ErrorFrame()]  # not a command it knows
        emulator.remove()
        assert ask(poll, answers=1) == [frames.Ack()]  # the chip's default: wait for a tag...
        emulator.place("DEADBEEF")  # ...and answer when one comes
        assert ask(b"", answers=1) == [frames.Frame(0xD5, bytes.fromhex("4B01010004" "0804" "DEADBEEF"))]
        assert ask(frames.command(0x32, b"\x05\xff\x01\x01")) == [frames.Ack(), frames.Frame(0xD5, b"\x33")]
        emulator.remove()
        assert ask(poll) == [frames.Ack(), frames.Frame(0xD5, b"\x4b\x00")]  # MaxRetries set: "no tag" at once
    finally:
        port.close()


def test_the_control_socket_drives_the_emulator(emulator: Emulator, tmp_path: Path) -> None:
    control = ControlSocket(emulator.command, tmp_path / "pn532.sock")
    driver, events = start(emulator)
    try:
        assert send(control.path, "place 04A1B2C3D4E5F6") == "placed 04A1B2C3D4E5F6 (ultralight)"
        assert events.tag() == TagPlaced("pn532", 0, "04A1B2C3D4E5F6", "ultralight")
        assert send(control.path, "unplug").startswith("unplugged")
        events.state("missing")
        assert send(control.path, "replug").startswith("replugged")
        events.state("ok")
        assert send(control.path, "place 123").startswith("error:")
        assert send(control.path, "fly away").startswith("error: unknown command")
    finally:
        driver.stop()
        control.close()
