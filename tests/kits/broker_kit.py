"""Brokers as a killed companion leaves them, for the tests of the broker's life (issue 32).

`stray_broker` starts a real Mosquitto the way a companion killed by SIGKILL leaves its managed one:
from a private folder under the temporary directory, orphaned (its parent exited), on a port it holds.
With a `pidfile` it is recorded there as `ManagedMosquitto` records its own (pid, then config path).
`running_brokers` lists the Mosquitto processes whose config lies in such a folder (by folder prefix).
No sleeps: the broker's own log line says it runs.
"""

from __future__ import annotations

import os
import queue
import select
import shutil
import subprocess
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from companion.phones.mosquitto import DIR_PREFIX

WAIT_S = 10.0


@dataclass
class Stray:
    pid: int
    folder: Path
    port: int

    @property
    def conf(self) -> Path:
        return self.folder / "mosquitto.conf"

    def alive(self) -> bool:
        """Still running with its own config (not a reused pid)."""
        try:
            cmd = Path(f"/proc/{self.pid}/cmdline").read_bytes().split(b"\0")[:-1]
        except OSError:
            return False
        return cmd == [b"mosquitto", b"-c", str(self.conf).encode()]

    def stop(self) -> None:
        """The test's own clean-up: the broker and its folder."""
        if self.alive():
            fd = os.pidfd_open(self.pid)
            try:
                os.kill(self.pid, 15)
                select.select([fd], [], [], WAIT_S)
            finally:
                os.close(fd)
        shutil.rmtree(self.folder, ignore_errors=True)


def stray_broker(port: int, pidfile: Path | None = None, prefix: str = DIR_PREFIX) -> Stray:
    folder = Path(tempfile.mkdtemp(prefix=prefix))
    (folder / "mosquitto.conf").write_text(f"listener {port} 127.0.0.1\nallow_anonymous true\nlog_dest stderr\n")
    os.chmod(folder, 0o755)
    os.chmod(folder / "mosquitto.conf", 0o644)
    # `sh` starts the broker in the background, says its pid and exits: the broker is orphaned, like one
    # whose companion was killed. Its log comes through the pipe, so the test waits for it to run.
    left = subprocess.Popen(["sh", "-c", f"mosquitto -c {folder}/mosquitto.conf 2>&1 & echo $!"],
                            stdout=subprocess.PIPE, text=True, start_new_session=True)
    assert left.stdout is not None
    lines: queue.Queue[str] = queue.Queue()

    def pump() -> None:  # the broker's log, line by line, until it exits
        for line in left.stdout or ():
            lines.put(line)

    threading.Thread(target=pump, daemon=True).start()
    pid, running = 0, False
    deadline = time.monotonic() + WAIT_S
    while not (pid and running):
        line = lines.get(timeout=max(0.0, deadline - time.monotonic()))  # queue.Empty: it never said so
        pid = int(line) if line.strip().isdigit() else pid
        running = running or " running" in line
    left.wait(WAIT_S)
    stray = Stray(pid, folder, port)
    assert stray.alive(), "the stray broker did not start"
    if pidfile is not None:
        pidfile.write_text(f"{pid}\n{stray.conf}\n", encoding="utf-8")
    return stray


def running_brokers(prefix: str = DIR_PREFIX) -> set[int]:
    """Mosquitto processes run from a folder named `prefix`... under the temporary directory."""
    found = set()
    for entry in Path("/proc").glob("[0-9]*"):
        try:
            cmd = (entry / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if cmd[:2] == [b"mosquitto", b"-c"] and f"/{prefix}".encode() in cmd[2]:
            found.add(int(entry.name))
    return found
