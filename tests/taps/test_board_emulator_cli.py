"""The emulator's command line taps a running driver: `python -m firmware_protocol.emulator`, driven on
its stdin as a person at a terminal would, with the driver on the stable path it announces."""

from __future__ import annotations

import os
import queue
import subprocess
import sys
from pathlib import Path

from hardware.board import BoardDriver
from hardware.events import DeviceEvent, ReaderStatus, TagPlaced, TagRemoved

ROOT = Path(__file__).resolve().parents[2]
WAIT = 10.0


def test_typed_commands_reach_the_driver(tmp_path: Path) -> None:
    path = tmp_path / "companion-board0"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen(
        [sys.executable, "-m", "firmware_protocol.emulator", "--path", str(path), "--readers", "2"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        env=env,
        cwd=ROOT,
    )
    assert proc.stdin is not None and proc.stdout is not None
    events: queue.Queue[DeviceEvent] = queue.Queue()
    driver = BoardDriver("board0", str(path), repeat_window=0.0)
    try:
        assert "plugged" in proc.stdout.readline()  # the first status line: the pty exists
        driver.start(events.put)

        def wait(accept: type, state: str | None = None) -> DeviceEvent:
            while True:
                event = events.get(timeout=WAIT)
                if isinstance(event, accept) and (state is None or getattr(event, "state", None) == state):
                    return event

        wait(ReaderStatus, "ok")
        proc.stdin.write("tap 1 04a1b2c3d4e5f6 ntag\n")
        proc.stdin.flush()
        assert wait(TagPlaced) == TagPlaced("board0", 1, "04A1B2C3D4E5F6", "ntag")
        assert wait(TagRemoved) == TagRemoved("board0", 1, "04A1B2C3D4E5F6")
        proc.stdin.write("fly 1\n")
        proc.stdin.flush()
        lines = iter(proc.stdout.readline, "")
        assert any("unknown command 'fly'" in line for line in lines)  # after the tap's status line
        proc.stdin.write("unplug\n")
        proc.stdin.flush()
        wait(ReaderStatus, "missing")
        proc.stdin.write("plug\nplace 0 DEADBEEF\n")
        proc.stdin.flush()
        assert wait(TagPlaced) == TagPlaced("board0", 0, "DEADBEEF", "mifare_classic")
        proc.stdin.write("quit\n")
        proc.stdin.flush()
        assert proc.wait(timeout=WAIT) == 0
    finally:
        driver.stop()
        if proc.poll() is None:
            proc.kill()
            proc.wait()
