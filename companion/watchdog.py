"""systemd's notify protocol (sd_notify, by hand: one datagram on $NOTIFY_SOCKET) and its watchdog.

`companion.service` is `Type=notify` with `WatchdogSec=` (systemd/companion.service): once every
starter has run the companion sends ``READY=1``, and then ``WATCHDOG=1`` every half watchdog period,
but only while every loop it watches keeps turning: the Table's loop (it turns at least once a second,
table/loop.py IDLE_WAKE_S) and, with a screen, the kiosk's (at least ten times a second); and only while
every thread it watches is alive: the MQTT mirror's network thread (companion/phones/mirror.py); the
wiring (companion/wiring.py) names both. One hung loop or dead thread and the feed stops; systemd then
kills and restarts the service (`Restart=on-failure`) unless the thread is back in time (the mirror
restarts its own within seconds). ``STOPPING=1`` on the way out. Outside systemd (no $NOTIFY_SOCKET)
none of this runs. See docs/pi.md.
"""

from __future__ import annotations

import functools
import logging
import os
import socket
import threading
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field

from companion.config import Config
from companion.status import StatusBoard
from companion.table.loop import Table

logger = logging.getLogger(__name__)


class Notifier:
    """Sends notify messages to systemd (or whatever listens on the socket, e.g. a test)."""

    def __init__(self, address: str) -> None:
        # "@name" is a socket in the abstract namespace (systemd uses those in containers)
        self.address = "\0" + address[1:] if address.startswith("@") else address
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC)
        self._warned = False

    @classmethod
    def from_env(cls, env: Mapping[str, str]) -> Notifier | None:
        address = env.get("NOTIFY_SOCKET", "")
        return cls(address) if address.startswith(("/", "@")) else None

    def send(self, *fields: str) -> bool:
        """One datagram of ``KEY=value`` lines; False (logged once) when nobody listens."""
        try:
            self.sock.sendto("\n".join(fields).encode("utf-8"), self.address)
            return True
        except OSError as err:
            if not self._warned:
                logger.warning("sd_notify to %s failed: %s", self.address.lstrip("\0"), err)
                self._warned = True
            return False

    def close(self) -> None:
        self.sock.close()


def watchdog_seconds(env: Mapping[str, str], pid: int | None = None) -> float | None:
    """The watchdog period systemd asked for ($WATCHDOG_USEC), if it is meant for this process."""
    usec, owner = env.get("WATCHDOG_USEC", ""), env.get("WATCHDOG_PID", "")
    if not usec.isdigit() or int(usec) == 0:
        return None
    if owner and owner != str(os.getpid() if pid is None else pid):
        return None
    return int(usec) / 1_000_000


@dataclass
class Watchdog:
    """Feeds the watchdog when every watched loop has turned since the last feed and every watched
    thread is `alive`, at most every half period. `beat` is called from each loop's own thread."""

    notifier: Notifier
    period_s: float
    loops: Iterable[str]
    clock: Callable[[], float] = time.monotonic
    alive: Mapping[str, Callable[[], bool]] = field(default_factory=dict)  # name -> is that thread alive
    fed: int = 0  # feeds sent
    _waiting: set[str] = field(default_factory=set)
    _last: float = field(default=float("-inf"))
    _held_for: tuple[str, ...] = ()  # the dead threads last logged
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def __post_init__(self) -> None:
        self.loops = frozenset(self.loops)
        self._waiting = set(self.loops)

    def beat(self, loop: str) -> None:
        with self._lock:
            self._waiting.discard(loop)
            now = self.clock()
            if self._waiting or now - self._last < self.period_s / 2:
                return
            dead = tuple(name for name, alive in self.alive.items() if not alive())
            if dead != self._held_for:
                self._held_for = dead
                if dead:
                    logger.error("watchdog: not fed while %s is not running", ", ".join(dead))
            if dead:
                return
            self._last = now
            self._waiting = set(self.loops)
            self.fed += 1
        self.notifier.send("WATCHDOG=1")


@dataclass
class RunningNotify:
    notifier: Notifier
    hooks: list[tuple[list[Callable[[], None]], Callable[[], None]]]

    def stop(self) -> None:
        for hooks, hook in self.hooks:
            if hook in hooks:
                hooks.remove(hook)
        self.notifier.send("STOPPING=1")
        self.notifier.close()


def start_notify(table: Table, cfg: Config, status: StatusBoard, clock: Callable[[], float] = time.monotonic, *,
                 loops: Mapping[str, list[Callable[[], None]]] | None = None,
                 threads: Mapping[str, Callable[[], bool]] | None = None) -> RunningNotify | None:
    """The starter (the last one): READY=1 once the others have run, and the watchdog's feed from the
    Table's loop and the other `loops` (name -> that loop's turn hooks: the kiosk's) while each of
    `threads` (name -> is it alive: the mirror's network thread) is alive."""
    notifier = Notifier.from_env(os.environ)
    if notifier is None:
        return None
    loops = {"table": table.turn_hooks, **(loops or {})}
    added: list[tuple[list[Callable[[], None]], Callable[[], None]]] = []
    period = watchdog_seconds(os.environ)
    if period is not None:
        alive = dict(threads or {})
        watchdog = Watchdog(notifier, period, loops, clock, alive)
        for name, hooks in loops.items():
            hook = functools.partial(watchdog.beat, name)
            hooks.append(hook)
            added.append((hooks, hook))
        logger.info("watchdog: %.1f s, fed while these loops turn: %s; and these threads run: %s", period,
                    ", ".join(loops), ", ".join(alive) or "none")
    headless = any(s.kind == "screen" and s.state == "missing" for s in status.snapshot())
    notifier.send("READY=1", f"STATUS=table {cfg.table.id}: running" + (" headless (no screen)" if headless else ""))
    return RunningNotify(notifier, added)
