"""The PN532 HSU frame format (NXP UM0701-02, section 6.2), both directions, with no I/O.

A normal information frame is ``00 00 FF LEN LCS TFI PD0..PDn DCS 00`` where ``LEN`` counts TFI and
the data, ``(LEN + LCS) & 0xFF == 0`` and ``(TFI + sum(PD) + DCS) & 0xFF == 0``. TFI is ``D4`` from the
host to the chip and ``D5`` back; a reply's command code is the command's plus one. The extended frame
(``00 00 FF FF FF LENM LENL LCS ...``) carries up to 264 data bytes; the ACK is ``00 00 FF 00 FF 00``,
the NACK ``00 00 FF FF 00 00`` and the application error frame ``00 00 FF 01 FF 7F 81 00``.

`Decoder` takes bytes in any chunks and yields whole messages. It resynchronises on the start code
``00 FF``: noise between frames is skipped, and a frame whose length checksum, data checksum or
postamble is wrong is dropped and counted (`Decoder.dropped`), after which the search restarts just
past its start code, so a real frame hidden inside a false one is still found. Nothing it yields has
failed a check.
"""

from __future__ import annotations

from dataclasses import dataclass

PREAMBLE = b"\x00\x00\xff"
START = b"\x00\xff"
ACK = b"\x00\x00\xff\x00\xff\x00"
NACK = b"\x00\x00\xff\xff\x00\x00"
ERROR_FRAME = b"\x00\x00\xff\x01\xff\x7f\x81\x00"
#: What wakes a PN532 in HSU mode from power-down: a long preamble of 0x55 then zeros (libnfc sends 16 bytes).
WAKE_UP = b"\x55\x55" + bytes(14)
HOST_TO_CHIP = 0xD4
CHIP_TO_HOST = 0xD5
ERROR_TFI = 0x7F
MAX_NORMAL_DATA = 254  # LEN is one byte and counts the TFI
MAX_EXTENDED_DATA = 264

# Command codes used here (UM0701-02 section 7).
GET_FIRMWARE_VERSION = 0x02
SAM_CONFIGURATION = 0x14
RF_CONFIGURATION = 0x32
IN_LIST_PASSIVE_TARGET = 0x4A
IN_RELEASE = 0x52


@dataclass(frozen=True)
class Frame:
    """An information frame that passed every check: its TFI and its data (command code first)."""

    tfi: int
    data: bytes

    @property
    def code(self) -> int | None:
        return self.data[0] if self.data else None


@dataclass(frozen=True)
class Ack:
    pass


@dataclass(frozen=True)
class Nack:
    pass


@dataclass(frozen=True)
class ErrorFrame:
    """The chip's application-level error frame (a syntax error in the last command)."""


Message = Frame | Ack | Nack | ErrorFrame


def checksum(data: bytes | bytearray) -> int:
    """The byte that makes ``sum(data) + checksum`` a multiple of 256."""
    return (-sum(data)) & 0xFF


def encode(tfi: int, data: bytes) -> bytes:
    """One information frame (normal, or extended when the data is longer than a normal frame holds)."""
    body = bytes([tfi]) + data
    if len(data) > MAX_EXTENDED_DATA:
        raise ValueError(f"a PN532 frame holds at most {MAX_EXTENDED_DATA} data bytes, not {len(data)}")
    if len(body) <= 255:
        header = PREAMBLE + bytes([len(body), checksum(bytes([len(body)]))])
    else:
        hi, lo = divmod(len(body), 256)
        header = PREAMBLE + b"\xff\xff" + bytes([hi, lo, checksum(bytes([hi, lo]))])
    return header + body + bytes([checksum(body), 0x00])


def command(code: int, params: bytes = b"") -> bytes:
    """A host-to-chip command frame."""
    return encode(HOST_TO_CHIP, bytes([code]) + params)


def reply(code: int, params: bytes = b"") -> bytes:
    """A chip-to-host reply frame to command `code` (whose reply code is ``code + 1``)."""
    return encode(CHIP_TO_HOST, bytes([code + 1]) + params)


_ACK, _NACK, _ERROR = Ack(), Nack(), ErrorFrame()


class Decoder:
    """Bytes in, messages out. Keeps at most one frame's worth of unconsumed bytes between calls."""

    def __init__(self) -> None:
        self._buf = bytearray()
        self.dropped = 0  # frames that had a start code but failed a check

    def feed(self, data: bytes) -> list[Message]:
        buf = self._buf
        buf += data
        out: list[Message] = []
        while True:
            at = buf.find(START)
            if at < 0:
                # keep a trailing 00: it may be the first half of the next start code
                del buf[: len(buf) - 1 if buf.endswith(b"\x00") else len(buf)]
                return out
            del buf[:at]
            if len(buf) < 4:
                return out
            length, lcs = buf[2], buf[3]
            if length == 0x00 and lcs == 0xFF:
                out.append(_ACK)
                del buf[:4]
                continue
            if length == 0xFF and lcs == 0x00:
                out.append(_NACK)
                del buf[:4]
                continue
            if length == 0xFF and lcs == 0xFF:
                if len(buf) < 7:
                    return out
                hi, lo, xlcs = buf[4], buf[5], buf[6]
                size = hi * 256 + lo
                if (hi + lo + xlcs) & 0xFF or not 1 < size <= MAX_EXTENDED_DATA + 1:
                    self._drop()
                    continue
                head = 7
            else:
                if (length + lcs) & 0xFF or length == 0:
                    self._drop()
                    continue
                size, head = length, 4
            end = head + size + 2
            if len(buf) < end:
                return out
            body = buf[head : head + size]
            if (sum(body) + buf[head + size]) & 0xFF or buf[head + size + 1] != 0x00:
                self._drop()
                continue
            out.append(_ERROR if body == b"\x7f" else Frame(body[0], bytes(body[1:])))
            del buf[:end]

    def _drop(self) -> None:
        self.dropped += 1
        del self._buf[:2]  # search again from just after this start code

    def reset(self) -> None:
        """Forget a partial frame (after the port was reopened)."""
        self._buf.clear()
