"""The PN532 driver: a `ReaderDriver` that polls a PN532 over HSU and reports taps, removals and status.

I/O is `hardware.serial_link.SerialLink` (one port, one reader thread, reopen with backoff); this
module is the framer that runs on that thread. It never blocks: each command has a deadline checked on
the link's tick (every `tick` seconds at most), and a command that is not answered in time is aborted
with an ACK (UM0701-02 section 6.2.1.3) and counted. The session:

1. on every (re)open: wake-up + SAMConfiguration (normal mode), GetFirmwareVersion (must say IC 0x32),
   RFConfiguration MaxRetries (one passive activation retry, so a poll with no tag returns at once
   instead of waiting for a tag forever, the chip's default);
2. then InListPassiveTarget (one target, 106 kbps type A) every `poll_interval` seconds; the answers go
   to `Presence` (tap vs place, repeat window, removal).

Status: ``ok`` once the chip has answered the set-up (the detail names its firmware); ``missing`` at
once when the port goes (the link says so) or when the chip stops answering (three unanswered commands
in a row), after which the set-up is retried with a backoff; ``error`` for a device that answers but
is not a PN532. Corrupted frames and replies that are not a poll answer are dropped and counted (the
status carries the count, re-reported at most once a second while it grows).
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass

from hardware.events import Emit, ReaderState
from hardware.pn532 import frames, targets
from hardware.pn532.presence import Presence
from hardware.serial_link import Opener, SerialLink

log = logging.getLogger(__name__)

PN532_IC = 0x32
SILENT_LIMIT = 3  # unanswered commands in a row before the chip is called missing
RETRY_MIN, RETRY_MAX = 0.1, 0.5  # set-up retries after a silent chip, doubling
DROP_REPORT_EVERY = 1.0
SET_UP = (
    (frames.WAKE_UP + frames.command(frames.SAM_CONFIGURATION, b"\x01\x14\x01"), frames.SAM_CONFIGURATION),
    (frames.command(frames.GET_FIRMWARE_VERSION), frames.GET_FIRMWARE_VERSION),
    # CfgItem 5: MxRtyATR 0xFF, MxRtyPSL 0x01, MxRtyPassiveActivation 0x01 (two tries, then "no tag")
    (frames.command(frames.RF_CONFIGURATION, b"\x05\xff\x01\x01"), frames.RF_CONFIGURATION),
)
POLL = targets.poll_command()


@dataclass
class _Pending:
    code: int  # the command sent; its reply code is code + 1
    deadline: float
    nacked: bool = False


class _Session:
    """The framer: every method runs on the link's reader thread."""

    def __init__(self, driver: Pn532Driver, emit: Emit) -> None:
        self.d = driver
        self.presence = Presence(driver.name, emit, repeat_window=driver.repeat_window)
        self.decoder = frames.Decoder()
        self.link: SerialLink | None = None
        self.step = 0  # index into SET_UP; len(SET_UP) once polling
        self.pending: _Pending | None = None
        self.next_at = 0.0  # when to send the next command (a set-up retry or a poll)
        self.silent = 0
        self.retry = RETRY_MIN
        self.state: ReaderState | None = None
        self.firmware = ""
        self.polls = 0
        self._drops_reported = 0
        self._drops_reported_at = 0.0

    # -- link callbacks -------------------------------------------------------------------------------

    def connection_made(self, link: SerialLink) -> None:
        self.link = link
        self.decoder.reset()
        self.step, self.pending, self.next_at, self.silent, self.retry = 0, None, 0.0, 0, RETRY_MIN
        self.state = None  # the link reported "missing" when the port went; "ok" comes with the chip's answer
        self._send_next(self.d.clock())

    def connection_lost(self, why: str) -> None:
        self.pending, self.state = None, "missing"  # the presence stays: a tag still there is no new tap

    def data_received(self, data: bytes) -> None:
        before = self.decoder.dropped
        messages = self.decoder.feed(data)
        self._dropped(self.decoder.dropped - before)
        now = self.d.clock()
        if self.decoder.dropped != before and self.pending is not None and not self.pending.nacked:
            self.pending.nacked = True
            self._write(frames.NACK)  # ask the chip to send its answer again (UM0701-02 6.2.1.3)
        for msg in messages:
            if isinstance(msg, frames.Frame):
                self._frame(msg, now)
            elif isinstance(msg, frames.ErrorFrame) and self.pending is not None:
                self.pending = None  # the chip refused the command: try again on the next turn
                self._failed(now, "error frame")

    def tick(self, now: float) -> None:
        self.presence.tick(now)
        if self.pending is not None and now >= self.pending.deadline:
            self._write(frames.ACK)  # abort the command on the chip
            self.pending = None
            self.d.timeouts += 1
            self._failed(now, "no answer")
        if self.pending is None and now >= self.next_at:
            self._send_next(now)
        if self.state == "ok" and self._link_drops() != self._drops_reported and \
                now - self._drops_reported_at >= DROP_REPORT_EVERY:
            self._report("ok", self.firmware, now)

    # -- the conversation -----------------------------------------------------------------------------

    def _send_next(self, now: float) -> None:
        if self.step < len(SET_UP):
            data, code = SET_UP[self.step]
        else:
            data, code = POLL, frames.IN_LIST_PASSIVE_TARGET
        # A new command: whatever partial frame is left belongs to an answer that is over. Completing it
        # with the next answer's bytes could build a frame that passes the checksums (a dropped 00 data
        # byte pulls the DCS into the data and the next frame's first 00 in as the postamble).
        self.decoder.reset()
        if self._write(data):
            self.pending = _Pending(code, now + self.d.reply_timeout)

    def _frame(self, frame: frames.Frame, now: float) -> None:
        pending = self.pending
        if pending is None or frame.tfi != frames.CHIP_TO_HOST or frame.code != pending.code + 1:
            return  # a late answer to an aborted command, or not for us: says nothing
        self.pending, self.silent, self.retry = None, 0, RETRY_MIN
        if pending.code == frames.IN_LIST_PASSIVE_TARGET:
            self._polled(frame.data, now)
            return
        if pending.code == frames.GET_FIRMWARE_VERSION:
            if len(frame.data) != 5 or frame.data[1] != PN532_IC:
                self._report("error", f"not a PN532 (firmware answer {frame.data.hex()})", now)
                self.next_at = now + RETRY_MAX
                self.step = 0
                return
            self.firmware = f"PN532 firmware {frame.data[2]}.{frame.data[3]}"
        self.step += 1
        self.next_at = now
        if self.step == len(SET_UP):
            self._report("ok", self.firmware, now)
            self._send_next(now)

    def _polled(self, data: bytes, now: float) -> None:
        try:
            target = targets.parse(data)
        except targets.NotATarget as err:
            log.debug("%s: dropped a poll answer: %s", self.d.name, err)
            self._dropped(1)
            self.next_at = now
            return
        self.polls += 1
        again = self.presence.seen(target.uid_hex if target else None, target.tag_type if target else "", now)
        self.next_at = now if again else now + self.d.poll_interval
        if now >= self.next_at:
            self._send_next(now)

    def _failed(self, now: float, why: str) -> None:
        self.silent += 1
        if self.step < len(SET_UP) or self.silent >= SILENT_LIMIT:
            if self.state != "missing":
                self._report("missing", f"the PN532 gives {why}", now)
            self.step = 0  # wake it and set it up again
            self.next_at = now + self.retry
            self.retry = min(self.retry * 2, RETRY_MAX)
        else:
            self.next_at = now

    # -- helpers --------------------------------------------------------------------------------------

    def _write(self, data: bytes) -> bool:
        return self.link is not None and self.link.write(data)

    def _dropped(self, count: int) -> None:
        if count and self.link is not None:
            self.link.frames_dropped += count

    def _link_drops(self) -> int:
        return self.link.frames_dropped if self.link is not None else 0

    def _report(self, state: ReaderState, detail: str, now: float) -> None:
        self.state = state
        self._drops_reported, self._drops_reported_at = self._link_drops(), now
        if self.link is not None:
            self.link.report(state, detail)


class Pn532Driver:
    """A PN532 on a serial port (any pyserial URL). `start` returns at once; events go to `emit`."""

    def __init__(
        self,
        port: str,
        *,
        name: str = "pn532",
        poll_interval: float = 0.05,
        reply_timeout: float = 0.1,
        repeat_window: float = 0.3,
        tick: float = 0.025,
        opener: Opener | None = None,
    ) -> None:
        self.port, self.name = port, name
        self.poll_interval, self.reply_timeout, self.repeat_window = poll_interval, reply_timeout, repeat_window
        self.clock = time.monotonic
        self.timeouts = 0
        self._tick, self._opener = tick, opener
        self._link: SerialLink | None = None
        self._session: _Session | None = None

    def start(self, emit: Emit) -> None:
        if self._link is not None:
            raise RuntimeError(f"{self.name}: already started")
        self._session = _Session(self, emit)
        self._link = SerialLink(self.port, self._session, emit, name=self.name, opener=self._opener,
                                tick=self._tick)
        self._link.start()

    def stop(self) -> None:
        if self._link is not None:
            self._link.stop()

    @property
    def frames_dropped(self) -> int:
        return self._link.frames_dropped if self._link is not None else 0

    @property
    def polls(self) -> int:
        """Poll answers read so far (the benchmark's reads)."""
        return self._session.polls if self._session is not None else 0
