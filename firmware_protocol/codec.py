"""The reader-board wire codec: COBS frames with a CRC-32, and the messages of protocol version 1.

The same file runs on CPython 3.11 (the Pi's driver, the emulator) and on MicroPython (the board's
firmware; copy it to the board as ``codec.py``). It therefore keeps to the subset both share, checked by
tests/test_codec_micropython.py under the real MicroPython interpreter:

- no ``from __future__``, no ``typing``, no dataclasses, no ``enum``: annotations are only ever read by
  mypy (MicroPython parses and drops them; CPython 3.11 evaluates them, so they use builtins only);
- bytes, bytearray, ``int.from_bytes``/``to_bytes`` with positional byteorder, ``bytes.find``, slicing;
  no ``del`` on bytearray slices, no ``memoryview`` tricks, no ``str.format`` mini-language beyond %.
- ``binascii.crc32`` when the port has it (CPython always; most MicroPython ports), a table otherwise.

See SPEC.md for the layout. In short: a frame on the wire is ``COBS(kind, seq, payload, crc32_le) 00``.
"""

try:
    from binascii import crc32 as _crc32
except ImportError:  # a MicroPython build without binascii.crc32
    _crc32 = None  # type: ignore[assignment]

PROTOCOL_VERSION = 1

# Board -> host
HELLO = 0x01
TAG_PLACED = 0x02
TAG_REMOVED = 0x03
BUTTON = 0x04
HEARTBEAT = 0x05
ACK = 0x06
NACK = 0x07
READER_STATE = 0x08
# Host -> board
HELLO_REQUEST = 0x81
LED = 0x82
BUZZER = 0x83
HOST_ACK = 0x84

NAMES = {
    HELLO: "hello",
    TAG_PLACED: "tag_placed",
    TAG_REMOVED: "tag_removed",
    BUTTON: "button",
    HEARTBEAT: "heartbeat",
    ACK: "ack",
    NACK: "nack",
    READER_STATE: "reader_state",
    HELLO_REQUEST: "hello_request",
    LED: "led",
    BUZZER: "buzzer",
    HOST_ACK: "host_ack",
}
KINDS = {name: kind for kind, name in NAMES.items()}

# Board messages the host must acknowledge (HOST_ACK with their seq); the board resends until it does.
NEEDS_ACK = (TAG_PLACED, TAG_REMOVED, BUTTON, READER_STATE)

# Tag types (from the SAK byte a reader gets at SELECT); names as in hardware.events.TagPlaced.
TAG_TYPES = ("iso14443a", "mifare_classic", "ultralight", "ntag", "iso14443_4")

# NACK codes
E_UNKNOWN_KIND = 1
E_BAD_LENGTH = 2
E_BAD_VALUE = 3

# Limits
MAX_READERS = 8
MAX_BUTTONS = 16
UID_LENGTHS = (4, 7, 10)
MAX_PAYLOAD = 24
MAX_FRAME = 2 + MAX_PAYLOAD + 4  # kind, seq, payload, crc
MAX_ENCODED = MAX_FRAME + 1  # COBS adds one byte per 254 (our frames are shorter)
BOARD_ID_LENGTH = 8

# Layout of each message's payload: (field, size) with size 1/2/4 = unsigned little-endian integer,
# UID = a length byte then that many UID bytes, ID = the 8-byte board id.
UID = -1
ID = -2
LAYOUT = {
    HELLO: (("proto", 1), ("fw_major", 1), ("fw_minor", 1), ("readers", 1), ("mask", 1), ("board_id", ID)),
    TAG_PLACED: (("reader", 1), ("tag_type", 1), ("uid", UID)),
    TAG_REMOVED: (("reader", 1), ("uid", UID)),
    BUTTON: (("button", 1), ("pressed", 1)),
    HEARTBEAT: (("uptime_ms", 4), ("mask", 1)),
    ACK: (("acked", 1),),
    NACK: (("acked", 1), ("code", 1)),
    READER_STATE: (("reader", 1), ("ok", 1)),
    HELLO_REQUEST: (("proto", 1),),
    LED: (("led", 1), ("red", 1), ("green", 1), ("blue", 1), ("ms", 2)),
    BUZZER: (("hz", 2), ("ms", 2)),
    HOST_ACK: (("acked", 1),),
}

# Values a field may take beyond its size (inclusive ranges); anything else is a malformed message.
RANGES = {
    "proto": (1, 255),
    "readers": (1, MAX_READERS),
    "reader": (0, MAX_READERS - 1),
    "tag_type": (0, len(TAG_TYPES) - 1),
    "button": (0, MAX_BUTTONS - 1),
    "pressed": (0, 1),
    "ok": (0, 1),
    "code": (1, 255),
    "hz": (20, 20000),
}


class Message:
    """One protocol message. Only the fields of its kind's LAYOUT are meaningful (the rest stay 0/b"")."""

    def __init__(
        self,
        kind: int,
        seq: int = 0,
        *,
        reader: int = 0,
        tag_type: int = 0,
        uid: bytes = b"",
        button: int = 0,
        pressed: int = 0,
        uptime_ms: int = 0,
        mask: int = 0,
        proto: int = 0,
        fw_major: int = 0,
        fw_minor: int = 0,
        readers: int = 0,
        board_id: bytes = b"",
        acked: int = 0,
        code: int = 0,
        ok: int = 0,
        led: int = 0,
        red: int = 0,
        green: int = 0,
        blue: int = 0,
        ms: int = 0,
        hz: int = 0,
    ) -> None:
        self.kind = kind
        self.seq = seq
        self.reader = reader
        self.tag_type = tag_type
        self.uid = uid
        self.button = button
        self.pressed = pressed
        self.uptime_ms = uptime_ms
        self.mask = mask
        self.proto = proto
        self.fw_major = fw_major
        self.fw_minor = fw_minor
        self.readers = readers
        self.board_id = board_id
        self.acked = acked
        self.code = code
        self.ok = ok
        self.led = led
        self.red = red
        self.green = green
        self.blue = blue
        self.ms = ms
        self.hz = hz

    def fields(self) -> dict:
        """The kind's fields as a JSON-able dict (bytes as upper-case hex), as in vectors.json."""
        out = {"kind": NAMES[self.kind], "seq": self.seq}
        for name, _size in LAYOUT[self.kind]:
            value = getattr(self, name)
            out[name] = hexlify(value) if isinstance(value, bytes) else value
        return out

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Message) and self.kind == other.kind and self.fields() == other.fields()

    def __repr__(self) -> str:
        return f"Message({self.fields()!r})"


def hexlify(data: bytes) -> str:
    return "".join(f"{b:02X}" for b in data)


def message_from_fields(fields: dict) -> Message:
    """The inverse of `Message.fields` (used by the vectors and the emulator's command line)."""
    msg = Message(KINDS[fields["kind"]], fields.get("seq", 0))
    for name, _size in LAYOUT[msg.kind]:
        value = fields[name]
        setattr(msg, name, bytes.fromhex(value) if isinstance(value, str) else value)
    return msg


# -- CRC-32 (IEEE 802.3, as zlib) ------------------------------------------------------------------------

_TABLE = None  # type: list[int] | None


def crc32_table(data: bytes) -> int:
    """CRC-32 without binascii (reflected, poly 0xEDB88320, init and final xor 0xFFFFFFFF)."""
    global _TABLE
    if _TABLE is None:
        table = []
        for n in range(256):
            c = n
            for _ in range(8):
                c = (c >> 1) ^ 0xEDB88320 if c & 1 else c >> 1
            table.append(c)
        _TABLE = table
    crc = 0xFFFFFFFF
    for b in data:
        crc = _TABLE[(crc ^ b) & 0xFF] ^ (crc >> 8)
    return crc ^ 0xFFFFFFFF


def crc32(data: bytes) -> int:
    if _crc32 is not None:
        return _crc32(data) & 0xFFFFFFFF
    return crc32_table(data)


# -- COBS --------------------------------------------------------------------------------------------------


def cobs_encode(data: bytes) -> bytes:
    """Consistent Overhead Byte Stuffing: the result holds no zero byte."""
    out = bytearray()
    code_at = 0
    out.append(0)
    code = 1
    for b in data:
        if b == 0:
            out[code_at] = code
            code_at = len(out)
            out.append(0)
            code = 1
        else:
            out.append(b)
            code += 1
            if code == 0xFF:
                out[code_at] = code
                code_at = len(out)
                out.append(0)
                code = 1
    out[code_at] = code
    return bytes(out)


def cobs_decode(data: bytes) -> bytes | None:
    """The bytes `cobs_encode` made, or None if `data` is not a valid COBS block."""
    out = bytearray()
    i = 0
    n = len(data)
    while i < n:
        code = data[i]
        end = i + code
        if code == 0 or end > n:
            return None
        chunk = data[i + 1 : end]
        if 0 in chunk:
            return None
        out.extend(chunk)
        i = end
        if code != 0xFF and i < n:
            out.append(0)
    return bytes(out)


# -- messages <-> frames ------------------------------------------------------------------------------------


def pack(msg: Message) -> bytes:
    """The payload bytes of a message (no framing). Raises ValueError for a value out of range."""
    layout = LAYOUT.get(msg.kind)
    if layout is None:
        raise ValueError(f"unknown kind {msg.kind!r}")
    out = bytearray()
    for name, size in layout:
        value = getattr(msg, name)
        if size == UID:
            if len(value) not in UID_LENGTHS:
                raise ValueError("uid must be 4, 7 or 10 bytes")
            out.append(len(value))
            out.extend(value)
        elif size == ID:
            if len(value) != BOARD_ID_LENGTH:
                raise ValueError("board_id must be 8 bytes")
            out.extend(value)
        else:
            low, high = RANGES.get(name, (0, (1 << (8 * size)) - 1))
            if not low <= value <= high or value >= 1 << (8 * size):
                raise ValueError(f"{name} out of range: {value!r}")
            out.extend(value.to_bytes(size, "little"))
    return bytes(out)


def encode(msg: Message) -> bytes:
    """The complete wire frame of a message: COBS(kind, seq, payload, crc32 LE) then the 00 delimiter."""
    if not 0 <= msg.seq <= 255:
        raise ValueError("seq out of range")
    body = bytes((msg.kind, msg.seq)) + pack(msg)
    return cobs_encode(body + crc32(body).to_bytes(4, "little")) + b"\x00"


def unpack(kind: int, seq: int, payload: bytes) -> Message | None:
    """A message from its payload, or None if the payload does not fit the kind's layout exactly."""
    layout = LAYOUT.get(kind)
    if layout is None:
        return None
    msg = Message(kind, seq)
    i = 0
    n = len(payload)
    for name, size in layout:
        if size == UID:
            if i >= n:
                return None
            length = payload[i]
            if length not in UID_LENGTHS or i + 1 + length > n:
                return None
            setattr(msg, name, payload[i + 1 : i + 1 + length])
            i += 1 + length
        elif size == ID:
            if i + BOARD_ID_LENGTH > n:
                return None
            setattr(msg, name, payload[i : i + BOARD_ID_LENGTH])
            i += BOARD_ID_LENGTH
        else:
            if i + size > n:
                return None
            value = int.from_bytes(payload[i : i + size], "little")
            i += size
            rng = RANGES.get(name)
            if rng is not None and not rng[0] <= value <= rng[1]:
                return None
            setattr(msg, name, value)
    if i != n:
        return None
    return msg


def decode_frame(encoded: bytes, from_board: bool) -> tuple[Message | None, str]:
    """One frame (without its 00 delimiter) -> (message, "") or (None, why it was dropped).

    `from_board` says which side sent it: a host only accepts board kinds (< 0x80) and vice versa.
    """
    if len(encoded) > MAX_ENCODED:
        return None, "too_long"
    body = cobs_decode(encoded)
    if body is None:
        return None, "cobs"
    if len(body) < 6:
        return None, "too_short"
    if crc32(body[:-4]) != int.from_bytes(body[-4:], "little"):
        return None, "crc"
    kind = body[0]
    if (kind < 0x80) != from_board:
        return None, "direction"
    msg = unpack(kind, body[1], body[2:-4])
    if msg is None:
        return None, "unknown" if kind not in LAYOUT else "malformed"
    return msg, ""


class Decoder:
    """Splits a byte stream into messages. Feed it bytes in any chunking; it never raises on input.

    A frame ends at each 00 byte. Empty frames (00 00) are ignored: senders use a lone 00 to terminate
    whatever noise came before. A frame that is too long, not COBS, too short, fails its CRC, comes
    from the wrong side or does not match its layout is dropped and counted in `dropped`
    (by reason in `reasons`); decoding resumes at the next 00.
    """

    def __init__(self, from_board: bool = True) -> None:
        self.from_board = from_board
        self.buf = b""
        self.overflow = False
        self.dropped = 0
        self.frames = 0
        self.reasons = {}  # type: dict[str, int]

    def reset(self) -> None:
        """Forget a partial frame (the port was reopened)."""
        self.buf = b""
        self.overflow = False

    def _drop(self, reason: str) -> None:
        self.dropped += 1
        self.reasons[reason] = self.reasons.get(reason, 0) + 1

    def feed(self, data: bytes) -> list[Message]:
        out = []  # type: list[Message]
        start = 0
        n = len(data)
        while start < n:
            end = data.find(b"\x00", start)
            if end < 0:
                if not self.overflow:
                    self.buf = self.buf + data[start:]
                    if len(self.buf) > MAX_ENCODED:
                        self.buf = b""
                        self.overflow = True
                return out
            chunk = self.buf + data[start:end] if self.buf else data[start:end]
            self.buf = b""
            start = end + 1
            if self.overflow:
                self.overflow = False
                self._drop("too_long")
                continue
            if not chunk:
                continue
            msg, why = decode_frame(chunk, self.from_board)
            if msg is None:
                self._drop(why)
            else:
                self.frames += 1
                out.append(msg)
        return out
