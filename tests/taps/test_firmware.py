"""The reference firmware (board.py + scanner.py + mfrc522.py) on a simulated SPI bus of RC522 chips:
what the Pi would receive when cards are laid on the readers, checked with the host's own decoder,
and the firmware's frames checked against the shared vectors."""

from __future__ import annotations

import json
from pathlib import Path

from firmware_protocol import codec
from firmware_protocol.firmware.board import Board
from firmware_protocol.firmware.mfrc522 import MFRC522
from firmware_protocol.firmware.scanner import Firmware
from tests.kits.fake_mfrc522 import FakeButton, FakeCard, FakeChip, FakeSPI, crc_a

VECTORS = json.loads((Path(codec.__file__).parent / "vectors.json").read_text())
BOARD_ID = bytes.fromhex("E660583883437A2F")


class Bench:
    """N simulated readers on one SPI bus, the firmware, and the host's decoder on its output."""

    def __init__(self, readers: int = 4, versions: tuple[int, ...] = (), buttons: int = 0) -> None:
        self.spi = FakeSPI()
        self.chips = [FakeChip(versions[i] if i < len(versions) else 0x92) for i in range(readers)]
        self.out = bytearray()
        self.board = Board(readers, BOARD_ID, self.out.extend)
        self.buttons = [FakeButton() for _ in range(buttons)]
        self.firmware = Firmware(
            [MFRC522(self.spi, self.spi.attach(chip)) for chip in self.chips], self.board, list(self.buttons)
        )
        self.host = codec.Decoder(from_board=True)
        self.now = 0
        self.firmware.setup(0)
        self.board.boot(0)

    def step(self, n: int = 1, ms: int = 5) -> list[codec.Message]:
        for _ in range(n):
            self.now += ms
            self.firmware.step(self.now)
        return self.received()

    def received(self) -> list[codec.Message]:
        """Everything the board sent, acknowledging each event as the driver does (which lets the
        board send its next one)."""
        msgs: list[codec.Message] = []
        while self.out:
            got = self.host.feed(bytes(self.out))
            self.out.clear()
            for m in got:
                if m.kind in codec.NEEDS_ACK:
                    self.board.received(codec.encode(codec.Message(codec.HOST_ACK, 0, acked=m.seq)))
            msgs += got
        assert self.host.dropped == 0
        return [m for m in msgs if m.kind != codec.HEARTBEAT]


def tags(msgs: list[codec.Message]) -> list[tuple[str, int, str, str]]:
    return [
        (codec.NAMES[m.kind], m.reader, m.uid.hex().upper(), codec.TAG_TYPES[m.tag_type] if m.tag_type else "")
        for m in msgs
        if m.kind in (codec.TAG_PLACED, codec.TAG_REMOVED)
    ]


def test_crc_a_matches_the_iso_14443_example() -> None:
    # ISO/IEC 14443-3 annex: CRC_A of 00 00 is A0 1E; of 12 34 is 26 CF
    assert crc_a(b"\x00\x00") == b"\xa0\x1e"
    assert crc_a(b"\x12\x34") == b"\x26\xcf"


def test_boot_says_hello_with_the_board_id() -> None:
    bench = Bench(readers=3)
    (hello,) = bench.received()
    assert hello.kind == codec.HELLO and hello.readers == 3 and hello.board_id == BOARD_ID and hello.proto == 1


def test_cards_of_each_uid_length_are_read_through_the_cascade_levels() -> None:
    bench = Bench(readers=4)
    bench.received()
    bench.chips[0].place(FakeCard(bytes.fromhex("DEADBEEF"), sak=0x08))
    bench.chips[2].place(FakeCard(bytes.fromhex("04A1B2C3D4E5F6"), sak=0x00, atqa=b"\x44\x00"))
    bench.chips[3].place(FakeCard(bytes.fromhex("11223344556677889900"), sak=0x20))
    assert tags(bench.step(3)) == [
        ("tag_placed", 0, "DEADBEEF", "mifare_classic"),
        ("tag_placed", 2, "04A1B2C3D4E5F6", "ultralight"),
        ("tag_placed", 3, "11223344556677889900", "iso14443_4"),
    ]
    assert tags(bench.step(10)) == []  # lying there is not a stream of taps


def test_removal_after_the_miss_limit_and_a_wobble_is_no_removal() -> None:
    bench = Bench(readers=2)
    card = FakeCard(bytes.fromhex("CAFEF00D"))
    bench.chips[1].place(card)
    assert tags(bench.step()) == [("tag_placed", 1, "CAFEF00D", "mifare_classic")]
    card.silent = 2  # two scans without an answer: under the miss limit of 3
    assert tags(bench.step(6)) == []
    bench.chips[1].remove(card)
    assert tags(bench.step(2)) == []
    assert tags(bench.step(1)) == [("tag_removed", 1, "CAFEF00D", "")]


def test_two_cards_on_one_reader_collide_and_give_no_uid() -> None:
    bench = Bench(readers=1)
    bench.received()
    bench.chips[0].place(FakeCard(bytes.fromhex("01020304")))
    bench.chips[0].place(FakeCard(bytes.fromhex("0A0B0C0D")))
    assert tags(bench.step(5)) == []


def test_a_reader_that_does_not_answer_is_reported_and_retried() -> None:
    bench = Bench(readers=2, versions=(0x92, 0x00))
    msgs = bench.received()
    assert [(m.kind, m.reader, m.ok) for m in msgs if m.kind == codec.READER_STATE] == [(codec.READER_STATE, 1, 0)]
    bench.chips[1].version = 0x92  # its cable is pushed back in
    bench.chips[1].regs[0x37] = 0x92
    msgs = bench.step(1, ms=2500)
    assert [(m.reader, m.ok) for m in msgs if m.kind == codec.READER_STATE] == [(1, 1)]
    bench.chips[1].place(FakeCard(bytes.fromhex("01020304")))
    assert tags(bench.step()) == [("tag_placed", 1, "01020304", "mifare_classic")]


def test_buttons_are_debounced() -> None:
    bench = Bench(readers=1, buttons=2)
    bench.received()
    bench.buttons[1].level = 0
    assert bench.step(1, ms=5) == []  # a 5 ms blip is a bounce
    bench.buttons[1].level = 1
    assert bench.step(1, ms=5) == []
    bench.buttons[1].level = 0
    msgs = bench.step(5, ms=5)
    assert [(m.button, m.pressed) for m in msgs if m.kind == codec.BUTTON] == [(1, 1)]


def test_an_unacknowledged_event_is_resent_with_the_same_seq() -> None:
    bench = Bench(readers=1)
    bench.received()
    bench.chips[0].place(FakeCard(bytes.fromhex("01020304")))
    bench.firmware.step(5)
    first = bench.host.feed(bytes(bench.out))
    bench.out.clear()
    bench.board.poll(5 + bench.board.resend_ms)
    again = bench.host.feed(bytes(bench.out))
    placed = [m for m in first + again if m.kind == codec.TAG_PLACED]
    assert len(placed) == 2 and placed[0] == placed[1]


def test_the_firmware_frames_are_the_shared_vectors() -> None:
    """The board's HELLO and first tap, and its answers to the host vectors' commands."""
    frames = {v["name"]: bytes.fromhex(v["frame"]) for v in VECTORS["valid"]}
    out = bytearray()
    board = Board(2, BOARD_ID, out.extend)
    board.present[1] = (b"\x01\x02\x03\x04", 1)
    board.boot(0)
    assert bytes(out) == b"\x00" + frames["hello, 2 readers, reader 1 occupied"]
    out.clear()
    board.seen(0, bytes.fromhex("DEADBEEF"), 1)
    assert bytes(out) == frames["tag placed, 4-byte UID MIFARE Classic on reader 0"]
    leds: list[tuple[int, ...]] = []
    board.on_led = lambda *args: leds.append(args)
    out.clear()
    board.received(frames["led 0 green for 500 ms"] + frames["buzzer 880 Hz 120 ms"])
    assert leds == [(0, 0, 255, 0, 500)] and board.buzzes == [(880, 120)]
    acks = codec.Decoder(from_board=True).feed(bytes(out))
    assert [(m.kind, m.acked) for m in acks] == [(codec.ACK, 1), (codec.ACK, 3)]
    out.clear()
    board.received(frames["host ack of board seq 1"])
    assert board.pending == []
