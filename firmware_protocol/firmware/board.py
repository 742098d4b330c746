"""The board's side of protocol v1, without hardware: scan results and host bytes in, frames out.

Shared by the reference firmware (main.py on the RP2040) and the device emulator, so the emulator
speaks exactly what the firmware speaks. Runs on MicroPython and CPython (same subset as codec.py).

The caller drives it:

- ``seen(reader, uid, tag_type)`` / ``missed(reader)`` after each scan of a reader: a tag found, or
  none. A tag counts as removed after `miss_limit` consecutive misses (an RC522 misses a card now and
  then; this is the firmware's debounce). A different UID on the same reader is a removal then a
  placement.
- ``button(index, pressed)`` on a debounced edge.
- ``received(data)`` with bytes from the host; ``poll(now_ms)`` often (every few ms): heartbeats and
  resends happen there. Set ``board.now`` (milliseconds, never wrapping) before `seen`/`missed`/
  `button` when the caller's clock moved since the last poll, so a new event's resend timer starts then.

Events that change the table (tag placed/removed, button, reader state) wait for the host's HOST_ACK
and are resent every `resend_ms` (same seq) until acknowledged, one at a time, so a frame lost to
noise is delivered late rather than never. After `resend_limit` tries the event is dropped (no host).
A HELLO_REQUEST (the host (re)connected) is answered with HELLO (with the mask of occupied readers),
then every tag present is re-announced; the host knows which of those it has already seen. Queued
events stay queued (they happened) and the one in flight is resent at the next poll.
"""

try:
    from firmware_protocol import codec
except ImportError:  # on the board, codec.py sits beside this file
    import codec  # type: ignore[import-not-found,no-redef]

TYPE_CHECKING = False  # MicroPython has no typing module; mypy reads this name as True
if TYPE_CHECKING:
    from collections.abc import Callable

FW_MAJOR = 1
FW_MINOR = 0


class Board:
    def __init__(
        self,
        readers: int,
        board_id: bytes,
        write: "Callable[[bytes], object]",
        heartbeat_ms: int = 500,
        resend_ms: int = 100,
        resend_limit: int = 20,
        miss_limit: int = 3,
        queue_limit: int = 32,
    ) -> None:
        if not 1 <= readers <= codec.MAX_READERS:
            raise ValueError("1 to 8 readers")
        self.readers = readers
        self.board_id = board_id
        self.write = write  # callable(bytes): sends to the host; must not block for long
        self.heartbeat_ms = heartbeat_ms
        self.resend_ms = resend_ms
        self.resend_limit = resend_limit
        self.miss_limit = miss_limit
        self.queue_limit = queue_limit
        self.present = [None] * readers  # type: list[tuple[bytes, int] | None]
        self.misses = [0] * readers
        self.pending = []  # type: list[codec.Message]
        self.tries = 0
        self.sent_at = 0
        self.seq = 0
        self.now = 0
        self.last_heartbeat = 0
        self.decoder = codec.Decoder(False)
        self.leds = {}  # type: dict[int, tuple[int, int, int, int]]
        self.buzzes = []  # type: list[tuple[int, int]]
        self.on_led = None  # type: Callable[[int, int, int, int, int], object] | None
        self.on_buzzer = None  # type: Callable[[int, int], object] | None
        self.events_dropped = 0

    # -- outgoing ---------------------------------------------------------------------------------------

    def _next_seq(self) -> int:
        seq = self.seq
        self.seq = (self.seq + 1) & 0xFF
        return seq

    def _send(self, msg: codec.Message) -> None:
        self.write(codec.encode(msg))

    def mask(self) -> int:
        bits = 0
        for i in range(self.readers):
            if self.present[i] is not None:
                bits |= 1 << i
        return bits

    def boot(self, now_ms: int = 0) -> None:
        """Power-on: a lone 00 ends any noise the host holds, then an unsolicited HELLO."""
        self.now = now_ms
        self.write(b"\x00")
        self.hello()

    def hello(self) -> None:
        self._send(
            codec.Message(
                codec.HELLO,
                self._next_seq(),
                proto=codec.PROTOCOL_VERSION,
                fw_major=FW_MAJOR,
                fw_minor=FW_MINOR,
                readers=self.readers,
                mask=self.mask(),
                board_id=self.board_id,
            )
        )
        self.last_heartbeat = self.now

    def _queue(self, msg: codec.Message) -> None:
        if len(self.pending) >= self.queue_limit:
            self.pending.pop(1 if len(self.pending) > 1 else 0)  # keep the one in flight
            self.events_dropped += 1
        self.pending.append(msg)
        if len(self.pending) == 1:
            self._send_head()

    def _send_head(self) -> None:
        head = self.pending[0]
        head.seq = self._next_seq()
        self.tries = 1
        self.sent_at = self.now
        self._send(head)

    # -- what the board senses --------------------------------------------------------------------------

    def seen(self, reader: int, uid: bytes, tag_type: int) -> None:
        self.misses[reader] = 0
        current = self.present[reader]
        if current is not None and current[0] == uid:
            return
        if current is not None:
            self._queue(codec.Message(codec.TAG_REMOVED, reader=reader, uid=current[0]))
        self.present[reader] = (uid, tag_type)
        self._queue(codec.Message(codec.TAG_PLACED, reader=reader, tag_type=tag_type, uid=uid))

    def missed(self, reader: int) -> None:
        current = self.present[reader]
        if current is None:
            return
        self.misses[reader] += 1
        if self.misses[reader] >= self.miss_limit:
            self.misses[reader] = 0
            self.present[reader] = None
            self._queue(codec.Message(codec.TAG_REMOVED, reader=reader, uid=current[0]))

    def button(self, index: int, pressed: bool) -> None:
        self._queue(codec.Message(codec.BUTTON, button=index, pressed=1 if pressed else 0))

    def reader_state(self, reader: int, ok: bool) -> None:
        self._queue(codec.Message(codec.READER_STATE, reader=reader, ok=1 if ok else 0))

    # -- the host -----------------------------------------------------------------------------------------

    def received(self, data: bytes) -> None:
        for msg in self.decoder.feed(data):
            self._handle(msg)

    def _handle(self, msg: codec.Message) -> None:
        if msg.kind == codec.HOST_ACK:
            if self.pending and self.pending[0].seq == msg.acked:
                self.pending.pop(0)
                if self.pending:
                    self._send_head()
        elif msg.kind == codec.HELLO_REQUEST:
            self.hello()
            for reader in range(self.readers):
                current = self.present[reader]
                if current is not None:
                    self._queue(codec.Message(codec.TAG_PLACED, reader=reader, tag_type=current[1], uid=current[0]))
            if self.pending:  # the host ignored what came before its HELLO: send the head again now
                self.tries = 0
                self.sent_at = self.now - self.resend_ms
        elif msg.kind == codec.LED:
            if msg.led != 0xFF and msg.led >= self.readers:
                self._reply(codec.Message(codec.NACK, acked=msg.seq, code=codec.E_BAD_VALUE))
                return
            self.leds[msg.led] = (msg.red, msg.green, msg.blue, msg.ms)
            if self.on_led is not None:
                self.on_led(msg.led, msg.red, msg.green, msg.blue, msg.ms)
            self._reply(codec.Message(codec.ACK, acked=msg.seq))
        elif msg.kind == codec.BUZZER:
            self.buzzes.append((msg.hz, msg.ms))
            if self.on_buzzer is not None:
                self.on_buzzer(msg.hz, msg.ms)
            self._reply(codec.Message(codec.ACK, acked=msg.seq))

    def _reply(self, msg: codec.Message) -> None:
        msg.seq = self._next_seq()
        self._send(msg)

    def poll(self, now_ms: int) -> None:
        """Heartbeat and resend; call every few milliseconds with a monotonic millisecond clock."""
        self.now = now_ms
        if self.pending and now_ms - self.sent_at >= self.resend_ms:
            if self.tries >= self.resend_limit:
                self.pending.pop(0)
                self.events_dropped += 1
                if self.pending:
                    self._send_head()
            else:
                self.tries += 1
                self.sent_at = now_ms
                self._send(self.pending[0])
        if now_ms - self.last_heartbeat >= self.heartbeat_ms:
            self.last_heartbeat = now_ms
            self._send(
                codec.Message(codec.HEARTBEAT, self._next_seq(), uptime_ms=now_ms & 0xFFFFFFFF, mask=self.mask())
            )
