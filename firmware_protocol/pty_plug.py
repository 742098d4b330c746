"""A pseudo-terminal that stands in for a USB serial device, behind a stable symlink (like a udev name).

`PtyPlug(path).plug()` opens a pty in raw mode and points `path` at its slave end, so a driver opens
`path` as a real serial port (pyserial, termios and all). The device side reads and writes the master.
`unplug()` closes the master and removes the symlink, as pulling the USB cable does: the driver's
blocked read fails (``SerialException``/EIO). `plug()` again makes a NEW pty at the same path, as a
replugged board gets a new /dev/ttyACMn that udev links to the same name.
"""

from __future__ import annotations

import contextlib
import os
import select
import threading
import tty


class PtyPlug:
    def __init__(self, path: str) -> None:
        self.path = path
        self.master: int | None = None
        self._slave: int | None = None  # held open so the master never reads EIO while the host is away
        self._lock = threading.Lock()
        self.plugs = 0

    @property
    def plugged(self) -> bool:
        return self.master is not None

    def plug(self) -> str:
        """Open a fresh pty and (re)point the symlink at it; returns the slave's real path."""
        with self._lock:
            if self.master is not None:
                raise RuntimeError("already plugged in")
            master, slave = os.openpty()
            tty.setraw(slave)
            tty.setraw(master)
            real = os.ttyname(slave)
            tmp = f"{self.path}.new"
            with contextlib.suppress(FileNotFoundError):
                os.unlink(tmp)
            os.symlink(real, tmp)
            os.replace(tmp, self.path)
            self.master, self._slave = master, slave
            self.plugs += 1
            return real

    def unplug(self) -> None:
        """Close the pty (the host sees the device vanish) and remove the symlink. Idempotent."""
        with self._lock:
            master, slave = self.master, self._slave
            self.master = self._slave = None
            with contextlib.suppress(FileNotFoundError):
                os.unlink(self.path)
        for fd in (master, slave):
            if fd is not None:
                with contextlib.suppress(OSError):
                    os.close(fd)

    def write(self, data: bytes) -> bool:
        """Write bytes towards the host; False when unplugged."""
        with self._lock:
            master = self.master
            if master is None:
                return False
            view = memoryview(data)
            while view:
                try:
                    n = os.write(master, view)
                except OSError:
                    return False
                view = view[n:]
            return True

    def read(self, timeout: float) -> bytes | None:
        """Bytes the host wrote, waiting at most `timeout` s: b"" if none came, None when unplugged."""
        master = self.master
        if master is None:
            return None
        try:
            ready, _, _ = select.select([master], [], [], timeout)
            if not ready:
                return b""
            return os.read(master, 4096)
        except (OSError, ValueError):
            return None if self.master is None else b""
