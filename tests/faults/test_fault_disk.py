"""A full disk and a read-only state directory, on a real small filesystem (a tmpfs mounted here as root).

Disk full: mid-game something else fills the state directory's filesystem. The next inputs are refused
with `reject.storage_failed` (the console says so; the journal gets the logged error naming the file),
nothing acknowledged is lost, and once space is freed the refused inputs are accepted when re-sent.
Read-only: the state directory's filesystem is mounted read-only (what the kernel does to a failing SD
card); `companion run` refuses to start with the file and the reason named, and the game is intact.
"""

from __future__ import annotations

import contextlib
import errno
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.kits.fault_kit import Child, Ports, child_env, lockdown_game, replayed, resumed, start_game

CHUNK = 4096


@contextlib.contextmanager
def tmpfs(where: Path, size: str = "2m") -> Iterator[Path]:
    """A small real filesystem; needs root (the tests run as root, here and in CI)."""
    where.mkdir()
    subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size},mode=0755", "tmpfs", str(where)], check=True)
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], check=True)


def fill(disk: Path) -> Path:
    """Write a file until the filesystem is full (ENOSPC), as a runaway log would."""
    filler = disk / "filler"
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT, 0o644)
    try:
        while True:
            os.write(fd, b"\0" * CHUNK)
    except OSError as err:
        assert err.errno == errno.ENOSPC
    finally:
        os.close(fd)
    return filler


def test_a_full_disk_refuses_inputs_clearly_and_loses_nothing_acknowledged(tmp_path: Path) -> None:
    setup, game = lockdown_game()
    with tmpfs(tmp_path / "state") as disk:
        db = disk / "table.sqlite3"
        start_game(db, setup)
        child = Child(db, child_env(tmp_path, Ports.pick()), setup)
        acked = []
        for cmd in game[:10]:
            child.send(cmd)
            assert child.reply()["ok"]
            acked.append(cmd["id"])

        filler = fill(disk)
        refused = []
        for cmd in game[10:20]:
            child.send(cmd)
            reply = child.reply()
            if reply["ok"]:  # an append may still fit in space SQLite already holds
                assert not refused, "inputs are taken in order: none after a refusal"
                acked.append(cmd["id"])
                continue
            assert reply["reason"]["code"] == "reject.storage_failed"
            refused.append(cmd)
            child.send(cmd)  # the phone tries again: still refused while the disk is full
            assert child.reply()["reason"]["code"] == "reject.storage_failed"
            break
        assert refused, "a full disk must be noticed"
        # The journal (stderr under systemd) names the file and the reason.
        line = child.wait_said("cannot append to the event log")
        assert str(db) in line and ("full" in line or "disk" in line), line

        filler.unlink()  # the host frees space: the same input goes through now
        for cmd in [*refused, *game[len(acked) + 1 : len(acked) + 4]]:
            child.send(cmd)
            assert child.reply()["ok"]
            acked.append(cmd["id"])
        assert child.finish() == 0

        restarted = resumed(db)
        assert [ev.input.id for ev in restarted.events] == acked
        assert restarted.log.integrity_ok()
        assert replayed(restarted).state == restarted.state
        restarted.log.close()


def test_a_read_only_state_directory_stops_the_start_with_the_reason_and_keeps_the_game(tmp_path: Path) -> None:
    setup, game = lockdown_game()
    with tmpfs(tmp_path / "state") as disk:
        db = disk / "table.sqlite3"
        start_game(db, setup)
        env = child_env(tmp_path, Ports.pick())
        child = Child(db, env, setup)
        for cmd in game[:6]:
            child.send(cmd)
            assert child.reply()["ok"]
        assert child.finish() == 0

        subprocess.run(["mount", "-o", "remount,ro", str(disk)], check=True)
        child = Child(db, env, setup)
        assert child.proc.wait(timeout=30) != 0
        said = "".join(child.console)
        assert "Error:" in said and str(db) in said, said
        assert "readonly" in said or "read-only" in said or "unable to open" in said, said

        subprocess.run(["mount", "-o", "remount,rw", str(disk)], check=True)
        kept = resumed(db)
        assert [ev.input.id for ev in kept.events] == [m["id"] for m in game[:6]]
        assert kept.log.integrity_ok()
        kept.log.close()


pytestmark = pytest.mark.slow
