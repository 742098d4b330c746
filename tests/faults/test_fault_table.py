"""Faults during a game at a running table: a reader unplugged and replugged, the broker killed and
restarted, a phone's connection cut, the wall clock jumping. Each with nothing lost and the status the
screen shows (the `StatusBoard` the kiosk's status bar draws) telling the table what is happening.
Real parts: the PN532 emulator over a pty, real brokers, a real SQLite file; the clock is injected."""

from __future__ import annotations

import logging
import queue
import signal
import socket
import threading
from pathlib import Path

import pytest

from companion.config import Config, ReaderConfig, ReadersConfig, StorageConfig
from companion.core.contract import Player, Setup
from companion.core.eventlog import EventLog
from companion.core.referee import Outcome, Referee
from companion.games import registry
from companion.phones.mosquitto import ManagedMosquitto
from companion.status import DeviceStatus, StatusBoard
from companion.table.clock import SteadyClock
from companion.table.loop import Table
from companion.taps.registry import registry_path
from companion.taps.starter import start_readers
from hardware.events import DeviceEvent, TagPlaced, TagRemoved
from hardware.pn532.emulator import Emulator
from tests.kits.phones_kit import BROKERS, Running, as_sent, joined, running_table
from tests.phones.test_phones_restart import send_until_answered
from tests.taps.test_tap_to_referee import DICE, enroll_box

WAIT = 15.0


class Watch:
    """Every status the board is set to, in order, for waiting on a device's state."""

    def __init__(self, board: StatusBoard) -> None:
        self.board, self.seen = board, queue.Queue[DeviceStatus]()
        self._last: dict[tuple[str, str], DeviceStatus] = {}
        board.listen(self._changed)
        self._changed()

    def _changed(self) -> None:
        for s in self.board.snapshot():
            if self._last.get((s.kind, s.name)) != s:
                self._last[(s.kind, s.name)] = s
                self.seen.put(s)

    def until(self, kind: str, state: str, count: int | None = -1) -> DeviceStatus:
        while True:
            s = self.seen.get(timeout=WAIT)
            if s.kind == kind and s.state == state and (count == -1 or s.count == count):
                return s


def put(table: Table, raw: dict[str, object]) -> Outcome:
    done: queue.Queue[Outcome] = queue.Queue()
    table.put(raw, done.put)
    return done.get(timeout=WAIT)


# -- the clock -------------------------------------------------------------------------------------------


class FakeTime:
    def __init__(self) -> None:
        self.wall, self.mono = 1_795_000_000 * 10**9, 5 * 10**9

    def step(self, seconds: float, wall_jump: float = 0) -> None:
        self.mono += int(seconds * 1e9)
        self.wall += int((seconds + wall_jump) * 1e9)


def test_the_wall_clock_jumping_forward_or_back_neither_ends_nor_stretches_a_timer(
    tmp_path: Path, caplog: pytest.LogCaptureFixture,
) -> None:
    """NTP setting a Pi's clock mid-game: timers count real seconds (docs/faults.md)."""
    t = FakeTime()
    setup = Setup("toolkit", (Player("ana", "Ana"), Player("ben", "Ben")), {}, seed=3)
    table = Table(Referee.start(registry(), EventLog(tmp_path / "g.sqlite3"), setup, created_at=0),
                  clock=SteadyClock(lambda: t.wall, lambda: t.mono))
    host = {"by": "host", "args": {"name": "night"}}
    assert table.handle({**host, "move": "timer.create", "args": {"name": "night", "seconds": 60}}).accepted
    assert table.handle({**host, "move": "timer.start"}).accepted

    def expired() -> bool:
        return any(ev.input.move == "timer.expire" for ev in table.referee.events)

    with caplog.at_level(logging.WARNING, logger="companion.table.clock"):
        t.step(10, wall_jump=+6 * 3600)  # NTP after boot: six hours forward
        table.tick()
        assert not expired()
        t.step(10, wall_jump=-24 * 3600)  # set back a day
        table.tick()
        assert not expired()
    assert sum("wall clock moved" in r.message for r in caplog.records) == 2  # each jump noted once
    t.step(39)
    table.tick()
    assert not expired()  # 59 real seconds
    t.step(1.5)
    table.tick()
    assert expired()  # 60.5 real seconds: the minute is up, whatever the wall clock says
    assert table.referee.log.integrity_ok()
    table.referee.log.close()


# -- a reader ----------------------------------------------------------------------------------------------


def test_a_reader_unplugged_mid_game_shows_missing_the_game_goes_on_and_taps_count_again_once_back(
    tmp_path: Path,
) -> None:
    log_path = tmp_path / "companion.sqlite3"
    enroll_box(registry_path(log_path))
    setup = Setup("toolkit", (Player("ana", "Ana"), Player("ben", "Ben")), {}, seed=5)
    table = Table(Referee.start(registry(), EventLog(log_path), setup, created_at=0))
    devices: queue.Queue[DeviceEvent] = queue.Queue()
    table.device_handlers.append(devices.put)  # runs on the main loop, just before the tap router
    loop = threading.Thread(target=table.run, name="main-loop", daemon=True)
    loop.start()
    board = StatusBoard()

    def tapped(uid: str) -> None:
        """Wait until the main loop has handled the tap of `uid` (then one round trip through the inbox)."""
        while not (isinstance(ev := devices.get(timeout=WAIT), TagPlaced) and ev.uid == uid):
            pass
        put(table, {"by": "host", "move": "no.such.move", "args": {}})
    watch = Watch(board)
    with Emulator(tmp_path / "pn532") as emu:
        cfg = Config(storage=StorageConfig(path=log_path),
                     readers=ReadersConfig(devices=(ReaderConfig(name="pn532", driver="pn532", port=str(emu.link)),),
                                           simulate="never"))  # type: ignore[arg-type]
        readers = start_readers(table, cfg, board)
        assert readers is not None
        try:
            watch.until("reader", "ok")
            emu.place(DICE)
            tapped(DICE)
            rolls = lambda: [ev for ev in table.referee.events if ev.input.move == "dice.roll"]  # noqa: E731
            assert put(table, {"by": "host", "move": "counter.create", "args": {"name": "hp"}}).accepted
            assert len(rolls()) == 1
            emu.unplug()
            assert watch.until("reader", "missing").name == "pn532"  # the status bar's reader dot turns red
            for k in range(3):  # the table plays on from phones and the console meanwhile
                assert put(table, {"by": "host", "move": "counter.adjust",
                                   "args": {"name": "hp", "player": "ana", "delta": -1}, "id": f"u{k}"}).accepted
            emu.remove()
            emu.plug()
            watch.until("reader", "ok")
            while not isinstance(devices.get(timeout=WAIT), TagRemoved):  # the dice left while it was away
                pass
            emu.place(DICE)  # a tap after the replug reaches the referee
            tapped(DICE)
            assert len(rolls()) == 2
            assert [ev.input.id for ev in table.referee.events if (ev.input.id or "").startswith("u")] == [
                "u0", "u1", "u2"]
        finally:
            readers.stop()
            table.stop()
            loop.join(WAIT)
    stored = [ev.input.move for ev in EventLog(log_path).events(table.referee.game_id)]
    assert stored == [ev.input.move for ev in table.referee.events]
    table.referee.log.close()


# -- the broker and a phone ------------------------------------------------------------------------------


def kill_broker(run: Running) -> None:
    """A crash, not a clean stop: SIGKILL for Mosquitto."""
    broker = run.phones.broker
    assert isinstance(broker, ManagedMosquitto)
    proc = broker._proc
    assert proc is not None
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    broker.stop()


@pytest.mark.slow
@pytest.mark.parametrize("broker", BROKERS)
def test_the_broker_killed_and_restarted_and_a_phone_cut_off_lose_nothing_and_show_on_the_status_bar(
    tmp_path: Path, broker: str,
) -> None:
    with running_table(tmp_path, broker) as run:
        watch = Watch(run.status)
        t = run.phones.topics
        host, ana = joined(run, "host"), joined(run, "ana")
        got, _ = send_until_answered(run, host, "host", "h1", "counter.create", {"name": "gold", "players": ["ana"]})
        assert got["ok"]

        kill_broker(run)
        watch.until("broker", "searching")  # the status bar: the broker's dot turns amber
        for k in range(3):  # the console and readers go on while phones cannot
            assert put(run.table, {"by": "host", "move": "counter.adjust",
                                   "args": {"name": "gold", "player": "ana", "delta": 1}, "id": f"c{k}"}).accepted
        run.phones.broker.start()
        run.phones.broker.set_game(run.phones.game)
        watch.until("broker", "ok")
        # Both phones come back on their own and are given the views they missed.
        view = as_sent(run.referee, "player:ana")
        ana.wait_for(lambda m: m.topic == t.view(run.cred("ana").user) and m.json() == view)
        public = as_sent(run.referee, "public")
        host.wait_for(lambda m: m.topic == t.public and m.json() == public)

        # Ana's Wi-Fi drops: her connection is cut with no goodbye; she comes back and plays on.
        sock = ana.client.socket()
        assert isinstance(sock, socket.socket)
        sock.shutdown(socket.SHUT_RDWR)
        got, _ = send_until_answered(run, ana, "ana", "a1", "counter.adjust", {"name": "gold", "delta": 5})
        assert got["ok"]
        gold = run.referee.view("player:ana")["private"]["counters"]["gold"]
        assert gold == 3 + 5
        ids = [ev.input.id for ev in run.referee.log.events(run.referee.game_id)]
        assert ids == ["h1", "c0", "c1", "c2", "a1"]  # each once, in order, in the file
        host.close()
        ana.close()
