"""Hand-written MQTT 3.1.1 packets for hostile-client tests: what paho will not send.

A CONNECT with any will (topic, retain, QoS), a connection dropped without DISCONNECT (so the broker
sends the will), and a packet whose fixed header announces 100 MB while its body is streamed in small
chunks until the broker closes the connection. Over TCP (`Wire`) or WebSockets (`WsWire`).
"""

from __future__ import annotations

import socket
import struct
import time
from collections.abc import Iterator
from dataclasses import dataclass

from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection
from websockets.sync.client import connect as ws_connect
from websockets.typing import Subprotocol

CONNECT, CONNACK, PUBLISH, PUBACK, SUBSCRIBE, SUBACK = 1, 2, 3, 4, 8, 9
ACCEPTED, NOT_AUTHORIZED = 0, 5
CHUNK = 64 * 1024


def remaining_length(n: int) -> bytes:
    out = bytearray()
    while True:
        byte, n = n % 128, n // 128
        out.append(byte | (0x80 if n else 0))
        if not n:
            return bytes(out)


def string(s: str | bytes) -> bytes:
    data = s.encode() if isinstance(s, str) else s
    return struct.pack("!H", len(data)) + data


@dataclass(frozen=True)
class Will:
    topic: str
    payload: bytes
    qos: int = 1
    retain: bool = False


def connect_body(client_id: str, user: str, password: str, will: Will | None = None, keepalive: int = 30,
                 clean: bool = True) -> bytes:
    flags = 0x80 | 0x40 | (0x02 if clean else 0)  # user name, password, clean session
    payload = string(client_id)
    if will is not None:
        flags |= 0x04 | (will.qos << 3) | (0x20 if will.retain else 0)
        payload += string(will.topic) + string(will.payload)
    payload += string(user) + string(password)
    return string("MQTT") + bytes([4, flags]) + struct.pack("!H", keepalive) + payload


def packet(kind: int, flags: int, body: bytes, length: int | None = None) -> bytes:
    """A packet's bytes; `length` announces another remaining length than the body's (a lie)."""
    return bytes([kind << 4 | flags]) + remaining_length(len(body) if length is None else length) + body


def publish_head(topic: str, payload_bytes: int, qos: int = 0) -> bytes:
    """A PUBLISH's fixed header and topic, announcing `payload_bytes` of payload still to come."""
    head = string(topic) + (b"\x00\x01" if qos else b"")
    return packet(PUBLISH, qos << 1, head, len(head) + payload_bytes)


def subscribe(topic: str, qos: int = 1, packet_id: int = 1) -> bytes:
    return packet(SUBSCRIBE, 0x02, struct.pack("!H", packet_id) + string(topic) + bytes([qos]))


def puback(packet_id: int) -> bytes:
    return packet(PUBACK, 0, struct.pack("!H", packet_id))


@dataclass(frozen=True)
class Received:
    """One packet the broker sent: its type, flags and body; for a PUBLISH its topic, id and payload."""

    kind: int
    flags: int
    body: bytes

    @property
    def qos(self) -> int:
        return self.flags >> 1 & 3

    @property
    def topic(self) -> str:
        return self.body[2:2 + struct.unpack("!H", self.body[:2])[0]].decode()

    @property
    def packet_id(self) -> int | None:
        start = 2 + len(self.topic.encode())
        return struct.unpack("!H", self.body[start:start + 2])[0] if self.qos else None

    @property
    def payload(self) -> bytes:
        return self.body[2 + len(self.topic.encode()) + (2 if self.qos else 0):]


def read_exactly(wire: Wire, n: int) -> bytes | None:
    out = b""
    while len(out) < n:
        more = wire.recv(n - len(out))
        if not more:
            return None
        out += more
    return out


def read_packet(wire: Wire) -> Received | None:
    """The next whole packet the broker sent, or None once the connection closed."""
    first = read_exactly(wire, 1)
    if first is None:
        return None
    length, shift = 0, 0
    while True:
        byte = read_exactly(wire, 1)
        if byte is None:
            return None
        length |= (byte[0] & 0x7F) << shift
        shift += 7
        if not byte[0] & 0x80:
            break
    body = read_exactly(wire, length) if length else b""
    return None if body is None else Received(first[0] >> 4, first[0] & 0x0F, body)


def zeros(n: int) -> Iterator[bytes]:
    chunk = bytes(CHUNK)
    while n > 0:
        yield chunk[: min(n, CHUNK)]
        n -= CHUNK


class Wire:
    """One TCP connection to a broker, written to byte by byte as the test says; `receive_buffer`
    shrinks the socket's receive buffer (a phone that stops reading fills it sooner)."""

    def __init__(self, host: str, port: int, timeout: float, receive_buffer: int | None = None) -> None:
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        if receive_buffer is not None:
            self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
        self.sock.settimeout(timeout)
        self.sock.connect((host, port))

    def send(self, data: bytes) -> bool:
        """False once the broker has closed the connection."""
        try:
            self.sock.sendall(data)
        except OSError:  # reset, broken pipe, or no progress within the timeout
            return False
        return True

    def recv(self, n: int) -> bytes:
        try:
            return self.sock.recv(n)
        except OSError:
            return b""

    def drop(self) -> None:
        """Close without DISCONNECT: to the broker the connection was lost, so it sends the will."""
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))  # RST, at once
        self.sock.close()

    def close(self) -> None:
        self.sock.close()


class WsWire(Wire):
    """One MQTT-over-WebSocket connection; each `send` is one binary WebSocket message."""

    def __init__(self, host: str, port: int, timeout: float) -> None:  # no super(): that opens a TCP socket
        self.timeout = timeout
        self.ws: ClientConnection = ws_connect(f"ws://{host}:{port}/mqtt", subprotocols=[Subprotocol("mqtt")],
                                               open_timeout=timeout, close_timeout=timeout)
        self.sock = self.ws.socket
        # a send that makes no progress fails (the broker stopped reading): SO_SNDTIMEO, as websockets'
        # own reading thread must keep a blocking socket
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDTIMEO, struct.pack("ll", int(timeout), 0))
        self._buffer = b""

    def send(self, data: bytes) -> bool:
        try:
            self.ws.send(data)
        except (ConnectionClosed, OSError):
            return False
        return True

    def send_message(self, fragments: Iterator[bytes]) -> bool:
        """One WebSocket message, sent as fragments: the broker learns its size only as it arrives."""
        try:
            self.ws.send(fragments)
        except (ConnectionClosed, OSError):
            return False
        return True

    def recv(self, n: int) -> bytes:
        if not self._buffer:
            try:
                message = self.ws.recv(self.timeout)
            except (ConnectionClosed, OSError, TimeoutError):
                return b""
            self._buffer = message.encode() if isinstance(message, str) else message
        out, self._buffer = self._buffer[:n], self._buffer[n:]
        return out

    def closed(self) -> bool:
        deadline = time.monotonic() + self.timeout  # overall: a broker that keeps sending is not closed
        try:
            while time.monotonic() < deadline:
                self.ws.recv(max(0.0, deadline - time.monotonic()))
            return False
        except ConnectionClosed:
            return True
        except TimeoutError:
            return False

    def close(self) -> None:
        self.ws.close()


def connack(wire: Wire) -> int | None:
    """The CONNACK's return code, or None if the broker closed the connection without one."""
    head = wire.recv(2)
    while len(head) == 1:
        more = wire.recv(1)
        if not more:
            return None
        head += more
    if len(head) < 2 or head[0] >> 4 != CONNACK:
        return None
    body = b""
    while len(body) < 2:
        more = wire.recv(2 - len(body))
        if not more:
            return None
        body += more
    return body[1]


def stream(wire: Wire, head: bytes, body_bytes: int) -> int:
    """Send `head` then `body_bytes` zero bytes; how many body bytes went out before the broker closed
    the connection (`body_bytes` if it never did)."""
    if not wire.send(head):
        return 0
    sent = 0
    for chunk in zeros(body_bytes):
        if not wire.send(chunk):
            return sent
        sent += len(chunk)
    return sent


def closed(wire: Wire) -> bool:
    """Whether the broker has closed the connection (reads until EOF; a timeout counts as open)."""
    if isinstance(wire, WsWire):
        return wire.closed()
    try:
        while wire.sock.recv(CHUNK):
            pass
    except ConnectionError:
        return True
    except (TimeoutError, OSError):
        return False
    return True
