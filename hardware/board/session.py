"""The host's side of protocol v1: frames from a reader board in, device events out.

A `BoardSession` is the framer a `SerialLink` feeds (all its methods run on the link's reader thread).
What it promises the main loop:

- **One event per placement.** A tag lying on a reader is one `TagPlaced`, however often the board
  re-announces it (after a HELLO, a replug, a resend). Each slot remembers its tag across sessions, so
  a board that reboots with the tag still on it causes no new tap.
- **Same-tag repeat window.** A tag lifted and put back on the same reader within `repeat_window`
  seconds (a hand that wobbles, an RC522 that loses the card at the edge of its field) is still the
  same placement: the `TagRemoved` is held back for the window and withdrawn if the tag returns.
  A different tag, or the same tag after the window, is a new tap.
- **Removal where the board can tell.** A `TAG_REMOVED`, or a HELLO/heartbeat whose mask says the
  reader is empty, ends the placement (after the window).
- **Never a false tap.** Only a frame that passed COBS, CRC-32, direction, layout and range checks, in
  a session that said HELLO with our protocol version, for a reader index the board declared, can
  place a tag. Everything else is dropped and counted (`ReaderStatus.frames_dropped`).
- **Status.** "ok" after a good HELLO; "error" when heartbeats stop for `heartbeat_timeout` seconds,
  when the board speaks another protocol version, or reports a reader fault; the link reports
  "missing"/"searching" when the port goes.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable

from firmware_protocol import codec
from hardware.events import ButtonEdge, Emit, ReaderState, TagPlaced, TagRemoved
from hardware.serial_link import SerialLink

log = logging.getLogger(__name__)

HELLO_RETRY = 1.0  # seconds between HELLO_REQUESTs until the board answers


class BoardSession:
    def __init__(
        self,
        name: str,
        emit: Emit,
        *,
        repeat_window: float = 0.75,
        heartbeat_timeout: float = 1.6,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.name = name
        self.emit = emit
        self.repeat_window = repeat_window
        self.heartbeat_timeout = heartbeat_timeout
        self.clock = clock
        self.decoder = codec.Decoder(from_board=True)
        self.link: SerialLink | None = None
        self.readers = 0  # from HELLO; 0 until the board has said hello in this session
        self.board_id = ""
        self.firmware = ""
        self.slots: dict[int, str] = {}  # slot -> UID hex of the tag the host believes lies there
        self.leaving: dict[int, tuple[str, float]] = {}  # slot -> (UID, deadline) of a held-back removal
        self.faulty: set[int] = set()
        self.rejected = 0  # valid frames the session refused (reader index beyond the board's count)
        self.last_event: codec.Message | None = None
        self.last_heard = 0.0
        self.hello_asked = 0.0
        self.state: ReaderState | None = None
        self.host_seq = 0
        self._send_lock = threading.Lock()  # commands come from other threads than the reader thread
        self.nacks = 0
        self._reported_drops = 0

    # -- Framer: called by the link on its reader thread -------------------------------------------------

    def connection_made(self, link: SerialLink) -> None:
        self.link = link
        self.decoder.reset()
        self.readers = 0
        self.last_event = None
        self._ask_hello(self.clock())

    def connection_lost(self, why: str) -> None:
        for slot, (uid, _deadline) in list(self.leaving.items()):  # no tick runs while unplugged
            del self.leaving[slot]
            self.emit(TagRemoved(self.name, slot, uid))
        self.decoder.reset()
        self.readers = 0
        self.state = "missing"

    def data_received(self, data: bytes) -> None:
        now = self.clock()
        for msg in self.decoder.feed(data):
            self.last_heard = now
            self._handle(msg, now)
        self._sync_drops()

    def tick(self, now: float) -> None:
        for slot, (uid, deadline) in list(self.leaving.items()):
            if now >= deadline:
                del self.leaving[slot]
                self.emit(TagRemoved(self.name, slot, uid))
        if self.readers == 0:
            if now - self.hello_asked >= HELLO_RETRY and self.link is not None:
                self._ask_hello(now)
        elif now - self.last_heard > self.heartbeat_timeout and self.state == "ok":
            self._report("error", f"no heartbeat for {self.heartbeat_timeout:.1f} s")

    # -- the board's messages ---------------------------------------------------------------------------

    def _handle(self, msg: codec.Message, now: float) -> None:
        kind = msg.kind
        if kind == codec.HELLO:
            self._hello(msg, now)
            return
        if self.readers == 0:
            return  # a frame from before this session's HELLO (its events are re-announced after HELLO)
        if kind in codec.NEEDS_ACK:
            self._send(codec.Message(codec.HOST_ACK, acked=msg.seq))
            if self._duplicate(msg):
                return
            self.last_event = msg
        if kind == codec.TAG_PLACED:
            if msg.reader >= self.readers:
                self.rejected += 1
                return
            self._placed(msg.reader, codec.hexlify(msg.uid), codec.TAG_TYPES[msg.tag_type], now)
        elif kind == codec.TAG_REMOVED:
            if msg.reader >= self.readers:
                self.rejected += 1
                return
            self._removed(msg.reader, codec.hexlify(msg.uid), now)
        elif kind == codec.BUTTON:
            self.emit(ButtonEdge(self.name, str(msg.button), bool(msg.pressed)))
        elif kind == codec.HEARTBEAT:
            self._reconcile(msg.mask, now)
            if self.state != "ok" and not self.faulty:
                self._report("ok", self._describe())
        elif kind == codec.READER_STATE:
            if msg.reader >= self.readers:
                self.rejected += 1
                return
            (self.faulty.discard if msg.ok else self.faulty.add)(msg.reader)
            if self.faulty:
                self._report("error", f"reader(s) {sorted(self.faulty)} not answering")
            else:
                self._report("ok", self._describe())
        elif kind == codec.NACK:
            self.nacks += 1
            log.warning("%s: board refused command %d (code %d)", self.name, msg.acked, msg.code)

    def _duplicate(self, msg: codec.Message) -> bool:
        """A resend of the event just handled (its HOST_ACK was lost): same seq, same content."""
        last = self.last_event
        return last is not None and last.seq == msg.seq and last == msg

    def _hello(self, msg: codec.Message, now: float) -> None:
        if msg.proto != codec.PROTOCOL_VERSION:
            self.readers = 0
            self._report("error", f"board speaks protocol v{msg.proto}; this driver speaks v{codec.PROTOCOL_VERSION}")
            self.hello_asked = now + 3600  # do not keep asking a board we cannot talk to
            return
        self.readers = msg.readers
        self.board_id = codec.hexlify(msg.board_id)
        self.firmware = f"{msg.fw_major}.{msg.fw_minor}"
        self.last_event = None
        self.faulty.clear()
        for slot in [s for s in self.slots if s >= self.readers]:
            self._removed(slot, self.slots[slot], now)
        self._reconcile(msg.mask, now)
        self._report("ok", self._describe())

    def _reconcile(self, mask: int, now: float) -> None:
        """The board says which readers hold a tag: one we remember on an empty reader has left.
        (The mask never places a tag: it carries no UID; placements come as TAG_PLACED.)"""
        for slot in list(self.slots):
            if not mask & (1 << slot):
                self._removed(slot, self.slots[slot], now)

    def _placed(self, slot: int, uid: str, tag_type: str, now: float) -> None:
        if self.slots.get(slot) == uid:
            return  # re-announced: still the same placement
        leaving = self.leaving.pop(slot, None)
        if leaving is not None:
            if leaving[0] == uid:  # back within the repeat window: the same placement
                self.slots[slot] = uid
                return
            self.emit(TagRemoved(self.name, slot, leaving[0]))
        old = self.slots.get(slot)
        if old is not None:  # its removal was lost: end it before the new one begins
            self.emit(TagRemoved(self.name, slot, old))
        self.slots[slot] = uid
        self.emit(TagPlaced(self.name, slot, uid, tag_type))

    def _removed(self, slot: int, uid: str, now: float) -> None:
        if self.slots.get(slot) != uid:
            return  # a removal of a tag we never saw placed (or already ended)
        del self.slots[slot]
        self.leaving[slot] = (uid, now + self.repeat_window)

    # -- to the board -----------------------------------------------------------------------------------

    def _ask_hello(self, now: float) -> None:
        self.hello_asked = now
        self._send(codec.Message(codec.HELLO_REQUEST, proto=codec.PROTOCOL_VERSION), lead=b"\x00")

    def _send(self, msg: codec.Message, lead: bytes = b"") -> bool:
        link = self.link
        if link is None:
            return False
        with self._send_lock:
            msg.seq = self.host_seq
            self.host_seq = (self.host_seq + 1) & 0xFF
            return link.write(lead + codec.encode(msg))

    def command(self, msg: codec.Message) -> bool:
        """Send an LED/buzzer command (from any thread; the link serialises writes)."""
        return self._send(msg)

    # -- status -------------------------------------------------------------------------------------------

    def _describe(self) -> str:
        return f"board {self.board_id}, firmware {self.firmware}, {self.readers} reader(s)"

    def _report(self, state: ReaderState, detail: str) -> None:
        self.state = state
        if self.link is not None:
            self.link.frames_dropped = self.decoder.dropped
            self._reported_drops = self.decoder.dropped
            self.link.report(state, detail)

    def _sync_drops(self) -> None:
        """A dropped frame shows in the status at once (the host's noise counter)."""
        if self.decoder.dropped != self._reported_drops and self.readers and self.state in ("ok", "error"):
            reasons = ", ".join(f"{k} {v}" for k, v in sorted(self.decoder.reasons.items()))
            self._report(self.state, f"{self._describe()}; dropped frames: {reasons}")
