"""What one oversized MQTT packet costs each broker: its process's memory before and after.

Run from the repository root::

    python bench/bench_broker_packet_limit.py [--mb 100] [--brokers embedded,mosquitto]

Each broker runs as a process of its own (the embedded amqtt broker in a child Python process, as the
companion runs it but alone, so its memory can be read from /proc; Mosquitto managed as the companion
runs it). A player's credential then sends, one attack after the other: over TCP a PUBLISH whose fixed
header announces `--mb` MB, its body streamed in 64 KiB writes until the broker closes the connection;
the same over WebSockets (one WebSocket message per write); over TCP a valid CONNECT whose header
announces `--mb` MB. After each: how much of the body went out before the broker closed (the kernel's
socket buffers hold a few MB of it), the broker's RSS and peak RSS (VmRSS, VmHWM), and whether a phone
can still connect. Prints markdown; asserts nothing.
"""

from __future__ import annotations

import argparse
import json
import socket
import struct
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect as ws_connect
from websockets.typing import Subprotocol

from companion.phones.credentials import Credential, GameCredentials
from companion.phones.embedded import EmbeddedBroker
from companion.phones.mosquitto import ManagedMosquitto
from companion.phones.runner import free_port
from companion.phones.topics import Topics

PREFIX = "bench"
CHUNK = 64 * 1024
TIMEOUT_S = 10.0


# -- the wire (a few MQTT 3.1.1 packets written by hand) --------------------------------------------------


def _length(n: int) -> bytes:
    out = bytearray()
    while True:
        byte, n = n % 128, n // 128
        out.append(byte | (0x80 if n else 0))
        if not n:
            return bytes(out)


def _string(s: str) -> bytes:
    return struct.pack("!H", len(s.encode())) + s.encode()


def _connect_body(cred: Credential) -> bytes:
    return (_string("MQTT") + bytes([4, 0xC2]) + struct.pack("!H", 30)
            + _string(cred.user) + _string(cred.user) + _string(cred.password))


def connect_packet(cred: Credential, announced: int | None = None) -> bytes:
    body = _connect_body(cred)
    return b"\x10" + _length(len(body) if announced is None else announced) + body


def publish_head(topic: str, payload_bytes: int) -> bytes:
    head = _string(topic)
    return b"\x30" + _length(len(head) + payload_bytes) + head


def _send_all(send: Callable[[bytes], None], head: bytes, body_bytes: int) -> int:
    """Body bytes sent before the broker closed the connection (all of them if it never did)."""
    chunk = bytes(CHUNK)
    sent = 0
    try:
        send(head)
        while sent < body_bytes:
            n = min(CHUNK, body_bytes - sent)
            send(chunk[:n])
            sent += n
    except (OSError, ConnectionClosed):
        pass
    return sent


def _tcp(port: int) -> socket.socket:
    return socket.create_connection(("127.0.0.1", port), timeout=TIMEOUT_S)


def tcp_publish(port: int, cred: Credential, topic: str, body_bytes: int) -> int:
    with _tcp(port) as sock:
        sock.sendall(connect_packet(cred))
        if sock.recv(4)[:1] != b"\x20":
            raise SystemExit("the player's CONNECT was refused")
        return _send_all(sock.sendall, publish_head(topic, body_bytes), body_bytes)


def tcp_connect(port: int, cred: Credential, body_bytes: int) -> int:
    with _tcp(port) as sock:
        body = _connect_body(cred)
        return _send_all(sock.sendall, connect_packet(cred, len(body) + body_bytes), body_bytes)


def ws_publish(ws_port: int, cred: Credential, topic: str, body_bytes: int) -> int:
    with ws_connect(f"ws://127.0.0.1:{ws_port}/mqtt", subprotocols=[Subprotocol("mqtt")],
                    open_timeout=TIMEOUT_S, close_timeout=1) as ws:
        ws.socket.setsockopt(socket.SOL_SOCKET, socket.SO_SNDTIMEO, struct.pack("ll", int(TIMEOUT_S), 0))
        ws.send(connect_packet(cred))
        reply = ws.recv(TIMEOUT_S)
        if not isinstance(reply, bytes) or reply[:1] != b"\x20":
            raise SystemExit("the player's CONNECT was refused")
        return _send_all(ws.send, publish_head(topic, body_bytes), body_bytes)


def phone_connects(port: int, cred: Credential) -> bool:
    with _tcp(port) as sock:
        sock.sendall(connect_packet(cred))
        return sock.recv(4) == b"\x20\x02\x00\x00"


# -- the brokers --------------------------------------------------------------------------------------------


def serve_embedded() -> None:
    """Child: an embedded broker for the game on stdin's first line, until stdin closes."""
    cfg = json.loads(sys.stdin.readline())
    game = GameCredentials(cfg["table"], cfg["game"], {p: Credential(*c) for p, c in cfg["players"].items()},
                           Credential(*cfg["host"]), (), cfg["referee"])
    broker = EmbeddedBroker(PREFIX, "127.0.0.1", cfg["port"], cfg["ws_port"], game.referee_password)
    broker.start()
    broker.set_game(game)
    print("ready", flush=True)
    sys.stdin.read()
    broker.stop()


def memory_mib(pid: int) -> tuple[float, float]:
    """(VmRSS, VmHWM) of a process, in MiB."""
    fields = dict(line.split(":", 1) for line in Path(f"/proc/{pid}/status").read_text().splitlines() if ":" in line)
    return int(fields["VmRSS"].split()[0]) / 1024, int(fields["VmHWM"].split()[0]) / 1024


def start(kind: str, game: GameCredentials, port: int, ws_port: int) -> tuple[int, Callable[[], None]]:
    if kind == "mosquitto":
        mosq = ManagedMosquitto(PREFIX, "127.0.0.1", port, ws_port, game.referee_password)
        mosq.start()
        mosq.set_game(game)
        assert mosq._proc is not None
        return mosq._proc.pid, mosq.close
    cfg: dict[str, Any] = {"table": game.table, "game": game.game, "referee": game.referee_password,
                           "players": {p: [c.user, c.password] for p, c in game.players.items()},
                           "host": [game.host.user, game.host.password], "port": port, "ws_port": ws_port}
    child = subprocess.Popen([sys.executable, __file__, "--serve-embedded"], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, text=True)
    assert child.stdin is not None and child.stdout is not None
    child.stdin.write(json.dumps(cfg) + "\n")
    child.stdin.flush()
    if child.stdout.readline().strip() != "ready":
        raise SystemExit("the embedded broker did not start")

    def stop() -> None:
        assert child.stdin is not None
        child.stdin.close()
        child.wait(30)

    return child.pid, stop


def run(kind: str, body_bytes: int) -> list[dict[str, Any]]:
    game = GameCredentials.issue("t1", 1, ["ana", "ben"])
    ana, ben = game.players["ana"], game.players["ben"]
    topic = Topics(PREFIX, game.table).cmd(ana.user)
    port, ws_port = free_port(), free_port()
    pid, stop = start(kind, game, port, ws_port)
    rows = []
    try:
        attacks: list[tuple[str, Callable[[], int]]] = [
            ("TCP PUBLISH", lambda: tcp_publish(port, ana, topic, body_bytes)),
            ("WebSocket PUBLISH", lambda: ws_publish(ws_port, ana, topic, body_bytes)),
            ("TCP CONNECT", lambda: tcp_connect(port, ana, body_bytes)),
        ]
        for name, attack in attacks:
            rss_before, _ = memory_mib(pid)
            sent = attack()
            rss_after, peak = memory_mib(pid)
            rows.append({"attack": name, "sent": sent, "rss_before": rss_before, "rss_after": rss_after,
                         "peak": peak, "serving": phone_connects(port, ben)})
    finally:
        stop()
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=int, default=100, help="the size each oversized packet announces (MB)")
    parser.add_argument("--brokers", default="embedded,mosquitto", help="which brokers, comma-separated")
    args = parser.parse_args(argv)
    body_bytes = args.mb * 1000 * 1000
    print(f"One {args.mb} MB packet per attack, a player's credential, brokers on 127.0.0.1.\n")
    print("| broker | attack | body sent before the broker closed (MB) | RSS before (MiB) | RSS after (MiB) "
          "| peak RSS so far (MiB) | a phone still connects |")
    print("|---|---|---|---|---|---|---|")
    for kind in args.brokers.split(","):
        for row in run(kind, body_bytes):
            closed = f"{row['sent'] / 1e6:.1f}" if row["sent"] < body_bytes else f"all {args.mb} (never closed)"
            print(f"| {kind} | {row['attack']} | {closed} | {row['rss_before']:.1f} | {row['rss_after']:.1f} "
                  f"| {row['peak']:.1f} | {'yes' if row['serving'] else 'NO'} |")
    return 0


if __name__ == "__main__":
    if sys.argv[1:2] == ["--serve-embedded"]:
        serve_embedded()
    else:
        sys.exit(main())
