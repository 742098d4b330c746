"""A whole table as `companion run` wires it, for the game-night tests (tests/night/, issue 21).

A real `Config` (state directory, the managed Mosquitto on free ports, the phone page, one simulated PN532
reader, no GPIO), the table on a real SQLite file, the kiosk on SDL's dummy driver built as
`companion run` builds it (`kiosk.engine.build`, `settings_from`), and every feature started by the
wiring's own `start_features` with the kiosk's feed as the screen. The table's loop runs on a thread,
as in `run_with_table`; the kiosk's loop is stepped on the test's thread, so a test can look at its
screens between turns. What a person does goes in only by the kiosk's SDL events, the phone page in
Chromium and the simulated reader's control socket (`tap_tag`).

The referee's seed is fixed (`open_table` draws one at random), and so is the seed of every game the
host starts from the kiosk (`Table.new_seed`), so that a failing night can be played again and a demo
script's game can be chosen and seated on the kiosk; everything else is as `companion run` has it.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion import config as configuration
from companion.core.contract import Player, Setup
from companion.core.eventlog import EventLog
from companion.core.referee import Referee
from companion.core.rejection import Rejected
from companion.games import registry
from companion.kiosk.demo import demo_script
from companion.kiosk.engine import build, open_display, settings_from
from companion.kiosk.kiosk import Kiosk
from companion.kiosk.presses import InputClock
from companion.status import StatusBoard
from companion.table.clock import Clock
from companion.table.loop import Table
from companion.wiring import Started, start_features
from hardware.events import TagPlaced, TagRemoved
from hardware.pn532.control import send
from tests.kits.phone_page_kit import scan

HANG_S = 30  # the longest the kit waits for the table's loop before it calls it hung (a guard, no timing)
GUARD_TURNS = 3000  # kiosk turns to wait for something before the kit gives up (a hang guard, no timing)


HOST_PIN = "2580"  # the host menu's lock on a night table (docs/kiosk.md, "The host lock")


@dataclass
class Night:
    cfg: configuration.Config
    table: Table
    kiosk: Kiosk
    started: Started
    thread: threading.Thread
    taps: list[str] = field(default_factory=list)  # every uid tapped on the simulated reader
    devices: list[Any] = field(default_factory=list)  # what the readers told the table's loop
    looks: list[Callable[[], None]] = field(default_factory=list)  # called after each turn and settle

    @property
    def game(self) -> str:
        return self.table.referee.setup.game

    @property
    def players(self) -> list[str]:
        return [p.id for p in self.table.referee.setup.players]

    def turn(self) -> None:
        """One turn of the kiosk's loop: wait until woken or due, handle what arrived, redraw."""
        self.kiosk.step()
        self._look()

    def _look(self) -> None:
        for look in self.looks:  # what a test checks on each screen the kiosk drew (its layout)
            look()

    def settle(self) -> None:
        """The kiosk handles and draws every message the table has sent it so far. (The table tells its
        outputs before it answers an input, so once an answer has arrived its views are here too.)"""
        feed = self.kiosk.feed
        assert feed is not None
        self.kiosk.process()
        while not feed.inbox.empty():
            self.kiosk.process()
        self._look()

    def sync(self) -> None:
        """Wait until the table's loop has handled everything queued before now (its inbox is in order),
        then let the kiosk draw what it was told. The marker put in is no input: the table answers it
        before it reaches the referee."""
        handled = threading.Event()
        self.table.put(Rejected("reject.malformed", problem="a test's marker"), lambda _outcome: handled.set())
        assert handled.wait(HANG_S), "the table's loop never handled its inbox"
        self.settle()

    def until(self, done: Any, what: str) -> None:
        """Turns of the kiosk's loop until `done()`."""
        for _ in range(GUARD_TURNS):
            if done():
                return
            self.turn()
        raise AssertionError(f"never happened: {what}")

    def tap_tag(self, uid: str) -> None:
        """A tag laid on the simulated reader and lifted again (its emulator's control socket, as
        `python -m hardware.pn532 --send SOCK place UID` does)."""
        readers = self.started.readers
        assert readers is not None, "no reader runs"
        control = next(iter(readers.readers.controls.values()))
        said = send(control.path, f"place {uid}")
        assert said.startswith("placed"), said
        self.taps.append(uid)
        self.until(lambda: self._seen(TagPlaced, uid), f"the tap of {uid} reached the table")
        send(control.path, "remove")  # lifted: gone for the reader's repeat window, so the next tap is new
        self.until(lambda: self._seen(TagRemoved, uid), f"{uid} was lifted")
        self.devices.clear()
        self.settle()

    def _seen(self, kind: type[TagPlaced] | type[TagRemoved], uid: str) -> bool:
        return any(isinstance(e, kind) and e.uid == uid for e in self.devices)

    def join_urls(self) -> dict[str, str]:
        """Each seat's join link as a phone camera reads it off its QR code (the host's too), once the
        kiosk shows the codes of the game on its screen (a new game's come up when the broker has them)."""
        phones = self.started.phones
        assert phones is not None and phones.page_url is not None, "the phone page is not served"
        seats = self.kiosk.settings.seats
        assert seats is not None
        self.until(lambda: not seats.codes_coming(self.kiosk.public.get("number")), "the game's codes came up")
        return {seat: scan(link) for seat, link in phones.links().items()}

    def accepted(self) -> list[Any]:
        """Every input the SQLite file holds for this game, read back from the file."""
        log = self.table.referee.log
        return list(log.events(self.table.referee.game_id))


def config_for(state: Path, game: str, players: list[str], options: dict[str, Any],
               lang: str = "en") -> configuration.Config:
    """The configuration a host would write for the night: the game, its seats and options."""
    flags = {"storage.path": str(state / "companion.sqlite3"), "table.language": lang,
             "game.default": game, "game.players": players, "game.options": options,
             "display.driver": "dummy", "display.size": "800x480", "display.enabled": True,
             "mqtt.broker": "mosquitto", "mqtt.port": 0, "mqtt.ws_port": 0, "mqtt.page_port": 0,
             "mqtt.page_host": "127.0.0.1", "readers.simulate": "always", "gpio.enabled": False,
             "kiosk.host_pin": HOST_PIN}
    return configuration.load(flags=flags, env={}, system_path=None, user_path=None)


@contextlib.contextmanager
def night(state: Path, game: str, players: list[str], options: dict[str, Any], seed: int = 21,
          lang: str = "en", names: dict[str, str] | None = None, clock: Clock | None = None) -> Iterator[Night]:
    """The table running `game` for `players` (named `names`, else by their ids) with `options`, on its
    setup's first screen; its clock is `clock` when given (a script's time), else `companion run`'s."""
    cfg = config_for(state, game, players, options, lang)
    state.mkdir(parents=True, exist_ok=True)
    log = EventLog(cfg.storage.path, synchronous=cfg.storage.synchronous)
    named = names or {}
    setup = Setup(game, tuple(Player(p, named.get(p, p.title())) for p in players), dict(cfg.game.options),
                  seed=seed)
    referee = Referee.start(registry(), log, setup, created_at=clock.now_ms() if clock else 0)
    again = lambda: seed  # noqa: E731  (a game the host starts from the kiosk gets the night's seed too)
    table = Table(referee, clock=clock, new_seed=again) if clock is not None else Table(referee, new_seed=again)
    status = StatusBoard()
    surface = open_display(cfg.display.size, cfg.display.fullscreen, "dummy")
    settings = settings_from(cfg)
    settings.options = dict(cfg.game.options)
    settings.demo_script = demo_script(game)
    # the kiosk's input clock moves only as the kit's finger lets time pass (tests/kits/night_kiosk.py)
    kiosk = build(surface, table, registry(), settings, status, input_clock=InputClock(monotonic=False))
    assert kiosk.feed is not None
    started = start_features(table, cfg, status, screen=kiosk.feed)
    devices: list[Any] = []
    table.device_handlers.append(devices.append)  # after the tap router: a tap seen here has been routed
    kiosk.settings.seats = started.seats(cfg.table.language)
    thread = threading.Thread(target=table.run, name="table", daemon=True)
    thread.start()
    run = Night(cfg, table, kiosk, started, thread, devices=devices)
    try:
        assert started.phones is not None and started.phones.phones.mirror.connected.wait(15), "no mirror"
        run.settle()
        yield run
    finally:
        table.stop()
        thread.join(15)
        started.stop()
        kiosk.close()
        log.close()
