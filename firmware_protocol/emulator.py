"""A reader board you can tap from a test or a terminal: the firmware's protocol engine on a pty.

The emulator runs `firmware.board.Board` (the same code the RP2040 firmware runs) behind a `PtyPlug`,
so the driver opens a stable path (like the udev name /dev/companion-board0) as a real serial port.
Tags lie on simulated readers independently of the cable: `unplug` cuts the pty (the board loses
power), `plug` boots a fresh board that finds the tags still lying there.

Python API (thread-safe)::

    emu = BoardEmulator("/tmp/companion-board0", readers=4); emu.plug()
    emu.place(0, "04A1B2C3D4E5F6", "ntag"); emu.remove(0); emu.tap(1, "DEADBEEF")
    emu.press(2); emu.release(2)
    emu.noise(b"...")        # garbage on the wire, ended by a 00 (one dropped frame at the host)
    emu.drop_next(3)         # the next 3 bytes the board sends are lost (the board resends the event)
    emu.hang(); emu.hang(False)  # the firmware freezes (no heartbeats) and recovers
    emu.fault(1); emu.fault(1, ok=True)  # reader 1's module stops answering, and is back
    emu.unplug(); emu.plug() # a new pty at the same path
    emu.close()

Command line: ``python -m firmware_protocol.emulator --path /tmp/companion-board0 [--readers 4]`` reads
commands (``place 0 DEADBEEF [type]``, ``remove 0``, ``tap 0 DEADBEEF``, ``press 1``, ``release 1``,
``noise``, ``drop 3``, ``hang``, ``resume``, ``fault 1``, ``fixed 1``, ``unplug``, ``plug``, ``status``,
``quit``) from stdin, or from ``--run "tap 0
DEADBEEF; unplug"``. The same commands work from the `emulator_main` function for a CLI wrapper.
"""

from __future__ import annotations

import argparse
import os
import random
import shlex
import sys
import threading
import time

from firmware_protocol import codec
from firmware_protocol.firmware.board import Board
from firmware_protocol.pty_plug import PtyPlug


class BoardEmulator:
    def __init__(
        self,
        path: str,
        readers: int = 4,
        board_id: bytes = b"\xe6\x60\x58\x38\x83\x43\x7a\x2f",
        heartbeat_ms: int = 500,
        resend_ms: int = 100,
        seed: int = 0,
    ) -> None:
        self.plug_ = PtyPlug(path)
        self.readers = readers
        self.board_id = board_id
        self.heartbeat_ms = heartbeat_ms
        self.resend_ms = resend_ms
        self.table: list[tuple[bytes, int] | None] = [None] * readers  # what physically lies on each reader
        self.board: Board | None = None
        self.boots = 0
        self.commands: list[tuple[str, tuple[int, ...]]] = []  # ("led"|"buzzer", args) the board obeyed
        self._rng = random.Random(seed)
        self._drop = 0
        self._hung = False
        self._lock = threading.RLock()
        self._thread: threading.Thread | None = None
        self._closing = threading.Event()
        self._t0 = time.monotonic()

    @property
    def path(self) -> str:
        return self.plug_.path

    def _now_ms(self) -> int:
        return int((time.monotonic() - self._t0) * 1000)

    def _write(self, data: bytes) -> None:
        if self._hung:
            return
        if self._drop:
            cut = min(self._drop, len(data))
            self._drop -= cut
            data = data[cut:]
        if data:
            self.plug_.write(data)

    # -- cable -------------------------------------------------------------------------------------------

    def plug(self) -> None:
        """Plug the board in: a new pty at `path`, a freshly booted board that scans the table at once."""
        with self._lock:
            self.plug_.plug()
            board = Board(
                self.readers, self.board_id, self._write, heartbeat_ms=self.heartbeat_ms, resend_ms=self.resend_ms
            )
            board.on_led = lambda *args: self.commands.append(("led", args))
            board.on_buzzer = lambda *args: self.commands.append(("buzzer", args))
            self.board = board
            self.boots += 1
            board.boot(self._now_ms())
            for reader, tag in enumerate(self.table):
                if tag is not None:
                    board.seen(reader, tag[0], tag[1])
        if self._thread is None or not self._thread.is_alive():
            self._closing.clear()
            self._thread = threading.Thread(target=self._run, name="board-emulator", daemon=True)
            self._thread.start()

    def unplug(self) -> None:
        """Pull the cable: the pty closes and the path disappears; the tags stay on the table."""
        with self._lock:
            self.board = None
            self.plug_.unplug()

    def close(self) -> None:
        self._closing.set()
        self.unplug()
        if self._thread is not None:
            self._thread.join(2.0)

    # -- the table ---------------------------------------------------------------------------------------

    def place(self, reader: int, uid: str, tag_type: str = "mifare_classic") -> None:
        """Put a tag (UID in hex) on a reader; the board reports it on its next scan, which is now."""
        tag = (bytes.fromhex(uid), codec.TAG_TYPES.index(tag_type))
        with self._lock:
            self.table[reader] = tag
            if self.board is not None:
                self.board.now = self._now_ms()
                self.board.seen(reader, tag[0], tag[1])

    def remove(self, reader: int) -> None:
        """Lift the tag off a reader; the board reports it after its miss limit of empty scans."""
        with self._lock:
            self.table[reader] = None
            if self.board is not None:
                self.board.now = self._now_ms()
                for _ in range(self.board.miss_limit):
                    self.board.missed(reader)

    def tap(self, reader: int, uid: str, tag_type: str = "mifare_classic") -> None:
        self.place(reader, uid, tag_type)
        self.remove(reader)

    def press(self, button: int) -> None:
        with self._lock:
            if self.board is not None:
                self.board.now = self._now_ms()
                self.board.button(button, True)

    def release(self, button: int) -> None:
        with self._lock:
            if self.board is not None:
                self.board.now = self._now_ms()
                self.board.button(button, False)

    # -- faults ------------------------------------------------------------------------------------------

    def noise(self, data: bytes | None = None) -> bytes:
        """Write garbage then a 00 (so the host sees exactly one bad frame); returns what was sent."""
        if data is None:
            data = bytes(self._rng.randrange(1, 256) for _ in range(self._rng.randrange(1, 24)))
        with self._lock:
            self.plug_.write(data + b"\x00")
        return data

    def hang(self, hung: bool = True) -> None:
        """Freeze the firmware (it stops sending, heartbeats included) with the cable still in."""
        with self._lock:
            self._hung = hung

    def fault(self, reader: int, ok: bool = False) -> None:
        """A reader module stops answering (or comes back): the board reports READER_STATE."""
        with self._lock:
            if self.board is not None:
                self.board.now = self._now_ms()
                self.board.reader_state(reader, ok)

    def drop_next(self, count: int) -> None:
        """Lose the next `count` bytes the board sends (a glitch on the line)."""
        with self._lock:
            self._drop += count

    # -- the board's clock and its host bytes -------------------------------------------------------------

    def _run(self) -> None:
        while not self._closing.is_set():
            data = self.plug_.read(0.01)
            with self._lock:
                board = self.board
                if board is not None and not self._hung:
                    if data:
                        board.received(data)
                    board.poll(self._now_ms())
            if data is None:
                self._closing.wait(0.01)

    def status(self) -> str:
        with self._lock:
            tags = ", ".join(f"{i}:{t[0].hex().upper()}" for i, t in enumerate(self.table) if t is not None)
            board = self.board
            state = "unplugged" if board is None else f"plugged (boot {self.boots}, {len(board.pending)} unacked)"
            return f"{self.path}: {state}; tags {tags or 'none'}"


def run_command(emu: BoardEmulator, line: str) -> str | None:
    """One command line; returns a reply to print, or None to quit."""
    words = shlex.split(line)
    if not words:
        return ""
    cmd, args = words[0], words[1:]
    if cmd in ("quit", "exit"):
        return None
    actions = {
        "place": lambda: emu.place(int(args[0]), args[1], *args[2:3]),
        "remove": lambda: emu.remove(int(args[0])),
        "tap": lambda: emu.tap(int(args[0]), args[1], *args[2:3]),
        "press": lambda: emu.press(int(args[0])),
        "release": lambda: emu.release(int(args[0])),
        "noise": lambda: emu.noise(bytes.fromhex(args[0]) if args else None),
        "drop": lambda: emu.drop_next(int(args[0])),
        "hang": emu.hang,
        "resume": lambda: emu.hang(False),
        "fault": lambda: emu.fault(int(args[0])),
        "fixed": lambda: emu.fault(int(args[0]), True),
        "unplug": emu.unplug,
        "plug": emu.plug,
        "status": lambda: None,
    }
    action = actions.get(cmd)
    if action is None:
        return f"unknown command {cmd!r}; one of: {', '.join(sorted(actions))}, quit"
    try:
        action()
    except (IndexError, ValueError) as exc:
        return f"{cmd}: bad arguments ({exc})"
    return emu.status()


def emulator_main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m firmware_protocol.emulator", description=__doc__.split("\n\n")[0])
    parser.add_argument("--path", default="/tmp/companion-board0", help="the stable path the driver opens")
    parser.add_argument("--readers", type=int, default=4)
    parser.add_argument("--run", default=None, help='commands separated by ";" (then wait for stdin unless --exit)')
    parser.add_argument("--exit", action="store_true", help="quit after --run")
    args = parser.parse_args(argv)
    emu = BoardEmulator(args.path, readers=args.readers)
    emu.plug()
    print(emu.status(), flush=True)
    try:
        for line in (args.run or "").split(";"):
            reply = run_command(emu, line)
            if reply:
                print(reply, flush=True)
        if not args.exit:
            interactive = os.isatty(sys.stdin.fileno()) if hasattr(sys.stdin, "fileno") else False
            while True:
                if interactive:
                    print("board> ", end="", flush=True)
                line = sys.stdin.readline()
                if not line:
                    break
                reply = run_command(emu, line)
                if reply is None:
                    break
                if reply:
                    print(reply, flush=True)
    finally:
        emu.close()
    return 0


if __name__ == "__main__":
    sys.exit(emulator_main())
