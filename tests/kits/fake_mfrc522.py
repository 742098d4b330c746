"""A simulated SPI bus of MFRC522 chips with ISO 14443-A cards in their fields, for the firmware tests.

It stands in for hardware that cannot run here (the only fake in these tests): each chip has the
register file, FIFO, interrupt flags, CRC coprocessor and Transceive command of the datasheet as far
as the firmware uses them, and each card answers WUPA/REQA, ANTICOLLISION, SELECT (cascade levels
1-3) and HLTA with the state machine of ISO 14443-3 (IDLE, READY, ACTIVE, HALT). Two cards with
different UIDs in one field collide (CollErr). Written in the MicroPython subset, like the firmware.
"""

VERSION_REG = 0x37


def crc_a(data: bytes) -> bytes:
    """ISO 14443-3 CRC_A (preset 0x6363), low byte first."""
    crc = 0x6363
    for b in data:
        b ^= crc & 0xFF
        b = (b ^ (b << 4)) & 0xFF
        crc = (crc >> 8) ^ (b << 8) ^ (b << 3) ^ (b >> 4)
    return bytes((crc & 0xFF, (crc >> 8) & 0xFF))


class FakeCard:
    def __init__(self, uid: bytes, sak: int = 0x08, atqa: bytes = b"\x04\x00") -> None:
        self.uid = uid
        self.sak = sak
        self.atqa = atqa
        self.state = "IDLE"
        self.level = 0
        self.silent = 0  # the next `silent` commands get no answer (a card at the edge of the field)

    def levels(self) -> list[bytes]:
        u = self.uid
        if len(u) == 4:
            return [u]
        if len(u) == 7:
            return [b"\x88" + u[0:3], u[3:7]]
        return [b"\x88" + u[0:3], b"\x88" + u[3:6], u[6:10]]

    def answer(self, data: bytes, last_bits: int) -> bytes | None:
        if self.silent:
            self.silent -= 1
            return None
        if last_bits == 7 and len(data) == 1:
            if (data[0] == 0x52 and self.state in ("IDLE", "HALT")) or (data[0] == 0x26 and self.state == "IDLE"):
                self.state = "READY"
                self.level = 0
                return self.atqa
            return None
        if self.state != "READY" or len(data) < 2 or data[0] != (0x93, 0x95, 0x97)[min(self.level, 2)]:
            if data[:1] == b"\x50" and len(data) == 4 and crc_a(data[:2]) == data[2:] and self.state == "ACTIVE":
                self.state = "HALT"
            return None
        part = self.levels()[self.level]
        bcc = part[0] ^ part[1] ^ part[2] ^ part[3]
        if data[1] == 0x20 and len(data) == 2:
            return part + bytes((bcc,))
        if data[1] == 0x70 and len(data) == 9 and crc_a(data[:7]) == data[7:] and data[2:7] == part + bytes((bcc,)):
            more = self.level + 1 < len(self.levels())
            if more:
                self.level += 1
                sak = 0x04
            else:
                self.state = "ACTIVE"
                sak = self.sak
            return bytes((sak,)) + crc_a(bytes((sak,)))
        return None


class FakeChip:
    def __init__(self, version: int = 0x92) -> None:
        self.version = version
        self.regs = bytearray(64)
        self.fifo = bytearray()
        self.cards = []  # type: list[FakeCard]
        self.selected = False
        self.addr = -1
        self.transceives = 0
        self._reset()

    def _reset(self) -> None:
        self.regs = bytearray(64)
        self.regs[VERSION_REG] = self.version
        self.fifo = bytearray()

    # -- the field ----------------------------------------------------------------------------------------

    def place(self, card: FakeCard) -> None:
        card.state = "IDLE"
        self.cards.append(card)

    def remove(self, card: FakeCard) -> None:
        self.cards.remove(card)
        card.state = "IDLE"

    # -- SPI ---------------------------------------------------------------------------------------------

    def select(self, low: bool) -> None:
        self.selected = low
        self.addr = -1

    def spi_write(self, buf: bytes) -> None:
        for b in buf:
            if self.addr < 0:
                self.addr = b
            elif not self.addr & 0x80:
                self.write(self.addr >> 1 & 0x3F, b)

    def spi_read(self, n: int) -> bytes:
        return bytes(self.read(self.addr >> 1 & 0x3F) for _ in range(n))

    # -- registers ---------------------------------------------------------------------------------------

    def read(self, reg: int) -> int:
        if reg == 0x09:  # FIFODataReg
            if not self.fifo:
                return 0
            value = self.fifo[0]
            self.fifo = self.fifo[1:]
            return value
        if reg == 0x0A:  # FIFOLevelReg
            return len(self.fifo)
        return self.regs[reg]

    def write(self, reg: int, value: int) -> None:
        if reg == 0x01:  # CommandReg
            command = value & 0x0F
            if command == 0x0F:  # SoftReset
                self._reset()
                return
            self.regs[reg] = command
            if command == 0x03:  # CalcCRC
                result = crc_a(bytes(self.fifo))
                self.fifo = bytearray()
                self.regs[0x22], self.regs[0x21] = result[0], result[1]
                self.regs[0x05] |= 0x04
        elif reg in (0x04, 0x05):  # ComIrqReg, DivIrqReg: bit 7 says set or clear the marked bits
            if value & 0x80:
                self.regs[reg] |= value & 0x7F
            else:
                self.regs[reg] &= ~value & 0xFF
        elif reg == 0x09:
            self.fifo.append(value)
        elif reg == 0x0A:
            if value & 0x80:
                self.fifo = bytearray()
        elif reg == 0x0D:  # BitFramingReg
            self.regs[reg] = value
            if value & 0x80 and self.regs[0x01] == 0x0C:
                self._transceive(value & 0x07)
        else:
            self.regs[reg] = value

    def _transceive(self, last_bits: int) -> None:
        self.transceives += 1
        data = bytes(self.fifo)
        self.fifo = bytearray()
        self.regs[0x06] = 0
        if not self.regs[0x14] & 0x03:  # antenna off: no field, no card
            self.regs[0x04] |= 0x01
            return
        answers = [a for a in (card.answer(data, last_bits) for card in list(self.cards)) if a is not None]
        if not answers:
            self.regs[0x04] |= 0x01  # TimerIRq: nobody answered
            return
        if any(a != answers[0] for a in answers):
            self.regs[0x06] |= 0x08  # CollErr
        self.fifo = bytearray(answers[0])
        self.regs[0x04] |= 0x30  # RxIRq | IdleIRq


class FakePin:
    def __init__(self, chip: FakeChip) -> None:
        self.chip = chip
        self.level = 1

    def value(self, v: int | None = None) -> int:
        if v is not None:
            self.level = v
            self.chip.select(v == 0)
        return self.level


class FakeSPI:
    """One SPI bus: the chip whose chip-select pin is low gets the bytes."""

    def __init__(self) -> None:
        self.pins = []  # type: list[FakePin]

    def attach(self, chip: FakeChip) -> FakePin:
        pin = FakePin(chip)
        self.pins.append(pin)
        return pin

    def _chip(self) -> FakeChip:
        low = [p.chip for p in self.pins if p.level == 0]
        if len(low) != 1:
            raise AssertionError(str(len(low)) + " chips selected at once")
        return low[0]

    def write(self, buf: bytes) -> None:
        self._chip().spi_write(buf)

    def read(self, n: int) -> bytes:
        return self._chip().spi_read(n)


class FakeButton:
    def __init__(self) -> None:
        self.level = 1

    def value(self) -> int:
        return self.level
