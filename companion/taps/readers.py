"""Opening the configured readers: one driver per ``[readers]`` device, and an emulator in its place
when the reader is simulated (``simulate = "always"``, or ``"auto"`` and its port does not exist).

A simulated reader is a real pty with the device emulator at the other end, so the driver, the
router and everything after run exactly as with a real reader. Each emulator listens for text commands
on a control socket next to its port (``<state dir>/readers/<name>.sock``), which is how a person taps
the simulated kiosk: ``python -m hardware.pn532 --send SOCK place 04A1B2C3D4E5F6`` for a PN532, and
``... --send SOCK place 0 04A1B2C3D4E5F6`` for a reader board (the same commands as its emulator).
"""

from __future__ import annotations

import contextlib
import logging
import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from companion.config import ReaderConfig, ReadersConfig
from companion.statedir import make_private_dir
from hardware.events import Emit, ReaderDriver
from hardware.pn532.control import ControlSocket
from hardware.pn532.driver import Pn532Driver
from hardware.pn532.emulator import Emulator

log = logging.getLogger(__name__)
BOARD_READERS = 4  # slots on a simulated reader board
MAX_SOCKET_PATH = 100  # sun_path holds 108 bytes on Linux


class _Closable(Protocol):
    def close(self) -> None: ...


@dataclass
class OpenReaders:
    drivers: list[ReaderDriver] = field(default_factory=list)
    emulators: list[_Closable] = field(default_factory=list)
    controls: dict[str, ControlSocket] = field(default_factory=dict)  # simulated reader -> its control socket
    temp_dirs: list[Path] = field(default_factory=list)

    def stop(self) -> None:
        for driver in self.drivers:
            driver.stop()
        for control in self.controls.values():
            control.close()
        for emulator in self.emulators:
            with contextlib.suppress(OSError):
                emulator.close()
        for folder in self.temp_dirs:
            with contextlib.suppress(OSError):
                folder.rmdir()


def simulated(device: ReaderConfig, mode: str) -> bool:
    """Whether to put an emulator in place of this reader: always, never, or (auto) when its port is a
    device path that does not exist, as on a laptop without the reader."""
    if mode != "auto":
        return mode == "always"
    return "://" not in device.port and not os.path.exists(device.port)


def make_driver(device: ReaderConfig, port: str, repeat_window: float | None) -> ReaderDriver:
    """The driver for `device`; `repeat_window` None keeps the driver's own default."""
    if device.driver == "pn532":
        pn532 = Pn532Driver(port, name=device.name)
        if repeat_window is not None:
            pn532.repeat_window = repeat_window
        return pn532
    from hardware.board import BoardDriver

    board = BoardDriver(device.name, port)
    if repeat_window is not None:
        board.repeat_window = repeat_window
    return board


def _emulate(device: ReaderConfig, sim_dir: Path, out: OpenReaders) -> str:
    """Start an emulator for `device`; returns the port the driver should open."""
    make_private_dir(sim_dir)  # in the state directory: 0700, like it (companion/statedir.py)
    link, sock = sim_dir / device.name, sim_dir / f"{device.name}.sock"
    if len(os.fsencode(sock)) > MAX_SOCKET_PATH:  # a Unix socket's path has a small limit
        out.temp_dirs.append(Path(tempfile.mkdtemp(prefix="companion-readers-")))
        sock = out.temp_dirs[-1] / f"{device.name}.sock"
    if device.driver == "pn532":
        emulator = Emulator(link).plug()
        out.emulators.append(emulator)
        out.controls[device.name] = ControlSocket(emulator.command, sock)
    else:
        from firmware_protocol.emulator import BoardEmulator, run_command

        board = BoardEmulator(str(link), readers=BOARD_READERS)
        board.plug()
        out.emulators.append(board)
        out.controls[device.name] = ControlSocket(lambda line: run_command(board, line) or "", sock)
    log.info("reader %s is simulated: %s (commands on %s)", device.name, link, sock)
    return str(link)


def open_readers(cfg: ReadersConfig, sim_dir: Path, emit: Emit, only: str | None = None) -> OpenReaders:
    """Start every configured reader (or only the one named `only`); events go to `emit`."""
    out = OpenReaders()
    try:
        for device in cfg.devices:
            if only is not None and device.name != only:
                continue
            port = _emulate(device, sim_dir, out) if simulated(device, cfg.simulate) else device.port
            window = None if cfg.repeat_window_ms is None else cfg.repeat_window_ms / 1000
            driver = make_driver(device, port, window)
            driver.start(emit)
            out.drivers.append(driver)
    except BaseException:
        out.stop()
        raise
    return out
