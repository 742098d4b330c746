"""Managed Mosquitto: the companion runs `mosquitto` with a config it generates (docs/mqtt.md).

Everything lives in a private directory (mode 0700, removed on stop): `mosquitto.conf`, a password file
hashed by `mosquitto_passwd -U`, and the ACL with `%u` patterns. Both listeners (MQTT and WebSockets)
are followed by `use_username_as_clientid true`, so no credential can take over another client's id.
Run as root, Mosquitto drops to the `mosquitto` user, so the directory is handed to that user.
A new game rewrites the password file and sends SIGHUP: the old game's phones are refused and dropped.
A seat claimed or released does the same (`update_game`); a released seat's phone is also dropped by
taking over its client id. A released seat's old join user is not in the game any more: it is kept in
the password file with a fresh password only the companion knows ("retired") until the next game, so
the companion can still take over its client id and drop every connection of it (Mosquitto 2.0 has no
other way to close a client without the dynamic-security plugin); no phone can log in as it again.
Readiness and reloads are read from Mosquitto's own log lines, never guessed with a sleep.
With a state directory, the broker's pid and config are recorded there (`PIDFILE`); a start stops the
broker that file names if it outlived its companion, and no other (`left_behind`).
"""

from __future__ import annotations

import contextlib
import logging
import os
import pwd
import queue
import select
import shutil
import signal
import subprocess
import tempfile
import threading
from collections.abc import Collection
from pathlib import Path

import paho.mqtt.client as mqtt

from companion.phones.credentials import GameCredentials, new_password
from companion.phones.topics import MAX_PACKET_BYTES, REFEREE_USER, VERSION, acl_patterns
from companion.status import MOSQUITTO_INSTALL_COMMAND as INSTALL_COMMAND

logger = logging.getLogger(__name__)
DIR_PREFIX = "companion-mosquitto-"
PIDFILE = "mosquitto.pid"  # in the state directory: the broker this state directory's companion started


def install_hint() -> str:
    """What to install for phones, in a line for logs and errors (the console and the kiosk say it in the
    table's language: the catalogs' `phones.mosquitto_missing`)."""
    return f"Mosquitto is not installed, so phones cannot join; to install it: {INSTALL_COMMAND}"


def _command_line(pid: int, proc: Path = Path("/proc")) -> list[bytes] | None:
    try:
        return (proc / str(pid) / "cmdline").read_bytes().split(b"\0")[:-1]
    except OSError:
        return None  # gone, or not ours to read


def _recorded(pidfile: Path) -> tuple[int, str] | None:
    """The pid and config path `pidfile` holds (`ManagedMosquitto._record`), if it holds them."""
    try:
        pid_text, conf = pidfile.read_text(encoding="utf-8").split("\n")[:2]
        pid = int(pid_text)
    except (OSError, ValueError):
        return None
    return (pid, conf) if pid > 0 and conf else None


def _runs(pid: int, conf: str, proc: Path = Path("/proc")) -> bool:
    """Whether `pid` is a Mosquitto started with `conf` (so never a process that reused the pid)."""
    return _command_line(pid, proc) == [b"mosquitto", b"-c", conf.encode()]


def _parent(pid: int, proc: Path = Path("/proc")) -> int | None:
    try:
        return int((proc / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()[1])
    except (OSError, ValueError, IndexError):
        return None


def _in_use(conf: str, proc: Path = Path("/proc")) -> bool:
    """Whether any Mosquitto runs with `conf` (a stale pidfile's folder is removed only when none does)."""
    return any(_runs(int(entry.name), conf, proc) for entry in proc.glob("[0-9]*"))


def left_behind(pidfile: Path, proc: Path = Path("/proc")) -> int | None:
    """The broker `pidfile` names, if it still runs as the companion started it (`mosquitto -c` with the
    config recorded beside its pid: a reused pid is never taken for it) and is no child of this process.
    Mosquitto drops its privileges, which clears a parent-death signal, so a companion killed from
    outside (SIGKILL, a power cut of the process only) leaves its broker running on the ports the next
    start needs. Only the broker of this state directory is ever named: another table's, another
    user's or the hall's have pidfiles of their own."""
    recorded = _recorded(pidfile)
    if recorded is None or not _runs(*recorded, proc=proc):
        return None
    return None if _parent(recorded[0], proc) == os.getpid() else recorded[0]


def stop_left_behind(pidfile: Path, dir_prefix: str = DIR_PREFIX, wait_s: float = 5.0) -> None:
    """Stop the broker `left_behind` names, wait (on a pidfd, no polling) until it has let go of its
    ports, and remove its private folder and the pidfile. A broker that still runs afterwards (this
    process's own, or one that would not stop) keeps both."""
    recorded = _recorded(pidfile)
    if recorded is None:
        return
    pid, conf = recorded
    if left_behind(pidfile) is not None:
        logger.warning("stopping the broker an earlier companion on this state directory left behind (pid %d)", pid)
        try:
            fd = os.pidfd_open(pid)
        except OSError:
            fd = -1
        try:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGTERM)
            if fd >= 0:
                select.select([fd], [], [], wait_s)
        finally:
            if fd >= 0:
                os.close(fd)
    if _runs(pid, conf) or _in_use(conf):
        return
    folder = Path(conf).parent
    if folder.name.startswith(dir_prefix):
        shutil.rmtree(folder, ignore_errors=True)
    with contextlib.suppress(OSError):
        pidfile.unlink()


READY_TIMEOUT_S = 10.0
MOSQUITTO_USER = "mosquitto"
# Mosquitto 2.0's WebSocket listener (libwebsockets) allocates a packet's announced size before reading
# it and never checks `max_packet_size` (TCP does); this cap on its heap refuses such an allocation
# instead (the client is disconnected). A table's retained views and queues need a few MB at most.
MEMORY_LIMIT_BYTES = 64 * 1024 * 1024


def available() -> bool:
    return shutil.which("mosquitto") is not None and shutil.which("mosquitto_passwd") is not None


def acl_text(prefix: str) -> str:
    lines = [f"user {REFEREE_USER}", f"topic readwrite {prefix}/{VERSION}/#",
             "topic read $SYS/broker/clients/connected", ""]
    lines += [f"pattern {kind} {pattern}" for kind, pattern in acl_patterns(prefix)]
    return "\n".join(lines) + "\n"


def config_text(directory: Path, host: str, port: int, ws_port: int, extra: str = "") -> str:
    """The broker's config; `extra` is appended as it is (the hall's bridge: companion/hall/table/bridge.py)."""
    return "\n".join([
        "# generated by the companion for one run; see docs/mqtt.md",
        "per_listener_settings false",
        "allow_anonymous false",
        f"password_file {directory / 'passwd'}",
        f"acl_file {directory / 'acl'}",
        "persistence false",
        f"max_packet_size {MAX_PACKET_BYTES}",
        f"memory_limit {MEMORY_LIMIT_BYTES}",
        "log_dest stderr",
        "log_type error",
        "log_type warning",
        "log_type notice",
        "log_type information",
        "log_timestamp false",
        "sys_interval 5",
        f"listener {port} {host}",
        "protocol mqtt",
        "use_username_as_clientid true",
        f"listener {ws_port} {host}",
        "protocol websockets",
        "use_username_as_clientid true",
        "",
    ]) + extra


class ManagedMosquitto:
    """A table's broker. The hall's central broker (companion/hall/central.py) is one with other files:
    it overrides `dir_prefix`, `_acl_text`, `_config_text` and `_password_file`."""

    name = "mosquitto"
    dir_prefix = DIR_PREFIX

    def __init__(self, prefix: str, host: str, port: int, ws_port: int, referee_password: str,
                 extra: str = "", pidfile: Path | None = None) -> None:
        self.prefix, self.host, self.port, self.ws_port = prefix, host, port, ws_port
        self.extra = extra  # config text appended to the generated one (a bridge to the hall)
        self.pidfile = pidfile  # where the running broker is recorded (`PIDFILE` in the state directory)
        self._referee_password = referee_password
        self._users: dict[str, str] = {}
        self._retired: dict[str, str] = {}  # users of this game no phone may use again (update_game)
        self._dir: Path | None = None
        self._proc: subprocess.Popen[str] | None = None
        self._lines: queue.Queue[str | None] = queue.Queue()
        self._lock = threading.Lock()

    # -- files --------------------------------------------------------------------------------------------

    def _owner(self) -> tuple[int, int] | None:
        if os.geteuid() != 0:
            return None
        try:
            entry = pwd.getpwnam(MOSQUITTO_USER)
        except KeyError:
            return None
        return entry.pw_uid, entry.pw_gid

    def _write(self, name: str, text: str) -> None:
        assert self._dir is not None
        path = self._dir / name
        tmp = self._dir / f".{name}.tmp"
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
        if name == "passwd":  # hash in place: the plain passwords never stay on disk
            subprocess.run(["mosquitto_passwd", "-U", str(tmp)], check=True, capture_output=True, text=True)
        owner = self._owner()
        if owner is not None:
            os.chown(tmp, *owner)
        os.replace(tmp, path)

    def _acl_text(self) -> str:
        return acl_text(self.prefix)

    def _config_text(self, directory: Path) -> str:
        return config_text(directory, self.host, self.port, self.ws_port, self.extra)

    def _password_file(self) -> str:
        users = {REFEREE_USER: self._referee_password, **self._retired, **self._users}
        return "".join(f"{user}:{password}\n" for user, password in users.items())

    # -- process ------------------------------------------------------------------------------------------

    def start(self) -> None:
        if self.pidfile is not None and self._dir is None:  # a first start: an earlier process's broker
            stop_left_behind(self.pidfile, self.dir_prefix)  # (a restart's pidfile names our own, folder too)
        if self._dir is None:
            self._dir = Path(tempfile.mkdtemp(prefix=self.dir_prefix))
            owner = self._owner()
            if owner is not None:
                os.chown(self._dir, *owner)
        self._write("acl", self._acl_text())
        self._write("passwd", self._password_file())
        self._write("mosquitto.conf", self._config_text(self._dir))
        self._lines = queue.Queue()
        # not systemd's notify socket: Mosquitto would send its own READY=1 on the companion's behalf
        env = {k: v for k, v in os.environ.items() if k not in ("NOTIFY_SOCKET", "WATCHDOG_USEC", "WATCHDOG_PID")}
        self._proc = subprocess.Popen(["mosquitto", "-c", str(self._dir / "mosquitto.conf")],
                                      stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                      stderr=subprocess.PIPE, text=True, env=env)
        if self.pidfile is not None:
            self._record(self.pidfile, self._proc.pid, self._dir / "mosquitto.conf")
        threading.Thread(target=self._pump, args=(self._proc, self._lines), name="mosquitto-log",
                         daemon=True).start()
        self._wait_for(" running", "did not start")

    @staticmethod
    def _record(pidfile: Path, pid: int, conf: Path) -> None:
        """`pidfile`: the pid and the config the broker was started with (`left_behind` reads both)."""
        tmp = pidfile.with_name(f".{pidfile.name}.tmp")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(f"{pid}\n{conf}\n")
        os.replace(tmp, pidfile)

    @staticmethod
    def _pump(proc: subprocess.Popen[str], lines: queue.Queue[str | None]) -> None:
        assert proc.stderr is not None
        for line in proc.stderr:
            logger.debug("mosquitto: %s", line.rstrip())
            lines.put(line)
        lines.put(None)

    def _wait_for(self, text: str, what: str) -> None:
        seen: list[str] = []
        while True:
            try:
                line = self._lines.get(timeout=READY_TIMEOUT_S)
            except queue.Empty:
                raise RuntimeError(f"mosquitto {what}: no '{text.strip()}' within {READY_TIMEOUT_S} s") from None
            if line is None:
                raise RuntimeError(f"mosquitto {what}: it exited; it said: {''.join(seen[-5:]).strip()}")
            seen.append(line)
            if text in line:
                return

    def set_game(self, game: GameCredentials) -> None:
        """This game's phones only: rewrite the password file and reload (old credentials are refused)."""
        self._retired = {}
        self._reload_users(game.phone_users())

    def _reload_users(self, users: dict[str, str]) -> None:
        """These users besides the broker's own: rewrite the password file and reload (SIGHUP)."""
        with self._lock:
            self._users = dict(users)
            if self._proc is None or self._dir is None:
                return
            self._write("passwd", self._password_file())
            self._proc.send_signal(signal.SIGHUP)
            self._wait_for("Reloading config", "did not reload")

    def update_game(self, game: GameCredentials, drop: Collection[str] = ()) -> None:
        """The same game with some passwords changed (a seat claimed or released): reload the password
        file, then take over the client id of each user in `drop` with its new password, so whoever held
        it is dropped (a reload need not close a live connection) and, reconnecting with the old
        password, refused."""
        users = game.phone_users()
        # a user in `drop` that the game no longer has (a released seat's old join user): retired with a
        # password no phone knows, so it can be taken over (and its phones dropped) but never used again
        self._retired.update({user: new_password() for user in drop if user not in users})
        self._reload_users(users)
        for user in drop:
            password = users.get(user) or self._retired.get(user)
            if password is not None:
                self._take_over(user, password)

    def _take_over(self, user: str, password: str) -> None:
        """Connect once as `user` (the client id is the user name) and leave at once."""
        connected = threading.Event()
        client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=user, clean_session=True)
        client.username_pw_set(user, password)
        client.on_connect = lambda *_: connected.set()
        host = "127.0.0.1" if self.host in ("0.0.0.0", "") else self.host
        try:
            client.connect(host, self.port, keepalive=5)
            client.loop_start()
            if not connected.wait(READY_TIMEOUT_S):
                raise RuntimeError(f"mosquitto did not answer a connection within {READY_TIMEOUT_S} s")
            client.disconnect()
        finally:
            client.loop_stop()

    def phones_connected(self) -> int | None:
        return None  # the mirror reads $SYS/broker/clients/connected instead

    def stop(self) -> None:
        proc, self._proc = self._proc, None
        if proc is not None and proc.poll() is None:
            proc.terminate()
            try:
                proc.wait(READY_TIMEOUT_S)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        if proc is not None and self.pidfile is not None:
            with contextlib.suppress(OSError, ValueError):
                if int(self.pidfile.read_text(encoding="utf-8").split("\n")[0]) == proc.pid:
                    self.pidfile.unlink()

    def close(self) -> None:
        """Stop and remove the private directory."""
        self.stop()
        if self._dir is not None:
            with contextlib.suppress(OSError):
                shutil.rmtree(self._dir)
            self._dir = None
