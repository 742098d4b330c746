"""MFRC522 (RC522 module) over SPI for MicroPython: find one ISO 14443-A card and read its UID.

Just what a token reader needs: reset and antenna on, WUPA (so a card left in the field answers
every scan, halted or not), anticollision and SELECT through cascade levels 1-3 (4-, 7- and 10-byte
UIDs), then HLTA. Register map and commands: NXP MFRC522 datasheet rev. 3.9, sections 9 and 10;
the ISO 14443-3 frames (REQA/WUPA, ANTICOLLISION, SELECT, HLTA, CRC_A) as in its part 3.

`spi` needs ``write(bytes)`` and ``read(n)`` (machine.SPI); `cs` needs ``value(v)`` (machine.Pin),
one chip-select pin per reader on a shared bus.
"""

# Registers
COMMAND = 0x01
COM_IEN = 0x02
COM_IRQ = 0x04
DIV_IRQ = 0x05
ERROR = 0x06
FIFO_DATA = 0x09
FIFO_LEVEL = 0x0A
CONTROL = 0x0C
BIT_FRAMING = 0x0D
COLL = 0x0E
MODE = 0x11
TX_CONTROL = 0x14
TX_ASK = 0x15
CRC_RESULT_H = 0x21
CRC_RESULT_L = 0x22
T_MODE = 0x2A
T_PRESCALER = 0x2B
T_RELOAD_H = 0x2C
T_RELOAD_L = 0x2D
VERSION = 0x37

# Commands
IDLE = 0x00
CALC_CRC = 0x03
TRANSCEIVE = 0x0C
SOFT_RESET = 0x0F

# ISO 14443-3 type A
REQA = 0x26
WUPA = 0x52
SELECT = (0x93, 0x95, 0x97)  # cascade levels 1, 2, 3
CASCADE_TAG = 0x88
HLTA = 0x50

KNOWN_VERSIONS = (0x88, 0x90, 0x91, 0x92, 0xB2)  # FM17522 clone, MFRC522 v0.0/1.0/2.0, another clone

POLL_LIMIT = 2000  # register polls before a command is given up (the chip's own timer ends it first)


def tag_type(sak: int) -> int:
    """firmware_protocol TAG_TYPES index from a SAK byte (NXP AN10833)."""
    if sak & 0x20:
        return 4  # iso14443_4 (DESFire, smart cards)
    if sak in (0x08, 0x18, 0x09, 0x88, 0x28, 0x38):
        return 1  # mifare_classic (1K, 4K, Mini, and their emulations)
    if sak == 0x00:
        return 2  # ultralight (includes NTAG21x; telling them apart needs GET_VERSION)
    return 0


class MFRC522:
    def __init__(self, spi, cs) -> None:  # type: ignore[no-untyped-def]
        self.spi = spi
        self.cs = cs
        self.cs.value(1)

    # -- registers ---------------------------------------------------------------------------------------

    def write(self, reg: int, value: int) -> None:
        self.cs.value(0)
        self.spi.write(bytes(((reg << 1) & 0x7E, value)))
        self.cs.value(1)

    def read(self, reg: int) -> int:
        self.cs.value(0)
        self.spi.write(bytes((((reg << 1) & 0x7E) | 0x80,)))
        value = self.spi.read(1)[0]
        self.cs.value(1)
        return value

    def set_bits(self, reg: int, mask: int) -> None:
        self.write(reg, self.read(reg) | mask)

    def clear_bits(self, reg: int, mask: int) -> None:
        self.write(reg, self.read(reg) & ~mask & 0xFF)

    # -- set-up ------------------------------------------------------------------------------------------

    def init(self) -> bool:
        """Reset, 25 ms receive timeout, 100 % ASK, antenna on. True if the chip answers with a known version."""
        self.write(COMMAND, SOFT_RESET)
        self.write(T_MODE, 0x8D)  # timer starts after each transmission; prescaler high bits
        self.write(T_PRESCALER, 0x3E)
        self.write(T_RELOAD_H, 0)
        self.write(T_RELOAD_L, 30)
        self.write(TX_ASK, 0x40)
        self.write(MODE, 0x3D)  # CRC preset 0x6363 (ISO 14443-3)
        self.set_bits(TX_CONTROL, 0x03)
        return self.version() in KNOWN_VERSIONS

    def version(self) -> int:
        return self.read(VERSION)

    # -- commands ----------------------------------------------------------------------------------------

    def transceive(self, data: bytes, last_bits: int = 0) -> bytes | None:
        """Send `data` (the last byte only `last_bits` long if not 0); the card's answer, or None."""
        self.write(COMMAND, IDLE)
        self.write(COM_IRQ, 0x7F)  # clear all interrupt flags
        self.write(FIFO_LEVEL, 0x80)  # flush the FIFO
        for b in data:
            self.write(FIFO_DATA, b)
        self.write(COMMAND, TRANSCEIVE)
        self.write(BIT_FRAMING, 0x80 | last_bits)  # StartSend
        irq = 0
        for _ in range(POLL_LIMIT):
            irq = self.read(COM_IRQ)
            if irq & 0x31:  # RxIRq, IdleIRq or TimerIRq
                break
        self.clear_bits(BIT_FRAMING, 0x80)
        if not irq & 0x20:
            return None  # nothing received: no card answered before the timer ran out
        if self.read(ERROR) & 0x1B:  # buffer overflow, parity, CRC or protocol error
            return None
        n = self.read(FIFO_LEVEL)
        return bytes(self.read(FIFO_DATA) for _ in range(n))

    def crc_a(self, data: bytes) -> bytes:
        """CRC_A computed by the chip's coprocessor (low byte first, as sent)."""
        self.write(COMMAND, IDLE)
        self.write(DIV_IRQ, 0x04)
        self.write(FIFO_LEVEL, 0x80)
        for b in data:
            self.write(FIFO_DATA, b)
        self.write(COMMAND, CALC_CRC)
        for _ in range(POLL_LIMIT):
            if self.read(DIV_IRQ) & 0x04:
                break
        self.write(COMMAND, IDLE)
        return bytes((self.read(CRC_RESULT_L), self.read(CRC_RESULT_H)))

    # -- ISO 14443-3 ---------------------------------------------------------------------------------------

    def read_uid(self) -> tuple[bytes, int] | None:
        """(UID, SAK) of one card in the field, which is then halted; None if there is none."""
        self.write(COLL, 0x80)  # values received after a collision are cleared
        atqa = self.transceive(bytes((WUPA,)), 7)
        if atqa is None or len(atqa) != 2:
            return None
        uid = b""
        sak = 0
        for level in SELECT:
            answer = self.transceive(bytes((level, 0x20)))
            if answer is None or len(answer) != 5 or answer[0] ^ answer[1] ^ answer[2] ^ answer[3] != answer[4]:
                return None  # nothing, a collision of two cards, or a corrupted answer: next scan
            frame = bytes((level, 0x70)) + answer
            reply = self.transceive(frame + self.crc_a(frame))
            if reply is None or len(reply) != 3 or self.crc_a(reply[:1]) != reply[1:]:
                return None
            sak = reply[0]
            if answer[0] == CASCADE_TAG and sak & 0x04:
                uid += answer[1:4]
                continue
            uid += answer[0:4]
            break
        else:
            return None
        halt = bytes((HLTA, 0))
        self.transceive(halt + self.crc_a(halt))
        return uid, sak
