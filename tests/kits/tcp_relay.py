"""A TCP relay a test puts between a client and the broker, to cut that one link and bring it back.

Real sockets, one thread per direction. `cut()` closes every relayed connection and refuses new ones
(accepted and closed at once, as a dead link answers), until `restore()`; what the broker and the other
clients see is a client whose TCP connection dropped. `cut_count` says how many were closed.
`freeze()` is a phone whose Wi-Fi went away: every connection stays open but nothing passes either way
(new ones are accepted and hear nothing), until `restore()`, which closes the frozen ones (their bytes
in between are lost) and relays again.
"""

from __future__ import annotations

import contextlib
import socket
import threading
from collections.abc import Iterator


class Relay:
    def __init__(self, target_host: str, target_port: int) -> None:
        self.target = (target_host, target_port)
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = int(self.listener.getsockname()[1])
        self._lock = threading.Lock()
        self._open: list[socket.socket] = []
        self._cut = False
        self._frozen = threading.Event()
        self.cut_count = 0
        self.accepted = 0
        self._accepted = threading.Condition(self._lock)
        self._thread = threading.Thread(target=self._accept, name="relay", daemon=True)
        self._thread.start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            with self._lock:
                if self._cut:
                    client.close()
                    continue
                if self._frozen.is_set():  # silent: kept open, nothing answered
                    self._open.append(client)
                    continue
            try:
                upstream = socket.create_connection(self.target, timeout=5)
            except OSError:
                client.close()
                continue
            upstream.settimeout(None)
            with self._lock:
                self._open += [client, upstream]
                self.accepted += 1
                self._accepted.notify_all()
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pump, args=(a, b), daemon=True).start()

    def _pump(self, src: socket.socket, dst: socket.socket) -> None:
        try:
            while data := src.recv(65536):
                if not self._frozen.is_set():
                    dst.sendall(data)
        except OSError:
            pass
        for s in (src, dst):
            with contextlib.suppress(OSError):
                s.shutdown(socket.SHUT_RDWR)

    def wait_accepted(self, count: int, timeout: float) -> bool:
        """Wait until `count` connections have been relayed in all."""
        with self._accepted:
            return self._accepted.wait_for(lambda: self.accepted >= count, timeout)

    def cut(self) -> None:
        with self._lock:
            self._cut = True
            sockets, self._open = self._open, []
        for s in sockets:
            with contextlib.suppress(OSError):
                s.shutdown(socket.SHUT_RDWR)
            s.close()
        self.cut_count += len(sockets) // 2

    def freeze(self) -> None:
        self._frozen.set()

    def restore(self) -> None:
        if self._frozen.is_set():
            self.cut()  # what was frozen is broken: its peers reconnect
            self._frozen.clear()
        with self._lock:
            self._cut = False

    def close(self) -> None:
        self.cut()
        self.listener.close()


@contextlib.contextmanager
def relay(host: str, port: int) -> Iterator[Relay]:
    r = Relay(host, port)
    try:
        yield r
    finally:
        r.close()
