"""A PN532 on a pseudo-terminal: the driver opens the pty's other end as a real serial port.

It answers as the chip does over HSU (NXP UM0701-02): it sleeps until a wake-up (``55 55 00 ...``),
ACKs every good command frame and then replies; it answers SAMConfiguration, GetFirmwareVersion
(PN532 v1.6), RFConfiguration, InRelease and InListPassiveTarget (106 kbps type A; 4-, 7- and 10-byte
UIDs), NACKs nothing (a bad frame is ignored, as the chip does), resends its last reply on a NACK,
and sends the error frame for a command it does not know or a poll before SAMConfiguration. As the
chip does by default (RFConfiguration MxRtyPassiveActivation = 0xFF), a poll with no tag in the field
waits, ACKed, until a tag comes or the host aborts it (an ACK or another command); after MaxRetries is
set to a finite count, a poll with no tag is answered at once with no target.

The test or the person at the keyboard can place and remove a tag, inject noise, corrupt the next
replies, mute the chip (powered off behind a live port), and unplug and replug it; the port keeps a
stable path (a symlink re-pointed at each new pty). Commands are the methods below, or lines of text
(`Emulator.command`): from a test, from standard input, or from another process through a control
socket (see `python -m hardware.pn532 --help`).
"""

from __future__ import annotations

import random
import threading
from collections import Counter
from pathlib import Path

from firmware_protocol.pty_plug import PtyPlug
from hardware.pn532 import frames, targets
from hardware.pn532.targets import Target

FIRMWARE = bytes([0x32, 0x01, 0x06, 0x07])  # IC PN532, version 1.6, supports ISO 14443A/B and 18092


class Emulator:
    def __init__(self, link: str | Path, *, seed: int = 0) -> None:
        self.link = Path(link)
        self._rng = random.Random(seed)
        self._lock = threading.Condition()
        self.tag: Target | None = None
        self.muted = False
        self.commands: Counter[int] = Counter()  # command code -> frames answered
        self.polls = 0  # InListPassiveTarget replies sent
        self._corrupt = 0
        self._configured, self._retries, self._held, self._last = False, 0xFF, False, b""
        self._pty = PtyPlug(str(self.link))
        self._closing = threading.Event()
        self._thread: threading.Thread | None = None

    # -- the tag and the line -------------------------------------------------------------------------

    def place(self, uid_hex: str, target: Target | None = None) -> None:
        """Put a tag on the reader (replacing any other): it answers every poll until removed."""
        with self._lock:
            self.tag = target or targets.typical(uid_hex)
            if self._held:  # a poll has been waiting for a tag: it is answered now
                self._held = False
                self._last = frames.encode(frames.CHIP_TO_HOST, targets.answer(self.tag))
                self._pty.write(self._mangle(self._last))
                self.polls += 1
                self._lock.notify_all()

    def remove(self) -> None:
        with self._lock:
            self.tag = None

    def inject(self, noise: bytes) -> None:
        """Write raw bytes to the host, between replies."""
        self._pty.write(noise)

    def corrupt(self, replies: int) -> None:
        """Flip one bit in each of the next `replies` replies (never in an ACK)."""
        with self._lock:
            self._corrupt += replies

    def mute(self, on: bool = True) -> None:
        """A chip without power behind a live port: bytes go in, nothing comes back."""
        with self._lock:
            self.muted = on

    def wait_polls(self, more: int, timeout: float = 10.0) -> bool:
        """Block until the driver has been answered `more` further polls (False on timeout)."""
        with self._lock:
            target = self.polls + more
            return self._lock.wait_for(lambda: self.polls >= target, timeout)

    # -- plugging -------------------------------------------------------------------------------------

    def plug(self) -> Emulator:
        """A fresh pty at the link (the chip asleep, as after power-up); starts the chip's thread."""
        with self._lock:
            if not self._pty.plugged:
                self._pty.plug()
            if self._thread is None:
                self._thread = threading.Thread(target=self._serve, name="pn532-emulator", daemon=True)
                self._thread.start()
        return self

    def unplug(self) -> None:
        """Pull the cable: the link disappears and the driver's reads fail."""
        self._pty.unplug()

    def replug(self) -> None:
        self.unplug()
        self.plug()

    @property
    def plugged(self) -> bool:
        return self._pty.plugged

    def close(self) -> None:
        self._closing.set()
        self.unplug()
        if self._thread is not None:
            self._thread.join()

    def __enter__(self) -> Emulator:
        return self.plug()

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- the chip -------------------------------------------------------------------------------------

    def _serve(self) -> None:
        session, decoder, awake = -1, frames.Decoder(), False
        while not self._closing.is_set():
            data = self._pty.read(0.05)
            if session != self._pty.plugs:  # replugged: a chip that has just been powered up
                session, decoder, awake = self._pty.plugs, frames.Decoder(), False
                with self._lock:
                    self._configured, self._retries, self._held, self._last = False, 0xFF, False, b""
            if not data:
                if data is None:
                    self._closing.wait(0.01)
                continue
            if not awake:  # frames before the wake-up are lost on a sleeping chip
                at = data.find(b"\x55\x55")
                decoder.feed(data if at < 0 else data[:at])
                if at < 0:
                    continue
                awake, data = True, data[at:]
            for msg in decoder.feed(data):
                self._host_says(msg)

    def _host_says(self, msg: frames.Message) -> None:
        with self._lock:
            if isinstance(msg, frames.Nack):
                self._pty.write(self._mangle(self._last))
                return
            self._held = False  # an ACK from the host, or a new command, aborts a waiting poll
            if not isinstance(msg, frames.Frame) or msg.tfi != frames.HOST_TO_CHIP or not msg.data or self.muted:
                return
            out = self._answer(msg.data)
            self.commands[msg.data[0]] += 1
            if out is None:  # a poll that waits for a tag (MxRtyPassiveActivation 0xFF): ACK only
                self._held = True
                self._pty.write(frames.ACK)
                return
            self._last = out
            self._pty.write(frames.ACK + self._mangle(out))
            if msg.data[0] == frames.IN_LIST_PASSIVE_TARGET:
                self.polls += 1
                self._lock.notify_all()

    def _answer(self, data: bytes) -> bytes | None:
        """The reply to a command (under the lock); None for a poll that waits for a tag."""
        code, params = data[0], data[1:]
        if code == frames.SAM_CONFIGURATION and params[:1] == b"\x01":
            self._configured = True
            return frames.reply(code)
        if code == frames.GET_FIRMWARE_VERSION:
            return frames.reply(code, FIRMWARE)
        if code == frames.RF_CONFIGURATION:
            if params[:1] == b"\x05" and len(params) == 4:  # MaxRetries: ATR, PSL, passive activation
                self._retries = params[3]
            return frames.reply(code)
        if code == frames.IN_RELEASE:
            return frames.reply(code, b"\x00")
        if code == frames.IN_LIST_PASSIVE_TARGET and self._configured and params[:2] == b"\x01\x00":
            if self.tag is None and self._retries == 0xFF:
                return None
            return frames.encode(frames.CHIP_TO_HOST, targets.answer(self.tag))
        return frames.ERROR_FRAME

    def _mangle(self, frame: bytes) -> bytes:
        """`frame`, or (while corrupting) `frame` with one bit flipped; called under the lock."""
        if self._corrupt <= 0 or len(frame) < 4:
            return frame
        self._corrupt -= 1
        at = self._rng.randrange(3, len(frame))
        return frame[:at] + bytes([frame[at] ^ (1 << self._rng.randrange(8))]) + frame[at + 1 :]

    # -- text commands --------------------------------------------------------------------------------

    def command(self, line: str) -> str:
        """Run one text command and say what happened (see HELP)."""
        words = line.split()
        if not words:
            return ""
        verb, args = words[0].lower(), words[1:]
        try:
            if verb == "place" and len(args) == 1:
                self.place(args[0])
                return f"placed {self.tag.uid_hex if self.tag else ''} ({self.tag.tag_type if self.tag else ''})"
            if verb == "remove" and not args:
                self.remove()
                return "removed"
            if verb == "noise" and len(args) == 1:
                self.inject(bytes(self._rng.randrange(256) for _ in range(int(args[0]))))
                return f"sent {int(args[0])} random bytes"
            if verb == "corrupt" and len(args) == 1:
                self.corrupt(int(args[0]))
                return f"corrupting the next {int(args[0])} replies"
            if verb in ("mute", "unmute") and not args:
                self.mute(verb == "mute")
                return verb + "d"
            if verb in ("unplug", "replug", "plug") and not args:
                {"unplug": self.unplug, "replug": self.replug, "plug": self.plug}[verb]()
                return f"{verb}ged {self.link}"
            if verb == "status" and not args:
                tag = self.tag.uid_hex if self.tag else "none"
                return f"link {self.link} plugged={self.plugged} muted={self.muted} tag={tag} polls={self.polls}"
        except ValueError as err:
            return f"error: {err}"
        return "error: unknown command; " + HELP


HELP = ("commands: place UID_HEX | remove | noise N | corrupt N | mute | unmute | unplug | replug | status")
