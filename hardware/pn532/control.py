"""Driving a PN532 emulator from the command line, or from another process through a control socket.

Run an emulator and type commands (``place 04A1B2C3D4E5F6``, ``remove``, ``noise 20``, ``corrupt 3``,
``mute``, ``unmute``, ``unplug``, ``replug``, ``status``)::

    python -m hardware.pn532 --link /tmp/pn532 [--control /tmp/pn532.sock]

then point a driver (or `companion run` with a ``[readers]`` device ``port = "/tmp/pn532"``) at the
link. Send one command to a running emulator (e.g. the one `companion run` starts when no reader is
attached; it says where its socket is)::

    python -m hardware.pn532 --send /tmp/pn532.sock place 04A1B2C3D4E5F6
"""

from __future__ import annotations

import argparse
import contextlib
import os
import socket
import sys
import threading
from collections.abc import Callable
from pathlib import Path

from hardware.pn532.emulator import HELP, Emulator


class ControlSocket:
    """A Unix socket that runs one text command per connection (`run(line) -> answer`) and answers one
    line: an emulator's `command`, or any other emulator's command runner (the reader board's)."""

    def __init__(self, run: Callable[[str], str], path: str | Path) -> None:
        self.run, self.path = run, Path(path)
        with contextlib.suppress(FileNotFoundError):
            self.path.unlink()
        self._server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self._server.bind(str(self.path))
        os.chmod(self.path, 0o600)  # bind() makes it 0777 minus the umask: only this user may tap
        self._server.listen(4)
        self._thread = threading.Thread(target=self._serve, name="pn532-control", daemon=True)
        self._thread.start()

    def _serve(self) -> None:
        while True:
            try:
                conn, _ = self._server.accept()
            except OSError:
                return  # closed
            with conn, conn.makefile("rw", encoding="utf-8") as stream:
                line = stream.readline()
                stream.write(self.run(line) + "\n")

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self._server.shutdown(socket.SHUT_RDWR)
        self._server.close()
        self._thread.join()
        with contextlib.suppress(FileNotFoundError):
            self.path.unlink()


def send(path: str | Path, line: str, timeout: float = 5.0) -> str:
    """Run one command on the emulator listening at `path`; returns its answer."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as conn:
        conn.settimeout(timeout)
        conn.connect(str(path))
        with conn.makefile("rw", encoding="utf-8") as stream:
            stream.write(line.strip() + "\n")
            stream.flush()
            return stream.readline().strip()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m hardware.pn532", description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--link", help="the stable path of the emulated serial port (a symlink to the pty)")
    parser.add_argument("--control", help="also accept commands on this Unix socket")
    parser.add_argument("--send", metavar="SOCKET", help="send the command given after the options and exit")
    parser.add_argument("command", nargs="*", help=HELP)
    args = parser.parse_args(argv)
    if args.send:
        print(send(args.send, " ".join(args.command)))
        return 0
    if not args.link:
        parser.error("--link is required to run an emulator")
    with Emulator(args.link) as emulator:
        control = ControlSocket(emulator.command, args.control) if args.control else None
        print(f"PN532 emulator on {args.link} -> {os.path.realpath(args.link)}; {HELP}", flush=True)
        try:
            for line in sys.stdin:
                answer = emulator.command(line)
                if answer:
                    print(answer, flush=True)
        except KeyboardInterrupt:
            pass
        finally:
            if control is not None:
                control.close()
    return 0
