"""End to end over real pseudo-terminals: an emulator's tag -> the driver -> the table's inbox -> the tap
router on the main loop -> the token registry (a real SQLite file) -> the game's on_token -> the referee.
For both readers: the PN532 (our HSU driver) and the reader board (firmware_protocol), started by the
same starter `companion run` uses."""

from __future__ import annotations

import queue
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from companion.config import Config, ReaderConfig, ReadersConfig, StorageConfig
from companion.core.contract import Player, Setup
from companion.core.eventlog import EventLog
from companion.core.inputs import Input
from companion.core.referee import Outcome, Referee
from companion.core.rejection import Rejected
from companion.games import registry as games
from companion.status import StatusBoard
from companion.table.loop import Table
from companion.table.views import Views
from companion.taps.registry import Registry, Token, registry_path
from companion.taps.starter import RunningReaders, start_readers
from firmware_protocol.emulator import BoardEmulator
from hardware.events import DeviceEvent, ReaderStatus, TagRemoved
from hardware.pn532.control import send
from hardware.pn532.emulator import Emulator

WAIT = 10.0
DICE, TIMER, ANA, STRANGER, NOBODY_TIMER, OTHER_GAME = (
    "DEADBEEF", "04A1B2C3D4E5F6", "11223344", "0A0B0C0D", "55667788", "99AABBCC")


@dataclass
class Screen:
    """The table's screen as the router sees it: a TapSink and an Output, recording what it is told."""

    told: queue.Queue[tuple[str, object]] = field(default_factory=queue.Queue)
    inputs: queue.Queue[Input] = field(default_factory=queue.Queue)
    threads: set[str] = field(default_factory=set)  # where it was called from: only the main loop
    in_booth: str | None = None  # the player the screen has identified (the booth)
    table: Table | None = None  # the table it is an output of (its log says which input was accepted)

    def identified_player(self) -> str | None:
        return self.in_booth

    def use_registry(self, registry: Registry | None) -> None:
        """Lent the registry, as the kiosk is; this screen enrolls nothing."""

    def player_tapped(self, player_id: str) -> None:
        self.threads.add(threading.current_thread().name)
        self.told.put(("player", player_id))

    def unknown_tag(self, uid: str, reader: str) -> None:
        self.threads.add(threading.current_thread().name)
        self.told.put(("unknown", (uid, reader)))

    def token_refused(self, token_label: str, reason: Rejected) -> None:
        self.threads.add(threading.current_thread().name)
        self.told.put(("refused", (token_label, reason.code)))

    def changed(self, views: Views, outcomes: list[Outcome]) -> None:
        self.threads.add(threading.current_thread().name)
        assert self.table is not None
        for outcome in outcomes:
            if outcome.accepted and outcome.seq is not None:
                self.inputs.put(self.table.referee.events[outcome.seq - 1].input)

    def next_input(self) -> Input:
        return self.inputs.get(timeout=WAIT)

    def next_told(self) -> tuple[str, object]:
        return self.told.get(timeout=WAIT)


@dataclass
class Running:
    table: Table
    screen: Screen
    readers: RunningReaders
    devices: queue.Queue[DeviceEvent]

    def wait_for(self, kind: type, reader: str | None = None, uid: str | None = None) -> DeviceEvent:
        while True:
            event = self.devices.get(timeout=WAIT)
            if isinstance(event, kind) and (reader is None or getattr(event, "reader", None) == reader) and (
                uid is None or getattr(event, "uid", None) == uid
            ):
                return event

    def host(self, move: str, **args: object) -> Outcome:
        done: queue.Queue[Outcome] = queue.Queue()
        self.table.put({"by": "host", "move": move, "args": args}, done.put)
        return done.get(timeout=WAIT)


def enroll_box(path: Path) -> None:
    with Registry(path) as reg:
        for uid, game, kind, token_id, label in (
            (DICE, "toolkit", "dice", "2d6", "Two dice"),
            (TIMER, "toolkit", "timer", "round", "Round clock"),
            (ANA, "toolkit", "player", "ana", "Ana's meeple"),
            (NOBODY_TIMER, "toolkit", "timer", "nosuch", "Lost clock"),
            (OTHER_GAME, "lockdown", "item", "key", "Brass key"),
        ):
            reg.enroll(Token(uid, game, kind, token_id, label))


@pytest.fixture
def table_for(tmp_path: Path) -> Iterator[object]:
    started: list[tuple[Running, threading.Thread]] = []

    def start(devices: tuple[ReaderConfig, ...], simulate: str = "never") -> Running:
        log_path = tmp_path / "companion.sqlite3"
        cfg = Config(storage=StorageConfig(path=log_path),
                     readers=ReadersConfig(devices=devices, simulate=simulate))  # type: ignore[arg-type]
        enroll_box(registry_path(log_path))
        setup = Setup("toolkit", (Player("ana", "Ana"), Player("ben", "Ben")), {}, seed=5)
        table = Table(Referee.start(games(), EventLog(log_path), setup, created_at=0))
        screen = Screen(table=table)
        table.outputs.append(screen)
        devices: queue.Queue[DeviceEvent] = queue.Queue()
        table.device_handlers.append(devices.put)  # the test watches every event the main loop handles
        loop = threading.Thread(target=table.run, name="main-loop", daemon=True)
        loop.start()
        status = StatusBoard()
        readers = start_readers(table, cfg, status, screen)
        assert readers is not None
        running = Running(table, screen, readers, devices)
        started.append((running, loop))
        return running

    yield start
    for running, loop in started:
        running.readers.stop()
        running.table.stop()
        loop.join(WAIT)
        running.table.referee.log.close()


def test_pn532_tap_to_referee_input(table_for: object, tmp_path: Path) -> None:
    with Emulator(tmp_path / "pn532") as emu:
        run = table_for((ReaderConfig(name="pn532", driver="pn532", port=str(emu.link)),))  # type: ignore[operator]
        assert run.wait_for(ReaderStatus, "pn532").state in ("ok",)
        assert run.host("timer.create", name="round", seconds=60).accepted
        assert run.screen.next_input().move == "timer.create"

        emu.place(DICE)
        roll = run.screen.next_input()
        assert (roll.move, roll.by, dict(roll.args)) == ("dice.roll", "table", {"count": 2, "sides": 6})
        assert run.table.referee.state["rolls"][-1]["by"] == "table"

        emu.place(TIMER)  # replaces the dice on the reader
        tap = run.screen.next_input()
        assert (tap.move, dict(tap.args)) == ("timer.tap", {"name": "round"})
        assert run.table.referee.state["timers"]["round"]["running"]
        emu.remove()
        run.wait_for(TagRemoved, uid=TIMER)
        emu.place(TIMER)  # tapped again after it left: pauses
        assert run.screen.next_input().move == "timer.tap"
        assert not run.table.referee.state["timers"]["round"]["running"]
        assert run.screen.inputs.empty()
        assert run.screen.threads == {"main-loop"}  # routing never ran on a reader thread


def test_a_token_tapped_in_the_booth_acts_for_the_identified_player(table_for: object, tmp_path: Path) -> None:
    with Emulator(tmp_path / "pn532") as emu:
        run = table_for((ReaderConfig(name="pn532", driver="pn532", port=str(emu.link)),))  # type: ignore[operator]
        run.wait_for(ReaderStatus)
        run.screen.in_booth = "ben"
        emu.place(DICE)
        assert run.screen.next_input().by == "player:ben"


def test_unknown_tags_prompt_and_make_no_input(table_for: object, tmp_path: Path) -> None:
    with Emulator(tmp_path / "pn532") as emu:
        run = table_for((ReaderConfig(name="pn532", driver="pn532", port=str(emu.link)),))  # type: ignore[operator]
        run.wait_for(ReaderStatus)
        events_before = len(run.table.referee.events)
        emu.place(STRANGER)
        assert run.screen.next_told() == ("unknown", (STRANGER, "pn532"))
        assert len(run.table.referee.events) == events_before
        assert run.screen.inputs.empty()


def test_figures_refusals_and_other_games(table_for: object, tmp_path: Path) -> None:
    with Emulator(tmp_path / "pn532") as emu:
        run = table_for((ReaderConfig(name="pn532", driver="pn532", port=str(emu.link)),))  # type: ignore[operator]
        run.wait_for(ReaderStatus)
        emu.place(ANA)
        assert run.screen.next_told() == ("player", "ana")  # the booth opens; no input
        emu.place(NOBODY_TIMER)
        assert run.screen.next_told() == ("refused", ("Lost clock", "reject.no_such"))
        emu.place(OTHER_GAME)
        assert run.screen.next_told() == ("refused", ("Brass key", "reject.token_other_game"))
        assert run.screen.inputs.empty()
        assert [ev.input.move for ev in run.table.referee.events] == []
        assert run.screen.threads == {"main-loop"}


def test_reader_board_tap_to_referee_input(table_for: object, tmp_path: Path) -> None:
    board = BoardEmulator(str(tmp_path / "board0"), readers=2)
    board.plug()
    try:
        run = table_for((ReaderConfig(name="board0", driver="board", port=board.path),))  # type: ignore[operator]
        assert run.wait_for(ReaderStatus, "board0").state == "ok"
        board.place(1, DICE, "mifare_classic")
        roll = run.screen.next_input()
        assert (roll.move, roll.by, dict(roll.args)) == ("dice.roll", "table", {"count": 2, "sides": 6})
        board.place(0, STRANGER, "mifare_classic")
        assert run.screen.next_told() == ("unknown", (STRANGER, "board0"))
        assert run.screen.inputs.empty()
        assert run.screen.threads == {"main-loop"}
    finally:
        board.close()


def test_a_simulated_reader_is_tapped_through_its_control_socket(table_for: object) -> None:
    # what `bash systemd/run-here.sh` gets on a laptop: no /dev/serial0, so an emulator stands in
    run = table_for((ReaderConfig(name="pn532", driver="pn532", port="/nonexistent/serial0"),),  # type: ignore[operator]
                    simulate="auto")
    control = run.readers.readers.controls["pn532"]
    run.wait_for(ReaderStatus, "pn532")
    assert send(control.path, f"place {DICE}").startswith("placed")
    assert run.screen.next_input().move == "dice.roll"


def test_device_events_join_the_inbox_in_order_and_a_failing_handler_is_skipped(tmp_path: Path) -> None:
    setup = Setup("toolkit", (Player("ana", "Ana"),), {}, seed=1)
    table = Table(Referee.start(games(), EventLog(tmp_path / "t.sqlite3"), setup, created_at=0))
    seen: list[object] = []

    def broken(event: DeviceEvent) -> None:
        raise RuntimeError("a bug in one handler")

    table.device_handlers += [broken, seen.append]
    first, second = TagRemoved("r", 0, "AA"), ReaderStatus("r", "ok")
    table.put_device(first)
    table.put({"by": "host", "move": "dice.roll", "args": {}}, lambda outcome: seen.append(outcome.accepted))
    table.put_device(second)
    table.stop()
    table.run()
    assert seen == [first, True, second]
    table.referee.log.close()
