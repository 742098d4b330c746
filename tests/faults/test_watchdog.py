"""sd_notify and the watchdog (issue 7), against a real unix datagram socket standing in for systemd's:
`companion run` says READY=1 and feeds WATCHDOG=1 while its loops turn, STOPPING=1 on the way out; a
hung main loop stops the feed. A killed MQTT mirror thread (issue 16) stops the feed too, shows on the
status board and the kiosk's status bar, and is restarted, against both real brokers."""

from __future__ import annotations

import ctypes
import json
import os
import queue
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.config import Config
from companion.core.contract import Player, Setup
from companion.core.eventlog import EventLog
from companion.core.referee import Referee
from companion.drawing.text import TextCache
from companion.games import registry as games
from companion.kiosk.scenes import make_scene
from companion.kiosk.widgets import DANGER
from companion.phones.mirror import THREAD_STOPPED
from companion.phones.runner import start_phones
from companion.status import DeviceStatus, StatusBoard
from companion.table.loop import Table
from companion.watchdog import Notifier, Watchdog, start_notify, watchdog_seconds
from hardware.events import DeviceEvent, ReaderStatus, TagPlaced
from tests.kits.kiosk_fixtures import surface, text, text_cache
from tests.kits.phones_kit import BROKERS, Phone

__all__ = ["text", "text_cache"]

WAIT = 20.0
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def systemd(tmp_path: Path) -> Iterator[tuple[socket.socket, str]]:
    """The listening end of $NOTIFY_SOCKET (a short path: unix socket names are limited to 107 bytes)."""
    path = f"/tmp/companion-notify-{os.getpid()}-{threading.get_ident()}.sock"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(path)
    sock.settimeout(WAIT)
    try:
        yield sock, path
    finally:
        sock.close()
        os.unlink(path)


def messages(sock: socket.socket, until: str) -> list[str]:
    """Datagrams received up to and including the first one holding the line `until`."""
    got = []
    while True:
        text = sock.recv(4096).decode()
        got.append(text)
        if until in text.split("\n"):
            return got


def test_companion_run_says_ready_feeds_the_watchdog_and_says_stopping(systemd: tuple[socket.socket, str],
                                                                       tmp_path: Path) -> None:
    sock, path = systemd
    env = {k: v for k, v in os.environ.items() if not k.startswith(("COMPANION_", "WATCHDOG_", "NOTIFY_"))}
    env.update(NOTIFY_SOCKET=path, WATCHDOG_USEC="2000000", HOME=str(tmp_path), PYTHONPATH=str(ROOT),
               COMPANION_READERS__DEVICES="[]", COMPANION_GPIO__ENABLED="false", SDL_VIDEODRIVER="",
               # the phones' broker and page on free ports: READY comes after them too
               COMPANION_MQTT__BROKER="mosquitto", COMPANION_MQTT__PORT="0", COMPANION_MQTT__WS_PORT="0",
               COMPANION_MQTT__PAGE_PORT="0")
    proc = subprocess.Popen([sys.executable, "-m", "companion", "run", "--no-display", "--db",
                             str(tmp_path / "game.sqlite3")], stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, env=env, cwd=tmp_path, text=True)
    try:
        first = messages(sock, "READY=1")
        assert first == ["READY=1\nSTATUS=table table1: running"]
        assert messages(sock, "WATCHDOG=1") == ["WATCHDOG=1"]  # fed by the table's loop, unprompted
        assert messages(sock, "WATCHDOG=1") == ["WATCHDOG=1"]  # and again
        assert proc.stdin is not None
        proc.stdin.close()  # end of input: the session ends
        rest = messages(sock, "STOPPING=1")
        assert set(rest) <= {"WATCHDOG=1", "STOPPING=1"} and rest[-1] == "STOPPING=1"
        assert proc.wait(timeout=WAIT) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_a_hung_table_loop_stops_the_feed_and_a_live_one_resumes_it(systemd: tuple[socket.socket, str]) -> None:
    sock, path = systemd
    now = [0.0]
    table = Table(Referee.start(games(), EventLog(":memory:"), Setup("toolkit", (Player("ana", "Ana"),), {}, seed=1),
                                created_at=0))
    watchdog = Watchdog(Notifier(path), period_s=2.0, loops=("table", "kiosk"), clock=lambda: now[0])
    turned = threading.Semaphore(0)
    table.turn_hooks += [lambda: watchdog.beat("table"), turned.release]
    entered, release = threading.Event(), threading.Event()

    def hang(event: DeviceEvent) -> None:  # a device handler that never returns: the main loop hangs
        if isinstance(event, TagPlaced):
            entered.set()
            release.wait(WAIT)

    table.device_handlers.append(hang)
    done = threading.Event()
    thread = threading.Thread(target=table.run, kwargs={"until": done}, name="table", daemon=True)
    thread.start()
    try:
        assert turned.acquire(timeout=WAIT)
        now[0] = 1.5
        watchdog.beat("kiosk")
        assert sock.recv(100) == b"WATCHDOG=1"  # both loops turned: fed
        table.put_device(TagPlaced("pn532", 0, "04A1B2C3D4E5F6", "ntag"))
        assert entered.wait(WAIT)
        for second in range(3, 30):  # the kiosk keeps turning for half a minute; the table's loop does not
            now[0] = float(second)
            watchdog.beat("kiosk")
        Notifier(path).send("STATUS=probe")
        assert sock.recv(100) == b"STATUS=probe"  # nothing was sent before it: no feed while hung
        release.set()  # the loop comes back
        assert turned.acquire(timeout=WAIT)
        table.put_device(ReaderStatus("pn532", "ok"))
        assert turned.acquire(timeout=WAIT)
        watchdog.beat("kiosk")
        assert sock.recv(100) == b"WATCHDOG=1"
        assert watchdog.fed == 2
    finally:
        release.set()
        done.set()
        table.stop()
        thread.join(timeout=WAIT)
        table.referee.log.close()


def test_feeds_are_at_most_every_half_period(systemd: tuple[socket.socket, str]) -> None:
    sock, path = systemd
    now = [100.0]
    watchdog = Watchdog(Notifier(path), period_s=10.0, loops=("table",), clock=lambda: now[0])
    for t in (100.0, 101.0, 104.9, 105.0, 109.0, 110.0):
        now[0] = t
        watchdog.beat("table")
    Notifier(path).send("END=1")
    assert messages(sock, "END=1") == ["WATCHDOG=1", "WATCHDOG=1", "WATCHDOG=1", "END=1"]  # at 100, 105, 110


def test_watchdog_period_and_owner_come_from_the_environment() -> None:
    assert watchdog_seconds({"WATCHDOG_USEC": "30000000"}) == 30.0
    assert watchdog_seconds({"WATCHDOG_USEC": "30000000", "WATCHDOG_PID": "42"}, pid=42) == 30.0
    assert watchdog_seconds({"WATCHDOG_USEC": "30000000", "WATCHDOG_PID": "41"}, pid=42) is None  # another's
    assert watchdog_seconds({}) is None and watchdog_seconds({"WATCHDOG_USEC": "0"}) is None
    assert Notifier.from_env({}) is None and Notifier.from_env({"NOTIFY_SOCKET": "relative"}) is None
    abstract = Notifier.from_env({"NOTIFY_SOCKET": "@companion/notify"})
    assert abstract is not None and abstract.address == "\0companion/notify"
    abstract.close()


def test_abstract_namespace_socket_receives_too() -> None:
    name = f"companion-test-{os.getpid()}"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind("\0" + name)
    sock.settimeout(WAIT)
    try:
        notifier = Notifier.from_env({"NOTIFY_SOCKET": "@" + name})
        assert notifier is not None and notifier.send("READY=1")
        assert sock.recv(100) == b"READY=1"
        notifier.close()
    finally:
        sock.close()


def test_nobody_listening_is_logged_once_and_does_not_raise(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    notifier = Notifier(str(tmp_path / "gone.sock"))
    assert notifier.send("WATCHDOG=1") is False and notifier.send("WATCHDOG=1") is False
    assert len([r for r in caplog.records if "sd_notify" in r.getMessage()]) == 1
    notifier.close()


def test_with_a_screen_the_kiosk_loop_is_watched_too(systemd: tuple[socket.socket, str], text: TextCache,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """The starter is handed the kiosk's loop (as `companion run` hands it): the feed needs both loops."""
    sock, path = systemd
    monkeypatch.setenv("NOTIFY_SOCKET", path)
    monkeypatch.setenv("WATCHDOG_USEC", "2000000")
    monkeypatch.delenv("WATCHDOG_PID", raising=False)
    scene = make_scene(surface("800x480"), text, "en")
    assert scene.kiosk.feed is not None
    running = start_notify(scene.table, Config(), StatusBoard(), loops={"kiosk": scene.kiosk.feed.turn_hooks})
    assert running is not None
    try:
        assert messages(sock, "READY=1")[-1].startswith("READY=1")
        for _ in range(3):
            for hook in list(scene.table.turn_hooks):  # the table's loop turns; the kiosk's has not yet
                hook()
        Notifier(path).send("STATUS=probe")
        assert sock.recv(100) == b"STATUS=probe"
        scene.kiosk.waker.wake()
        scene.kiosk.step()  # one turn of the kiosk's loop
        assert sock.recv(100) == b"WATCHDOG=1"
    finally:
        running.stop()
        assert messages(sock, "STOPPING=1") == ["STOPPING=1"]
        assert scene.table.turn_hooks == [] and scene.kiosk.feed is not None and scene.kiosk.feed.turn_hooks == []
        scene.close()


class MovedClock:
    """The table's clock (ms) and the watchdog's (s) in one, moved by the test."""

    def __init__(self) -> None:
        self.s = 0.0

    def now_ms(self) -> int:
        return int(self.s * 1000)

    def __call__(self) -> float:
        return self.s


def kill(thread: threading.Thread) -> None:
    """End a running thread from outside, as an exception raised inside it would (SystemExit: quietly)."""
    assert thread.ident is not None
    assert ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(thread.ident), ctypes.py_object(SystemExit)) == 1
    thread.join(WAIT)
    assert not thread.is_alive()


@pytest.mark.filterwarnings("ignore::pytest.PytestUnhandledThreadExceptionWarning")  # the killed thread
@pytest.mark.parametrize("broker", BROKERS)
def test_a_killed_mirror_thread_stops_the_feed_shows_on_the_status_and_comes_back(
        systemd: tuple[socket.socket, str], tmp_path: Path, broker: str, monkeypatch: pytest.MonkeyPatch) -> None:
    sock, path = systemd
    monkeypatch.setenv("NOTIFY_SOCKET", path)
    monkeypatch.setenv("WATCHDOG_USEC", "2000000")  # fed at most every 1 s (by the test's clock)
    monkeypatch.delenv("WATCHDOG_PID", raising=False)
    clock = MovedClock()
    setup = Setup("toolkit", (Player("ana", "Ana"), Player("ben", "Ben")), {}, seed=7)
    table = Table(Referee.start(games(), EventLog(tmp_path / "game.sqlite3"), setup, created_at=0), clock=clock)
    status = StatusBoard()
    boards: queue.Queue[dict[str, DeviceStatus]] = queue.Queue()
    status.listen(lambda: boards.put({s.kind: s for s in status.snapshot()}))
    phones = start_phones(table, broker=broker, status=status, state_dir=tmp_path)
    running = start_notify(table, Config(), status, clock=clock,  # the last starter, as in `companion run`
                           threads={"mirror": phones.mirror.alive})
    assert running is not None
    turned = threading.Semaphore(0)
    table.turn_hooks.append(turned.release)
    thread = threading.Thread(target=table.run, name="table", daemon=True)
    thread.start()

    def turns(n: int) -> None:
        """Wait until the table's loop has turned `n` more times after now (a device event wakes it)."""
        while turned.acquire(blocking=False):
            pass
        for _ in range(n):
            table.put_device(ReaderStatus("pn532", "ok"))
            assert turned.acquire(timeout=WAIT)

    def broker_becomes(state: str) -> DeviceStatus:
        while True:
            entry = boards.get(timeout=WAIT).get("broker")
            if entry is not None and entry.state == state:
                return entry

    try:
        assert phones.mirror.connected.wait(WAIT)
        assert messages(sock, "READY=1")[-1].startswith("READY=1")
        assert messages(sock, "WATCHDOG=1") == ["WATCHDOG=1"]  # at 0 s: loop turning, mirror alive
        cred = phones.game.players["ben"]
        ben = Phone(phones.address.host, phones.address.port, cred.user, cred.password)
        assert not ben.connect().is_failure
        ben.subscribe(phones.topics.status, phones.topics.reply(cred.user))
        assert ben.wait_for(lambda m: m.topic == phones.topics.status).payload == b"online"
        network = phones.mirror._client._thread  # paho's network thread
        assert network is not None and phones.mirror.alive()
        kill(network)
        assert not phones.mirror.alive()

        clock.s = 1.0  # a feed is due, and the mirror's next look
        dead = broker_becomes("error")
        assert (dead.name, dead.detail) == (broker, THREAD_STOPPED)
        turns(2)
        Notifier(path).send("STATUS=probe")
        assert sock.recv(100) == b"STATUS=probe"  # the loop turned, the feed was due: none was sent
        assert ben.wait_for(lambda m: m.topic == phones.topics.status).payload == b"offline"  # phones are told

        clock.s = 2.0  # the next look: a new client
        turns(2)
        assert sock.recv(100) == b"WATCHDOG=1"  # fed again
        assert phones.mirror.alive() and phones.mirror.restarts == 1
        assert broker_becomes("ok").name == broker
        assert ben.wait_for(lambda m: m.topic == phones.topics.status).payload == b"online"
        ben.publish(phones.topics.cmd(cred.user), json.dumps({"id": "b1", "move": "dice.roll"}))
        answer = ben.wait_for(lambda m: m.topic == phones.topics.reply(cred.user)).json()
        assert answer["id"] == "b1" and answer["ok"]  # phones are answered again
        ben.close()
    finally:
        running.stop()
        table.stop()
        thread.join(WAIT)
        phones.stop()
        table.referee.log.close()


def test_a_broker_in_error_shows_as_a_red_dot_on_the_kiosks_status_bar(text: TextCache) -> None:
    scene = make_scene(surface("800x480"), text, "en")
    try:
        k = scene.kiosk

        def reds() -> int:
            k.process()
            k.render()
            bar = k.surface.subsurface(k.layout.status_bar())
            return sum(1 for x in range(bar.get_width()) for y in range(bar.get_height())
                       if bar.get_at((x, y))[:3] == DANGER[:3])

        assert reds() == 0  # every device ok
        k.status.set(DeviceStatus("broker", "mosquitto", "error", detail=THREAD_STOPPED))
        assert reds() > 0
        k.status.set(DeviceStatus("broker", "mosquitto", "ok"))
        assert reds() == 0
    finally:
        scene.close()
