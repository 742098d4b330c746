"""`companion run` with a screen: the kiosk on the main thread (SDL's dummy driver), the Table's loop
on its own, inputs typed at the terminal still accepted and logged, and Ctrl-D ending both."""

from __future__ import annotations

import os
import subprocess
import sys
import termios
from pathlib import Path

from companion.core.eventlog import EventLog

GUARD_S = 60  # only a guard against a hang; no timing is asserted


def test_run_opens_the_kiosk_and_keeps_the_terminal(tmp_path: Path) -> None:
    db = tmp_path / "game.sqlite3"
    master, slave = os.openpty()
    attrs = termios.tcgetattr(slave)
    attrs[3] &= ~termios.ECHO  # a terminal that does not echo, so only the replies come back
    termios.tcsetattr(slave, termios.TCSANOW, attrs)
    env = {**os.environ, "SDL_AUDIODRIVER": "dummy", "XDG_CACHE_HOME": str(tmp_path / "cache"),
           "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    env.pop("DISPLAY", None)
    child = subprocess.Popen(
        [sys.executable, "-m", "companion", "run", "--db", str(db), "--players", "ana,ben"],
        env={**env, "COMPANION_DISPLAY__ENABLED": "true", "COMPANION_DISPLAY__DRIVER": "dummy"},
        stdin=slave, stdout=subprocess.PIPE, text=True)
    os.close(slave)
    try:
        assert child.stdout is not None
        lines = [child.stdout.readline() for _ in range(3)]
        assert "The screen is on: 800x480 (dummy)" in lines[2], lines
        os.write(master, b'{"by": "player:ana", "move": "dice.roll", "args": {"count": 1}}\n')
        told = [child.stdout.readline() for _ in range(2)]  # the announcement, then the reply
        assert "ana rolled" in told[0] and "#1" in told[1], told
        os.write(master, b"\x04")  # Ctrl-D: the end of the table's input
        child.wait(GUARD_S)
    finally:
        os.close(master)
        if child.poll() is None:
            child.kill()
    assert child.returncode == 0
    log = EventLog(db)
    latest = log.latest_game()
    assert latest is not None and [e.input.move for e in log.events(latest.id)] == ["dice.roll"]
    log.close()
