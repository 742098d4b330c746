"""The phone page server's connections: how long each may hold a thread, and how many threads there are.

Unbounded, anyone on the table's Wi-Fi could open connections to the page server and say nothing, or
dribble a request a byte at a time, and hold a thread each for ever. So every wait is bounded, in
`Connection`, which the server reads each socket through:

- idle: no request started `idle_timeout` seconds after the connection got its thread, or after its
  previous answer (HTTP/1.1 keep-alive): it is closed;
- request: from a request's first byte, its request line and headers must all be in within
  `request_timeout` seconds, however steadily they trickle (a slowloris is closed all the same);
- write: each write of an answer must be taken by the phone within `write_timeout` seconds;

and `Connections` gives at most `max_connections` connections a thread at once. A browser opens about
six connections to load the page, and one answer refused breaks the page, so a connection over the cap
is not refused at once: it waits, without a thread, among at most `max_waiting` others, and gets the
thread of the next connection to end. To free threads for those waiting, idle connections are dropped,
longest idle first: kept alive `DROPPABLE_AFTER` seconds after an answer (a browser that finds one
closed opens another), or silent `SILENT_AFTER` seconds since they were accepted (a phone sends its
request at once; a browser would fail the request a connection was opened for, so only after that).

A connection is answered 503 and closed by the accepting thread (`refuse`) when it finds no place to
wait, when it has waited `idle_timeout` seconds, or when it has waited `SILENT_AFTER` seconds without
sending a byte. Nothing here ever blocks the accepting thread.
"""

from __future__ import annotations

import collections
import contextlib
import io
import select
import socket
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from _typeshed import WriteableBuffer

DROPPABLE_AFTER = 1.0  # seconds a kept-alive connection idles after an answer before it may be dropped
SILENT_AFTER = 3.0  # seconds a new connection may stay silent (a lost packet is resent within about one)
UNREAD_DISCARDED = 65536  # bytes a closing connection reads and drops, so that its close is no reset


@dataclass(frozen=True)
class Limits:
    """Seconds a connection may wait at each step, how many have a thread at once, how many wait for one."""

    idle_timeout: float = 10.0
    request_timeout: float = 10.0
    write_timeout: float = 30.0
    max_connections: int = 64
    max_waiting: int = 256

    def __post_init__(self) -> None:
        if min(self.idle_timeout, self.request_timeout, self.write_timeout) <= 0 or self.max_connections < 1 \
                or self.max_waiting < 0:
            raise ValueError(f"the page server's timeouts and cap must be positive: {self}")


class Connection(io.RawIOBase):
    """One socket with a thread, as the page server reads it: every read bounded by the request's deadline.

    `waiting` is true while no byte of the next request has come (a connection just given its thread,
    or one kept alive after an answer); `requests` counts those that came.
    """

    def __init__(self, sock: socket.socket, limits: Limits, lock: threading.Lock, opened: float) -> None:
        super().__init__()
        self.sock = sock
        self._limits = limits
        self._lock = lock
        self.waiting, self.waiting_since = True, opened  # silent since it was accepted
        self._deadline = time.monotonic() + limits.idle_timeout
        self.requests = 0
        self.dropped = False

    def readable(self) -> bool:
        return True

    def next_request(self) -> None:
        """Wait for a request: `idle_timeout` for its first byte, then `request_timeout` for its head.
        (For the first request the clocks started with the connection.)"""
        with self._lock:
            if self.requests == 0:
                return
            self.waiting, self.waiting_since = True, time.monotonic()
        self._deadline = self.waiting_since + self._limits.idle_timeout

    def request_started(self) -> None:
        """The request line is in (it may have come along with the previous request)."""
        with self._lock:
            if self.waiting:
                self.waiting = False
                self.requests += 1

    def droppable(self, now: float) -> bool:
        """Idle `DROPPABLE_AFTER` seconds after an answer (a browser that finds a kept-alive connection
        closed opens another and asks again), or silent `SILENT_AFTER` seconds since it was accepted (a
        browser would fail the request it was opened for: so only one that is surely no phone's)."""
        if not self.waiting or self.dropped:
            return False
        return now - self.waiting_since >= (DROPPABLE_AFTER if self.requests else SILENT_AFTER)

    def readinto(self, buffer: WriteableBuffer, /) -> int:
        left = self._deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError("the phone page's connection waited too long")
        self.sock.settimeout(left)
        count = self.sock.recv_into(buffer)
        if count and self.waiting:
            self.request_started()
            self._deadline = time.monotonic() + self._limits.request_timeout
        return count

    def drop(self) -> None:
        """Close the connection under its thread's feet: a blocked read returns end of file at once."""
        self.dropped = True
        with contextlib.suppress(OSError):
            self.sock.shutdown(socket.SHUT_RDWR)


@dataclass
class _Waiting:
    sock: socket.socket
    address: Any
    since: float


class Connections:
    """The page server's connections: at most `limits.max_connections` with a thread, `limits.max_waiting`
    waiting for one.

    `refuse_with` gives the whole answer for a connection refused over the cap.
    """

    def __init__(self, limits: Limits, refuse_with: Callable[[], bytes]) -> None:
        self.limits = limits
        self._refuse_with = refuse_with
        self._lock = threading.Lock()
        self._open: dict[socket.socket, Connection] = {}
        self._waiting: collections.deque[_Waiting] = collections.deque()

    def admit(self, sock: socket.socket, address: Any) -> bool:
        """On the accepting thread: True if the new connection gets a thread now; else it waits (or, the
        waiting room full, it is refused at once)."""
        with self._lock:
            if len(self._open) < self.limits.max_connections:
                self._open[sock] = Connection(sock, self.limits, self._lock, time.monotonic())
                return True
            full = len(self._waiting) >= self.limits.max_waiting
            if not full:
                self._waiting.append(_Waiting(sock, address, time.monotonic()))
                self._make_room()
        if full:
            refuse(sock, self._refuse_with())
        return False

    def of(self, sock: socket.socket) -> Connection:
        with self._lock:
            return self._open[sock]

    def hand_over(self, sock: socket.socket) -> tuple[socket.socket, Any] | None:
        """`sock`'s thread is done with it (it is not closed yet): the connection waiting longest, now
        given that thread, if one waits."""
        with self._lock:
            self._open.pop(sock, None)
            if not self._waiting:
                return None
            following = self._waiting.popleft()
            self._open[following.sock] = Connection(following.sock, self.limits, self._lock, following.since)
            return following.sock, following.address

    def tend(self) -> None:
        """On the accepting thread, every moment: refuse those that waited too long, or that wait without
        a word (a phone sends its request at once), then drop idle connections for those still waiting."""
        with self._lock:
            now = time.monotonic()
            expired = [w for w in self._waiting if w.since <= now - self.limits.idle_timeout
                       or (w.since <= now - SILENT_AFTER and not _has_input(w.sock))]
            for entry in expired:
                self._waiting.remove(entry)
            self._make_room()
        for entry in expired:
            refuse(entry.sock, self._refuse_with())

    def _make_room(self) -> None:
        """Drop as many idle connections (`Connection.droppable`) as wait for a thread (the lock held)."""
        wanted = len(self._waiting) - sum(c.dropped for c in self._open.values())
        if wanted <= 0:
            return
        now = time.monotonic()
        idle = sorted((c for c in self._open.values() if c.droppable(now)), key=lambda c: c.waiting_since)
        for connection in idle:
            if wanted <= 0:
                break
            if not _has_input(connection.sock):  # its request may be just in
                connection.drop()
                wanted -= 1

    def release(self, sock: socket.socket) -> None:
        """Forget `sock`, before it is closed (so that no drop reaches a reused descriptor)."""
        with self._lock:
            self._open.pop(sock, None)

    def close_all(self) -> None:
        with self._lock:
            for connection in self._open.values():
                connection.drop()
            waiting, self._waiting = list(self._waiting), collections.deque()
        for entry in waiting:
            entry.sock.close()


def refuse(sock: socket.socket, answer: bytes) -> None:
    """Send `answer` without ever waiting (this is the accepting thread), and close the connection."""
    try:
        sock.setblocking(False)
        sock.send(answer)  # a short answer fits whole in any connection's empty send buffer
        discard_unread(sock)
        sock.shutdown(socket.SHUT_WR)
    except OSError:
        pass
    finally:
        sock.close()


def discard_unread(sock: socket.socket) -> None:
    """Read and drop, without waiting, what the phone sent and nobody will read, before the socket closes:
    a close with unread input sends a reset, which can wipe the answer before the phone reads it."""
    left = UNREAD_DISCARDED
    try:
        sock.setblocking(False)
        while left > 0 and (chunk := sock.recv(min(left, 16384))):
            left -= len(chunk)
    except OSError:
        pass


def _has_input(sock: socket.socket) -> bool:
    """Whether `sock` has bytes (or its end) to read now; a closed socket counts as busy, never as idle."""
    try:
        poller = select.poll()
        poller.register(sock, select.POLLIN)
        return bool(poller.poll(0))
    except (OSError, ValueError):
        return True
