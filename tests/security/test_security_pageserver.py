"""The phone page server against a hostile client on the table's Wi-Fi: connections that say nothing or
dribble a request byte by byte are closed after a bounded time; a cap holds the number of threads
whatever a client opens (connections over it wait for a thread without one, then get 503); request
lines and headers are bounded; every answer, refusals included, carries the page's security headers.
A real server on 127.0.0.1, raw sockets, no sleeps: the tests wait on socket reads with timeouts."""

from __future__ import annotations

import contextlib
import selectors
import socket
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.phones.pageserver import HEADERS, PageServer

GENEROUS = 20.0  # seconds a test waits for the server to close a socket; never reached when it works
GET = b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
FEW = 2  # threads beyond the cap: the process's others, starting or ending meanwhile


@contextlib.contextmanager
def serving(**limits: Any) -> Iterator[PageServer]:
    server = PageServer("127.0.0.1", 0, **limits).start()
    try:
        yield server
    finally:
        server.stop()


def connect(server: PageServer) -> socket.socket:
    return socket.create_connection(("127.0.0.1", server.port), timeout=GENEROUS)


@dataclass
class Answer:
    status: int
    headers: dict[str, str]
    body: bytes


def read_answer(sock: socket.socket, head: bool = False) -> Answer | None:
    """One HTTP answer read off `sock` (its body by Content-Length unless it answers a HEAD), or None if it
    closed first."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = _recv(sock)
        if not chunk:
            assert data == b"", f"the connection closed inside an answer: {data[:200]!r}"
            return None
        data += chunk
    top, _, body = data.partition(b"\r\n\r\n")
    status_line, *lines = top.decode("latin-1").split("\r\n")
    assert status_line.startswith("HTTP/1."), status_line
    headers = {name.strip().lower(): value.strip() for name, _, value in (line.partition(":") for line in lines)}
    while not head and len(body) < int(headers.get("content-length", "0")):
        chunk = _recv(sock)
        if not chunk:
            break
        body += chunk
    return Answer(int(status_line.split()[1]), headers, body)


def _recv(sock: socket.socket) -> bytes:
    try:
        return sock.recv(65536)
    except ConnectionResetError:
        return b""


def ask(server: PageServer, request: bytes) -> Answer | None:
    with connect(server) as sock:
        sock.sendall(request)
        return read_answer(sock, head=request.startswith(b"HEAD "))


def closed_by_server(sock: socket.socket, within: float = GENEROUS) -> bool:
    """Whether the server closes `sock` within `within` seconds (what it sends meanwhile is read and dropped)."""
    sock.settimeout(within)
    try:
        while sock.recv(65536):
            pass
    except TimeoutError:
        return False
    except ConnectionResetError:
        pass
    return True


def unsecured(answer: Answer) -> dict[str, str | None]:
    """The security headers `answer` lacks or carries with another value."""
    return {name: answer.headers.get(name.lower()) for name, value in HEADERS.items()
            if answer.headers.get(name.lower()) != value}


def test_two_hundred_idle_connections_do_not_make_two_hundred_threads() -> None:
    with serving(max_connections=8, max_waiting=16, idle_timeout=60) as server:
        before = threading.active_count()
        idle, peak = [], before
        try:
            for _ in range(200):
                idle.append(connect(server))
                peak = max(peak, threading.active_count())
            assert peak <= before + 8 + FEW, f"{peak - before} threads for 200 idle connections"
            over = 200 - 8  # refused over the cap and its waiting room, or once silent for seconds
            with selectors.DefaultSelector() as waiting:
                for sock in idle:
                    waiting.register(sock, selectors.EVENT_READ)
                closed = 0
                while closed < over and (ready := waiting.select(GENEROUS)):
                    for key, _ in ready:
                        assert closed_by_server(key.fileobj)  # type: ignore[arg-type]
                        waiting.unregister(key.fileobj)
                        closed += 1
            assert closed >= over, f"only {closed} of the {over} idle connections over the cap were closed"
            answer = ask(server, GET)  # a phone loading the page while 8 idle ones are still open
            assert answer is not None and answer.status == 200 and b"<html" in answer.body
            assert max(peak, threading.active_count()) <= before + 8 + FEW
        finally:
            for sock in idle:
                sock.close()


def test_over_the_cap_a_phone_waits_without_a_thread_and_beyond_its_waiting_room_gets_503() -> None:
    with serving(max_connections=4, max_waiting=4, idle_timeout=60, request_timeout=60) as server:
        before = threading.active_count()
        slow = [connect(server) for _ in range(4)]
        queued = [connect(server) for _ in range(4)]
        try:
            for sock in slow:
                sock.sendall(b"GET /")  # a request under way: busy, not an idle connection to drop
            for sock in queued:
                sock.sendall(GET)
            for _ in range(20):  # the cap and the waiting room are full
                answer = ask(server, GET)
                assert answer is not None and answer.status == 503, answer
                assert unsecured(answer) == {}
                assert answer.headers["connection"] == "close" and answer.headers["retry-after"]
                assert answer.body.strip()
            assert threading.active_count() <= before + 4 + FEW
            for sock in slow:
                sock.close()
            for sock in queued:  # the threads freed serve those that waited
                answer = read_answer(sock)
                assert answer is not None and answer.status == 200
            answer = ask(server, GET)  # all 4 threads hold kept-alive connections: the idlest is dropped
            assert answer is not None and answer.status == 200
            with selectors.DefaultSelector() as kept:
                for sock in queued:
                    kept.register(sock, selectors.EVENT_READ)
                dropped = [key.fileobj for key, _ in kept.select(GENEROUS)]
            assert dropped and all(closed_by_server(sock) for sock in dropped)  # type: ignore[arg-type]
            assert threading.active_count() <= before + 4 + FEW
        finally:
            for sock in slow + queued:
                sock.close()


def test_a_phone_waiting_for_a_thread_is_answered_503_after_the_idle_timeout() -> None:
    with serving(max_connections=1, idle_timeout=0.5, request_timeout=60) as server, \
            connect(server) as slow, connect(server) as queued:
        slow.sendall(b"GET /")
        queued.sendall(GET)
        answer = read_answer(queued)
        assert answer is not None and answer.status == 503 and unsecured(answer) == {}


def test_an_idle_connection_is_closed_and_a_kept_alive_one_too_once_idle() -> None:
    with serving(idle_timeout=0.5) as server, connect(server) as silent, connect(server) as phone:
        for _ in range(2):  # one connection, two requests: HTTP/1.1 keep-alive
            phone.sendall(GET)
            answer = read_answer(phone)
            assert answer is not None and answer.status == 200
        assert closed_by_server(silent), "a connection that never sent a byte was kept open"
        assert closed_by_server(phone), "an idle kept-alive connection was kept open"


def test_a_slowloris_is_closed_while_a_phone_is_served_meanwhile() -> None:
    with serving(idle_timeout=1, request_timeout=1) as server, connect(server) as loris:
        request = b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: " + b"a" * 2_000
        received, closed = b"", False
        for sent, byte in enumerate(request):
            try:
                loris.sendall(bytes([byte]))
            except (BrokenPipeError, ConnectionResetError):
                closed = True
                break
            if sent == 5:
                answer = ask(server, GET)
                assert answer is not None and answer.status == 200
            loris.settimeout(0.01)  # the pace of the dribble: one byte unless the server closes first
            try:
                chunk = loris.recv(65536)
            except TimeoutError:
                continue
            except ConnectionResetError:
                chunk = b""
            received += chunk
            if not chunk:
                closed = True
                break
        assert closed, "a request dribbled byte by byte was never closed"
        assert b"200 OK" not in received


ERRORS = {
    b"GET /nope HTTP/1.1\r\nHost: x\r\n\r\n": 404,
    b"HEAD /nope HTTP/1.1\r\nHost: x\r\n\r\n": 404,
    b"POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n": 501,
    b"PUT /clock HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n": 501,
    b"DELETE / HTTP/1.1\r\nHost: x\r\n\r\n": 501,
    b"BREW / HTTP/1.1\r\nHost: x\r\n\r\n": 501,
    b"GET / HTTP/9.x\r\n\r\n": 400,
    b"GET / HTTP/1.1 extra\r\n\r\n": 400,
    b"GET / HTTP/2.0\r\n\r\n": 505,
    b"GET /\r\n\r\n": 400,  # HTTP/0.9: its answers carry no headers at all, so it is not served
    b"\x00\xff\xfe garbage\r\n\r\n": 400,
    b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03 \r\n\r\n": 400,  # a TLS hello to the plain-http port
}


def test_every_error_answer_carries_every_security_header() -> None:
    with serving() as server:
        wrong: dict[bytes, object] = {}
        for request, status in ERRORS.items():
            answer = ask(server, request)
            if answer is None or answer.status != status or unsecured(answer):
                wrong[request] = None if answer is None else (answer.status, unsecured(answer))
        assert wrong == {}


@pytest.mark.parametrize(("request_bytes", "status"), [
    (b"GET /" + b"a" * 9_000 + b" HTTP/1.1\r\nHost: x\r\n\r\n", 414),
    (b"GET /" + b"a" * 200_000 + b" HTTP/1.1\r\nHost: x\r\n\r\n", 414),
    (b"GET / HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 20_000 + b"\r\n\r\n", 431),
    (b"GET / HTTP/1.1\r\nHost: x\r\n" + b"".join(b"X-%d: %s\r\n" % (i, b"a" * 200) for i in range(90)) + b"\r\n",
     431),
    (b"GET / HTTP/1.1\r\nHost: x\r\n" + b"X: a\r\n" * 200 + b"\r\n", 431),
])
def test_a_huge_request_line_or_header_gets_a_clear_refusal_with_the_headers(request_bytes: bytes,
                                                                            status: int) -> None:
    with serving() as server:
        answer = ask(server, request_bytes)
        assert answer is not None and answer.status == status and unsecured(answer) == {}
        assert answer.headers["connection"] == "close"
        answer = ask(server, GET)
        assert answer is not None and answer.status == 200


@pytest.fixture(scope="module")
def fuzzed() -> Iterator[PageServer]:
    with serving(idle_timeout=2, request_timeout=2) as server:
        yield server


unspaced = st.binary(max_size=200).map(lambda b: b.translate(None, b" \t\r\n\x0b\x0c"))
hostile = st.one_of(
    st.binary(max_size=400),  # garbage
    st.builds(lambda path: b"GET /" + path + b" HTTP/1.1\r\nHost: x", unspaced),  # any bytes as the path
    st.builds(lambda name, value: b"GET / HTTP/1.1\r\n" + name + b": " + value,
              unspaced, st.binary(max_size=200).map(lambda b: b.replace(b"\n", b""))),
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(request=hostile)
def test_garbage_and_invalid_utf8_get_an_answer_with_the_headers_or_a_close(fuzzed: PageServer,
                                                                          request: bytes) -> None:
    answer = ask(fuzzed, request + b"\r\n\r\n")
    if answer is not None:  # nothing comes back for an empty request line: the connection just closes
        assert answer.status in (200, 400, 404, 414, 431, 501, 505) and unsecured(answer) == {}
    answer = ask(fuzzed, GET)
    assert answer is not None and answer.status == 200
