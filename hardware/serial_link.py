"""One serial port, one reader thread, reconnection: the I/O half shared by the serial reader drivers.

Framing is split from I/O (pyserial's ``threaded.Packetizer`` idea): a `SerialLink` owns the port and
the thread; a *framer* (any object with the `Framer` methods) turns bytes into device events. The
framer's methods all run on the link's one reader thread, so a framer needs no locks of its own.

API::

    link = SerialLink(url, framer, emit, name="board0")   # url: anything serial.serial_for_url opens:
    link.start()                                         #   /dev/ttyACM0, /dev/companion-board0 (a udev
    link.write(b"...")   # -> bool, from any thread       #   symlink), a pty path, loop://, socket://h:p
    link.report("ok", "hello v1")  # a ReaderStatus, with link.frames_dropped
    link.stop()          # joins the thread, closes the port; idempotent

Framer callbacks (names as in ``serial.threaded.Protocol``, plus a clock tick)::

    connection_made(link)   port (re)opened: reset the parser, send a hello / wake-up with link.write
    data_received(data)     bytes as they arrive, in any chunking; a frame may span many calls
    connection_lost(why)    port gone: drop the partial frame and any "tag present" state that the
                            device will re-announce (the link has already reported "missing")
    tick(now)               at least every `tick` seconds while open (time.monotonic()): timeouts

Connection states reported through `emit` as `ReaderStatus(name, state, detail, frames_dropped)`:

- the port cannot be opened, or it fails (unplug: ``SerialException`` from a blocked read, ``OSError``
  EIO, see PLATFORM-NOTES): the link closes it and reports ``"missing"`` at once, then
  ``"searching"`` after the first failed reopen, and keeps retrying with a backoff from
  `backoff_min` doubling to `backoff_max` (default 0.05 s to 0.5 s, so a replug resumes well under 2 s);
- ``"ok"`` is the framer's to report (with `report`) once the device has proved itself (a hello, a
  firmware version); the link never claims a device works just because a port opened.

The reader thread only frames bytes and calls `emit` (cheap and thread-safe, e.g. ``Queue.put``); an
exception raised by a framer is logged and the bytes are counted as dropped, never fatal to the thread.
"""

from __future__ import annotations

import contextlib
import logging
import threading
import time
from collections.abc import Callable
from typing import Any, Protocol

import serial

from hardware.events import Emit, ReaderState, ReaderStatus

log = logging.getLogger(__name__)

Opener = Callable[[str], Any]  # url -> an open pyserial-like port (read, write, in_waiting, close)


class Framer(Protocol):
    def connection_made(self, link: SerialLink) -> None: ...

    def data_received(self, data: bytes) -> None: ...

    def connection_lost(self, why: str) -> None: ...

    def tick(self, now: float) -> None: ...


def open_serial(url: str, baudrate: int = 115200, timeout: float = 0.05) -> Any:
    """The default opener: `serial.serial_for_url`, raw bytes, a short read timeout (the tick)."""
    return serial.serial_for_url(url, baudrate=baudrate, timeout=timeout, write_timeout=1.0)


class SerialLink:
    """A port that is kept open: one reader thread feeding a framer, a thread-safe write path."""

    def __init__(
        self,
        url: str,
        framer: Framer,
        emit: Emit,
        *,
        name: str,
        opener: Opener | None = None,
        tick: float = 0.05,
        backoff_min: float = 0.05,
        backoff_max: float = 0.5,
    ) -> None:
        self.url = url
        self.name = name
        self.framer = framer
        self.frames_dropped = 0  # the framer adds to it; every status report carries it
        self.sessions = 0  # how many times the port has been opened
        self._emit = emit
        self._opener: Opener = opener or (lambda u: open_serial(u, timeout=tick))
        self._backoff_min = backoff_min
        self._backoff_max = backoff_max
        self._port: Any = None
        self._write_lock = threading.Lock()
        self._stopping = threading.Event()
        self._thread: threading.Thread | None = None
        self._last_state: ReaderState | None = None

    # -- the public side ------------------------------------------------------------------------------

    def start(self) -> None:
        """Start the reader thread (returns at once; the port opens on the thread)."""
        if self._thread is not None:
            raise RuntimeError(f"{self.name}: link already started")
        self._thread = threading.Thread(target=self._run, name=f"serial-{self.name}", daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 2.0) -> None:
        """Stop the thread, wait for it, close the port. Idempotent; safe before `start`."""
        self._stopping.set()
        port = self._port
        if port is not None and hasattr(port, "cancel_read"):
            with contextlib.suppress(OSError, serial.SerialException):
                port.cancel_read()  # wakes a blocked read at once where the port supports it
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout)
        self._close()

    @property
    def connected(self) -> bool:
        return self._port is not None

    def write(self, data: bytes) -> bool:
        """Send bytes to the device from any thread. False if the port is not open or the write failed
        (the reader thread notices a lost port on its own and reconnects)."""
        with self._write_lock:
            port = self._port
            if port is None:
                return False
            try:
                port.write(data)
                return True
            except (OSError, serial.SerialException) as exc:
                log.debug("%s: write failed: %s", self.name, exc)
                return False

    def report(self, state: ReaderState, detail: str = "") -> None:
        """Emit a `ReaderStatus` for this link (with the dropped-frame count)."""
        self._last_state = state
        self._emit(ReaderStatus(self.name, state, detail, self.frames_dropped))

    # -- the reader thread ----------------------------------------------------------------------------

    def _run(self) -> None:
        backoff = self._backoff_min
        while not self._stopping.is_set():
            if self._port is None:
                if self._open():
                    backoff = self._backoff_min
                    continue
                if self._last_state not in ("missing", "searching"):
                    self.report("missing", f"cannot open {self.url}")
                elif self._last_state == "missing":
                    self.report("searching", f"retrying {self.url}")
                self._stopping.wait(backoff)
                backoff = min(backoff * 2, self._backoff_max)
                continue
            self._pump()
        self._close()

    def _open(self) -> bool:
        try:
            port = self._opener(self.url)
        except (OSError, serial.SerialException, ValueError) as exc:
            log.debug("%s: open %s failed: %s", self.name, self.url, exc)
            return False
        with self._write_lock:
            self._port = port
        self.sessions += 1
        log.info("%s: opened %s (session %d)", self.name, self.url, self.sessions)
        self._call(self.framer.connection_made, self)
        return True

    def _pump(self) -> None:
        """One read (at most `tick` long) and one tick; a failing port is closed and reported."""
        port = self._port
        try:
            data = port.read(port.in_waiting or 1)
        except (OSError, serial.SerialException, TypeError, AttributeError) as exc:
            # TypeError/AttributeError: pyserial's posix read on a port closed under it by stop()
            if not self._stopping.is_set():
                self._lost(f"{type(exc).__name__}: {exc}")
            return
        if data:
            self._call(self.framer.data_received, bytes(data))
        self._call(self.framer.tick, time.monotonic())

    def _lost(self, why: str) -> None:
        log.warning("%s: lost %s: %s", self.name, self.url, why)
        self._close()
        self.report("missing", why)
        self._call(self.framer.connection_lost, why)

    def _close(self) -> None:
        with self._write_lock:
            port, self._port = self._port, None
        if port is not None:
            with contextlib.suppress(OSError, serial.SerialException):
                port.close()

    def _call(self, method: Callable[..., None], *args: Any) -> None:
        try:
            method(*args)
        except Exception:  # a framer bug must not kill the reader thread
            log.exception("%s: framer failed in %s", self.name, getattr(method, "__name__", method))
            self.frames_dropped += 1
