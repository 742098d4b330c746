"""The private state directory: the directory holding the game log (`storage.path`), and what is in it.

The log holds secret votes, counters and the game's seed in the clear, beside it are the token registry,
the phones' credentials and the simulated readers' sockets; so the directory is 0700 and every file
the companion keeps there 0600, whatever the umask. Files are created so (`make_private_dir`,
`create_private_file`), and `tighten` takes group and other bits off what an older companion or a looser
umask left, reporting each change for the start's one log line. It touches only the companion's own
files (`companion_files`), never anything else a user keeps beside the log, and it refuses a shared
directory such as /tmp (sticky bit) instead of changing it.

One companion per state directory: `claim` takes an exclusive `flock` on `companion.lock` there (which
holds the pid) before anything else is opened or written; the kernel drops the lock when the process
ends, however it ends, so a power cut never leaves a stale lock. Commands that write a log or the
registry beside a running table use `guarded`, which takes the same lock if the directory has one.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
import stat
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

PRIVATE_DIR = 0o700
PRIVATE_FILE = 0o600
OTHERS = 0o077  # the group's and everyone else's bits
LOCK_FILE = "companion.lock"
READERS_DIR = "readers"  # the simulated readers' links and control sockets (companion/taps/readers.py)
# What else the companion writes beside the log: the phones' credentials (companion/phones/runner.py,
# KEPT_FILE and CREDENTIALS_FILE) and the temporary files they are written through.
CREDENTIAL_FILES = ("phone-credentials.json", "phone-credentials.tmp", "mqtt-credentials.json", "mqtt-credentials.tmp")
SQLITE_SIDE_FILES = ("-wal", "-shm", "-journal")
KIOSK_FILES = ("kiosk-host-pin.json", "kiosk-host-pin.tmp")  # the host PIN chosen on the kiosk (a salted hash)


class StateDirError(Exception):
    """The state directory cannot be made private or locked: says which and why."""


class AlreadyRunning(StateDirError):
    """Another companion holds the state directory's lock."""

    def __init__(self, directory: Path, pid: int | None) -> None:
        super().__init__(f"a companion is already running (pid {pid or '?'}) on {directory}")
        self.directory, self.pid = directory, pid

    def to_json(self) -> dict[str, Any]:
        """As a message for the console (`i18n.describe`)."""
        return {"code": "state.already_running", "params": {"pid": self.pid or "?", "dir": str(self.directory)}}


@dataclass(frozen=True)
class Change:
    """A file or directory whose mode `tighten` changed."""

    path: Path
    was: int
    now: int


def describe(directory: Path, changes: list[Change]) -> str:
    """The changes for a log line: the directory by its path, the rest by their names in it."""
    def name(path: Path) -> str:
        return str(path) if path == directory else str(path.relative_to(directory))

    return ", ".join(f"{name(c.path)} {c.was:04o}→{c.now:04o}" for c in changes)


def make_private_dir(path: Path) -> None:
    """Create `path` and any missing parents 0700 (as the XDG spec asks); an existing one is left as it is."""
    missing = []
    while not path.exists():
        missing.append(path)
        if path.parent == path:
            break
        path = path.parent
    for directory in reversed(missing):
        with contextlib.suppress(FileExistsError):
            directory.mkdir(mode=PRIVATE_DIR)
            os.chmod(directory, PRIVATE_DIR)  # the umask may have taken more than it should


def create_private_file(path: Path) -> None:
    """Create an empty `path` 0600 unless it exists (before SQLite opens it: its -wal and -shm get its mode)."""
    if path.exists():
        return
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, PRIVATE_FILE)
    except FileExistsError:
        return
    try:
        os.fchmod(fd, PRIVATE_FILE)
    finally:
        os.close(fd)


def companion_files(log: Path) -> list[Path]:
    """Every file the companion may keep in the log's directory, beside the readers' directory."""
    directory = log.parent
    registry = log.with_name(f"{log.stem}.tokens.sqlite3")  # companion.taps.registry.registry_path
    files = [directory / LOCK_FILE, *(directory / name for name in (*CREDENTIAL_FILES, *KIOSK_FILES))]
    for db in (log, registry):
        files += [db, *(db.with_name(db.name + suffix) for suffix in SQLITE_SIDE_FILES)]
    readers = directory / READERS_DIR
    if readers.is_dir() and not readers.is_symlink():
        files += [readers, *sorted(readers.iterdir())]
    return files


def _private(path: Path) -> Change | None:
    try:
        st = path.lstat()
    except FileNotFoundError:
        return None
    if stat.S_ISLNK(st.st_mode):  # a simulated reader's link to its pty: its own mode means nothing
        return None
    was = stat.S_IMODE(st.st_mode)
    if not was & OTHERS:
        return None
    try:
        os.chmod(path, was & ~OTHERS)
    except OSError as err:
        raise StateDirError(f"cannot make {path} private: {err.strerror}") from err
    return Change(path, was, was & ~OTHERS)


def check_not_shared(directory: Path) -> None:
    """Refuse a directory other users share (sticky, as /tmp): the companion will not change its mode."""
    try:
        mode = directory.stat().st_mode
    except OSError as err:
        raise StateDirError(f"cannot use the state directory {directory}: {err.strerror}") from err
    if not stat.S_ISDIR(mode):
        raise StateDirError(f"the state directory {directory} is not a directory")
    if mode & stat.S_ISVTX:
        raise StateDirError(f"the state directory {directory} is shared with other users (like /tmp); "
                            "give storage.path a directory of its own")


def tighten(log: Path) -> list[Change]:
    """Take group and other bits off the log's directory and the companion's files in it; what changed."""
    changes = [_private(log.parent)]
    changes += [_private(path) for path in companion_files(log)]
    return [c for c in changes if c is not None]


@dataclass
class Lock:
    """The state directory's lock, held until `release` (or until the process ends)."""

    path: Path
    fd: int | None = field(default=None, repr=False)

    def release(self) -> None:
        if self.fd is not None:
            os.close(self.fd)  # closing the file drops the flock
            self.fd = None

    def __enter__(self) -> Lock:
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()


def _open_lock(path: Path, create: bool) -> tuple[int, bool] | None:
    """The lock file open for writing (True) or, on a read-only disk, for reading; None if it is not there."""
    try:
        return os.open(path, os.O_RDWR | os.O_CLOEXEC | (os.O_CREAT if create else 0), PRIVATE_FILE), True
    except FileNotFoundError:
        if create:
            raise
        return None
    except OSError as err:
        if err.errno not in (errno.EROFS, errno.EACCES):
            raise
        try:  # flock works on a file open for reading: a read-only disk is still locked
            return os.open(path, os.O_RDONLY | os.O_CLOEXEC), False
        except FileNotFoundError:
            if create:
                raise err from None
            return None


def _read_pid(fd: int) -> int | None:
    text = os.pread(fd, 32, 0).decode("ascii", "replace").split("\n")[0].strip()
    return int(text) if text.isdigit() else None


def lock(directory: Path, create: bool = True) -> Lock:
    """Take the directory's lock (creating `companion.lock` unless `create` is False: then a directory
    without one gives a lock that holds nothing). AlreadyRunning if another process holds it."""
    path = directory / LOCK_FILE
    try:
        opened = _open_lock(path, create)
    except OSError as err:
        raise StateDirError(f"cannot lock the state directory {directory}: {err.strerror}") from err
    if opened is None:
        return Lock(path)
    fd, writable = opened
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError as err:
        pid = _read_pid(fd)
        os.close(fd)
        if err.errno in (errno.EWOULDBLOCK, errno.EAGAIN):
            raise AlreadyRunning(directory, pid) from None
        raise StateDirError(f"cannot lock the state directory {directory}: {err.strerror}") from err
    if writable:  # the pid first, then the length: a reader sees the old pid or the new one, never a mix
        mine = f"{os.getpid()}\n".encode("ascii")
        os.pwrite(fd, mine, 0)
        os.ftruncate(fd, len(mine))
    return Lock(path, fd)


@dataclass
class Claim:
    """A state directory claimed by this process: its lock, and what `tighten` changed at the start."""

    directory: Path
    lock: Lock
    changes: list[Change]

    def release(self) -> None:
        self.lock.release()

    def __enter__(self) -> Claim:
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()


def claim(log: Path) -> Claim:
    """Make the log's directory this companion's (the first thing `companion run` does): create it 0700
    if missing, refuse a shared one, take its lock, then make what is already there private."""
    directory = log.parent
    try:
        make_private_dir(directory)
    except OSError as err:
        raise StateDirError(f"cannot create the state directory {directory}: {err.strerror}") from err
    check_not_shared(directory)
    held = lock(directory)
    try:
        changes = tighten(log)
    except BaseException:
        held.release()
        raise
    return Claim(directory, held, changes)


@contextlib.contextmanager
def guarded(*directories: Path) -> Iterator[None]:
    """For a command that writes into these directories (a log, the token registry, the readers): the lock
    of each that is a companion's state directory (it has a lock file), held while the command runs, so
    it refuses (AlreadyRunning) while a table runs there. It creates nothing."""
    with contextlib.ExitStack() as held:
        for directory in dict.fromkeys(d.resolve() for d in directories):
            held.enter_context(lock(directory, create=False))
        yield
