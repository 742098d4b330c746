"""Files at rest and one companion per state directory (issue 16, items 5 and 9).

The state directory (the one holding `storage.path`) keeps secret votes, counters, the game's seed and
the phones' credentials in the clear, so it is 0700 and every file in it 0600 whatever the umask (a
terminal's 022 here, as `run-here.sh` has), and a looser one is tightened at start with one line saying
what changed. A second `companion run` on the same directory says "already running (pid N)" and leaves
the running table, its log and its reader socket exactly as they were; commands that only read (`show`,
`export`) work beside a running table without writing to its log.

Every test starts the real `companion run --jsonl --no-display` as a child process with umask 022.
"""

from __future__ import annotations

import hashlib
import json
import os
import queue
import stat
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion import statedir
from companion.core.eventlog import EventLog
from companion.phones.runner import CREDENTIALS_FILE, KEPT_FILE
from companion.taps.registry import Registry, registry_path
from hardware.pn532.control import send as reader_command
from tests.kits.fault_kit import GUARD_S, Child, Ports, child_env, resumed, start_game
from tests.kits.phones_kit import BROKERS

TERMINAL_UMASK = 0o022
SETUP = {"game": "toolkit", "players": ["ana", "ben"], "seed": 424242}
SECRET_INPUTS = [
    {"by": "host", "move": "roles.deal", "args": {"name": "roles", "roles": ["spy", "cop"]}},
    {"by": "host", "move": "counter.create", "args": {"name": "hp", "initial": 10, "low": 0, "high": 10}},
    {"by": "host", "move": "ballot.open", "args": {"name": "exile", "options": ["ana", "ben"], "change": "final"}},
    {"by": "player:ana", "move": "ballot.vote", "args": {"name": "exile", "option": "ben"}},
]
MORE_INPUTS = [
    {"by": "player:ben", "move": "ballot.vote", "args": {"name": "exile", "option": "ana"}},
    {"by": "host", "move": "counter.adjust", "args": {"name": "hp", "player": "ben", "delta": -3}},
]


def with_ids(inputs: list[dict[str, Any]], first: int = 0) -> list[dict[str, Any]]:
    return [{**m, "id": f"cmd-{first + i}"} for i, m in enumerate(inputs)]


def companion(*args: str) -> list[str]:
    return [sys.executable, "-m", "companion", *args]


class Companion(Child):
    """`companion run --jsonl --no-display` started from a terminal (umask 022); replies and stderr in queues."""

    def __init__(self, db: Path, env: dict[str, str]) -> None:
        super().__init__(db, env, {"game": "toolkit", "players": [{"id": "ana"}, {"id": "ben"}]}, umask=TERMINAL_UMASK)

    def wait_said(self, text: str) -> str:
        while True:
            try:
                line = self.said.get(timeout=GUARD_S)
            except queue.Empty:
                raise AssertionError(f"the companion never said {text!r}; it said {''.join(self.console)!r}") from None
            if text in line:
                return line

    def play(self, inputs: list[dict[str, Any]]) -> None:
        """Send inputs and wait until each is accepted (so it is in the log)."""
        assert self.proc.stdin is not None
        for cmd in inputs:
            self.proc.stdin.write(json.dumps(cmd) + "\n")
            self.proc.stdin.flush()
            reply = self.replies.get(timeout=GUARD_S)
            assert reply["ok"], reply

    def ready(self) -> None:
        """Readers and phones are up: the simulated reader's socket and the phones' credentials exist."""
        self.wait_said(".sock")
        self.wait_said("ws://")

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()


def run_once(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """Another command beside the running table, from the same terminal; guarded against a hang only."""
    return subprocess.run(args, env=env, umask=TERMINAL_UMASK, stdin=subprocess.DEVNULL, capture_output=True,
                          text=True, timeout=GUARD_S, check=False)


def modes(directory: Path) -> dict[str, int]:
    """Every entry under `directory` (itself as "."), symlinks aside (the readers' ptys), with its mode."""
    out = {".": stat.S_IMODE(directory.stat().st_mode)}
    for path in sorted(directory.rglob("*")):
        st_ = path.lstat()
        if not stat.S_ISLNK(st_.st_mode):
            out[str(path.relative_to(directory))] = stat.S_IMODE(st_.st_mode)
    return out


def assert_private(directory: Path) -> dict[str, int]:
    found = modes(directory)
    loose = {name: oct(mode) for name, mode in found.items()
             if mode != (0o700 if (directory / name).is_dir() else 0o600)}
    assert not loose, f"readable or writable by others (want dirs 0700, files 0600): {loose}"
    return found


def snapshot(directory: Path) -> dict[str, tuple[int, int, str]]:
    """What a second start must not change: each entry's inode and mode, and the bytes of every file
    (the SQLite -shm aside: a reader's marks live there)."""
    out = {}
    for path in sorted(directory.rglob("*")):
        st_ = path.lstat()
        content = ""
        if stat.S_ISREG(st_.st_mode) and not path.name.endswith("-shm"):
            content = hashlib.sha256(path.read_bytes()).hexdigest()
        out[str(path.relative_to(directory))] = (st_.st_ino, st_.st_mode, content)
    return out


# -- item 5: files at rest ------------------------------------------------------------------------------


@pytest.mark.parametrize("broker", BROKERS)
def test_a_table_started_from_a_terminal_keeps_every_file_private(tmp_path: Path, broker: str) -> None:
    state = tmp_path / "state"  # not there yet: the companion creates it
    db = state / "companion.sqlite3"
    table = Companion(db, child_env(tmp_path, Ports.pick(), broker=broker))
    try:
        table.ready()
        table.play(with_ids(SECRET_INPUTS))
        running = assert_private(state)
        # The files that hold secrets are all there (so the check above looked at them).
        for name in [db.name, f"{db.name}-wal", f"{db.name}-shm", registry_path(db).name, KEPT_FILE,
                     "readers/pn532.sock"]:
            assert name in running, sorted(running)
        assert table.finish() == 0
    finally:
        table.stop()
    assert_private(state)  # after a clean stop too (the WAL is folded back into the log)


def test_a_loose_state_directory_is_made_private_at_start_with_one_line(tmp_path: Path) -> None:
    state = tmp_path / "state"
    state.mkdir()
    db = state / "companion.sqlite3"
    start_game(db, SETUP)  # a game left by an older companion, under umask 022
    Registry(registry_path(db)).close()
    (state / KEPT_FILE).write_text("{}", encoding="utf-8")
    (state / "readers").mkdir()
    mine = state / "notes.txt"  # a file of the user's beside the log: not the companion's to change
    mine.write_text("shopping list", encoding="utf-8")
    loose = {".": 0o755, db.name: 0o644, registry_path(db).name: 0o644, KEPT_FILE: 0o644, "readers": 0o755}
    for name, mode in loose.items():
        os.chmod(state / name, mode)
    os.chmod(mine, 0o644)

    table = Companion(db, child_env(tmp_path, Ports.pick()))
    try:
        table.ready()
        table.play(with_ids(SECRET_INPUTS))
        found = modes(state)
        assert {name: oct(found[name]) for name in loose} == {
            name: oct(0o700 if (state / name).is_dir() else 0o600) for name in loose}
        assert found[f"{db.name}-wal"] == found[f"{db.name}-shm"] == 0o600
        assert found["notes.txt"] == 0o644
        said = [line for line in table.console if "→" in line]
        assert len(said) == 1, table.console
        line = said[0]
        assert str(state) in line and "0755" in line and "0700" in line, line
        for name in [db.name, registry_path(db).name, KEPT_FILE, "readers"]:
            assert name in line, line
        assert "notes.txt" not in line
        assert table.finish() == 0
    finally:
        table.stop()

    again = Companion(db, child_env(tmp_path, Ports.pick()))  # private now: nothing more to say
    try:
        again.ready()
        assert again.finish() == 0
    finally:
        again.stop()
    assert not [line for line in again.console if "→" in line], again.console


def test_a_shared_directory_such_as_tmp_is_refused_not_changed(tmp_path: Path) -> None:
    shared = tmp_path / "shared"
    shared.mkdir()
    os.chmod(shared, 0o1777)  # world-writable with the sticky bit, as /tmp
    done = run_once(companion("run", "--jsonl", "--no-display", "--db", str(shared / "table.sqlite3")),
                    child_env(tmp_path, Ports.pick()))
    assert done.returncode != 0
    assert str(shared) in done.stderr, done.stderr
    assert stat.S_IMODE(shared.stat().st_mode) == 0o1777
    assert list(shared.iterdir()) == []


@settings(max_examples=60, deadline=None)
@given(dir_mode=st.integers(0o700, 0o777), file_modes=st.lists(st.integers(0o600, 0o777), min_size=4, max_size=4),
       user_mode=st.integers(0o600, 0o777))
def test_tightening_only_removes_other_users_bits_of_the_companions_own_files(
        dir_mode: int, file_modes: list[int], user_mode: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        state = Path(tmp) / "state"
        state.mkdir()
        log = state / "table.sqlite3"
        names = [log.name, f"{log.name}-wal", registry_path(log).name, CREDENTIALS_FILE]
        for name, mode in zip(names, file_modes, strict=True):
            (state / name).write_bytes(b"")
            os.chmod(state / name, mode)
        (state / "photo.jpg").touch()  # the user's own file beside the log
        os.chmod(state / "photo.jpg", user_mode)
        os.chmod(state, dir_mode)
        changes = statedir.tighten(log)
        assert stat.S_IMODE(state.stat().st_mode) == dir_mode & 0o700
        for name, mode in zip(names, file_modes, strict=True):
            assert stat.S_IMODE((state / name).stat().st_mode) == mode & 0o700
        assert stat.S_IMODE((state / "photo.jpg").stat().st_mode) == user_mode
        expected = {(state, dir_mode, dir_mode & 0o700)} if dir_mode & 0o077 else set()
        expected |= {(state / n, m, m & 0o700) for n, m in zip(names, file_modes, strict=True) if m & 0o077}
        assert {(c.path, c.was, c.now) for c in changes} == expected
        assert statedir.tighten(log) == []


# -- item 9: one companion per state directory ----------------------------------------------------------


def test_a_second_companion_on_the_same_state_directory_says_already_running_and_touches_nothing(
        tmp_path: Path) -> None:
    state = tmp_path / "state"
    db = state / "companion.sqlite3"
    env = child_env(tmp_path, Ports.pick())
    first = Companion(db, env)
    try:
        first.ready()
        first.play(with_ids(SECRET_INPUTS))
        before = snapshot(state)

        second = run_once(companion("run", "--jsonl", "--no-display", "--db", str(db)), env)
        assert second.returncode != 0
        assert f"already running (pid {first.proc.pid})" in second.stderr, second.stderr
        assert snapshot(state) == before  # the log and its WAL byte for byte, the reader's socket the same inode

        # The first one carries on: its reader socket answers, its inputs are taken.
        assert "pn532" in reader_command(state / "readers" / "pn532.sock", "status")
        first.play(with_ids(MORE_INPUTS, first=len(SECRET_INPUTS)))
        assert first.finish() == 0
    finally:
        first.stop()
    kept = resumed(db)
    assert [ev.input.id for ev in kept.events] == [m["id"] for m in with_ids(SECRET_INPUTS + MORE_INPUTS)]
    assert kept.game_id == 1
    kept.log.close()


def test_commands_that_write_the_state_refuse_while_a_table_runs(tmp_path: Path) -> None:
    state = tmp_path / "state"
    db = state / "companion.sqlite3"
    env = child_env(tmp_path, Ports.pick(), COMPANION_STORAGE__PATH=str(db))
    box = tmp_path / "box.json"
    box.write_text(json.dumps({"format": "companion-tokens", "version": 1, "tokens": [
        {"uid": "04A1B2C3", "game": "toolkit", "kind": "player", "id": "ana", "label": "Ana"}]}), encoding="utf-8")
    script = tmp_path / "other.jsonl"
    script.write_text(json.dumps({"game": "toolkit", "players": ["x", "y"]}) + "\n", encoding="utf-8")
    first = Companion(db, env)
    try:
        first.ready()
        first.play(with_ids(SECRET_INPUTS))
        before = snapshot(state)
        for args in (["tokens", "enroll", "--game", "toolkit", "--kind", "player", "--id", "ana", "--timeout", "5"],
                     ["tokens", "import", str(box)],
                     ["tokens", "forget", "04A1B2C3"],
                     ["replay", str(script), "--db", str(db)]):
            done = run_once(companion(*args), env)
            assert done.returncode != 0, (args, done.stdout, done.stderr)
            assert f"already running (pid {first.proc.pid})" in done.stderr, (args, done.stderr)
            assert snapshot(state) == before, args
        first.play(with_ids(MORE_INPUTS, first=len(SECRET_INPUTS)))
        assert first.finish() == 0
    finally:
        first.stop()


def test_show_and_export_read_a_running_tables_log_without_writing_to_it(tmp_path: Path) -> None:
    state = tmp_path / "state"
    db = state / "companion.sqlite3"
    env = child_env(tmp_path, Ports.pick())
    first = Companion(db, env)
    try:
        first.ready()
        first.play(with_ids(SECRET_INPUTS))
        before = snapshot(state)

        shown = run_once(companion("show", "--db", str(db), "--view", "player:ana"), env)
        assert shown.returncode == 0, shown.stderr
        assert json.loads(shown.stdout)["private"]["ballots"]["exile"]["my_vote"] == "ben"
        exported = run_once(companion("export", "--db", str(db)), env)
        assert exported.returncode == 0, exported.stderr
        assert [json.loads(t).get("id") for t in exported.stdout.splitlines()[1:]] == [
            m["id"] for m in with_ids(SECRET_INPUTS)]
        assert snapshot(state) == before  # not a byte of the log or its WAL

        first.play(with_ids(MORE_INPUTS, first=len(SECRET_INPUTS)))
        assert first.finish() == 0
    finally:
        first.stop()
    log = EventLog(db)
    assert len(log.events(1)) == len(SECRET_INPUTS + MORE_INPUTS)
    log.close()
