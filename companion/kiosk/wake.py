"""A self-pipe that wakes the kiosk's loop from any thread, without polling.

The loop sleeps in `select` on the pipe with a timeout (the next second of a running timer, or the
idle input poll); a thread that queued something for the screen writes one byte, and the loop wakes
at once. `pygame.event.wait` is no use here: it polls SDL every millisecond.
"""

from __future__ import annotations

import contextlib
import os
import select
import threading

CLOSED = -1


class Waker:
    """Two file descriptors until `close` (the kiosk closes its own): a process that opens many kiosks,
    the test suite, must close them, or it runs past the 1024 descriptors `select` can watch."""

    def __init__(self) -> None:
        self._r, self._w = os.pipe()
        os.set_blocking(self._r, False)
        os.set_blocking(self._w, False)
        self._lock = threading.Lock()  # a wake racing `close` never writes to a reused descriptor

    def wake(self) -> None:
        """Thread-safe and cheap; a full pipe already means "wake up"; after `close`, nothing."""
        with self._lock, contextlib.suppress(BlockingIOError, OSError):
            if self._w != CLOSED:
                os.write(self._w, b"!")

    def wait(self, timeout: float) -> bool:
        """Sleep until woken or `timeout` seconds passed; True when woken. Drains the pipe."""
        ready, _, _ = select.select([self._r], [], [], max(0.0, timeout))
        if not ready:
            return False
        try:
            while os.read(self._r, 4096):
                pass
        except (BlockingIOError, OSError):
            pass
        return True

    def close(self) -> None:
        """Close the pipe (once; later calls and wakes do nothing)."""
        with self._lock:
            fds, self._r, self._w = (self._r, self._w), CLOSED, CLOSED
        for fd in fds:
            if fd != CLOSED:
                with contextlib.suppress(OSError):
                    os.close(fd)
