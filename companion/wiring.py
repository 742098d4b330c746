"""The wiring of `companion run`: which outputs and starters a table (companion/table/) gets, in which
order, and what each is handed. It sits beside the table package, not in it: the outputs build on the
table and the wiring on the outputs (no loop between folders). Nothing is found by looking among the
table's outputs or among what has started: the screen, the loops and the threads a starter needs are
handed to it by name.

The outputs, in the order the table tells them after a change (each attaches itself as it starts):

1. the console (companion/console.py): the public announcements, on standard output;
2. the kiosk's feed (companion/kiosk/feed.py), when there is a screen: the views it draws;
3. the MQTT mirror (companion/phones/mirror.py), when a broker runs: every seat's view for the phones;
4. with a hall (`[hall].url`), the hall's results and seating (companion/hall/table/), on the mirror's
   connection;
5. the buttons' view tap (companion/gpio/starter.py), on a Pi: the turn LEDs and the timers' cues.

The starters, in this order (`start_features`); each returns a handle to stop it, or None when its
feature is not wanted or cannot run here:

1. the readers (companion/taps/starter.py), handed the screen (a `TapScreen`) when there is one, so
   taps reach the kiosk's booth and its enrollment; without one their words go to standard error;
2. the phones (companion/phones/serve.py): the broker, the mirror and the phone page; with a hall, the
   managed Mosquitto's config carries the bridge to the hall's broker (companion/hall/table/bridge.py);
3. the hall (companion/hall/table/starter.py), only with `[hall].url` set: the about, the finished
   games' results and the hall's seating arriving; a table without a hall runs exactly as before;
4. the buttons, LEDs and buzzer (companion/gpio/starter.py);
5. systemd's notify and watchdog (companion/watchdog.py), last, so that READY=1 means the others run;
   handed the kiosk's loop and the mirror's network thread, to watch beside the table's own loop.

With a screen the kiosk owns the main thread and the table's loop runs on a thread of its own
(companion/kiosk/engine.py); the starters run once the kiosk's feed is an output, before that loop.
The features are imported only when started: `companion games` loads no broker, pygame or GPIO.
"""

from __future__ import annotations

import contextlib
import os
import signal
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from types import FrameType
from typing import TYPE_CHECKING, Protocol, TextIO

from companion import i18n
from companion.config import Config
from companion.console import ConsoleOutput
from companion.kiosk.detect import ScreenChoice
from companion.status import DeviceStatus, StatusBoard
from companion.table.console_input import read_lines
from companion.table.loop import Reply, Table

if TYPE_CHECKING:
    from companion.gpio.starter import RunningGpio
    from companion.hall.table.starter import RunningHall
    from companion.kiosk.feed import KioskFeed
    from companion.phones.mirror import Mirror
    from companion.phones.serve import KioskSeats, Served
    from companion.taps.starter import RunningReaders
    from companion.watchdog import RunningNotify


class Running(Protocol):
    def stop(self) -> None: ...


@dataclass
class Started:
    """What the starters started, by name (None: not wanted, or not possible here)."""

    readers: RunningReaders | None = None
    phones: Served | None = None
    hall: RunningHall | None = None
    buttons: RunningGpio | None = None
    notify: RunningNotify | None = None

    def running(self) -> list[Running]:
        """The running features, in the order they started."""
        handles = (self.readers, self.phones, self.hall, self.buttons, self.notify)
        return [handle for handle in handles if handle is not None]

    def stop(self) -> None:
        """Stop every feature, the last started first, and forget them."""
        running = self.running()
        self.readers = self.phones = self.hall = self.buttons = self.notify = None
        for handle in reversed(running):
            handle.stop()

    def seats(self, lang: str) -> KioskSeats | None:
        """The seats (their QR codes, their release) for the kiosk, when the phone page is served."""
        from companion.phones.serve import KioskSeats

        served = self.phones
        # `lang` is the kiosk's: the seats' links carry none, so each phone opens in its own language
        return None if served is None or served.page_url is None else KioskSeats(served)


def start_features(table: Table, cfg: Config, status: StatusBoard, screen: KioskFeed | None = None) -> Started:
    """Run every starter, in the order above. One that raises: those already started are stopped."""
    from companion.gpio.starter import start_gpio
    from companion.phones.serve import starter as start_phones
    from companion.taps.starter import start_readers
    from companion.watchdog import start_notify

    started = Started()
    try:
        started.readers = start_readers(table, cfg, status, screen)
        if cfg.hall.url is None:
            started.phones = start_phones(table, cfg, status)
        else:
            from companion.hall.table.starter import bridge_config, start_hall

            started.phones = start_phones(table, cfg, status, bridge_config(cfg))
            started.hall = start_hall(table, cfg, started.phones, screen)
        if screen is not None and started.phones is not None:
            lock_to_phones(screen, started.phones.phones.mirror)
        started.buttons = start_gpio(table, cfg, status)
        loops = {"kiosk": screen.turn_hooks} if screen is not None else {}
        threads = {"mirror": started.phones.phones.mirror.alive} if started.phones is not None else {}
        started.notify = start_notify(table, cfg, status, loops=loops, threads=threads)
    except BaseException:
        started.stop()
        raise
    return started


def lock_to_phones(screen: KioskFeed, mirror: Mirror) -> None:
    """The kiosk's host lock on the host's phone page: its mode in the host's view, and its PIN set from
    there (companion/phones/host_pin.py); the host's view is published again when the mode changes."""
    mirror.kiosk_lock, mirror.set_host_pin = screen.lock_mode, screen.set_host_pin
    screen.lock_listeners.append(mirror.seats_changed)
    mirror.seats_changed()


class ScreenRequired(Exception):
    """`display.enabled = true` and the screen could not be opened (why, in SDL's words)."""


def run_table(table: Table, cfg: Config, console: ConsoleOutput, stdin: TextIO, reply_for: Callable[[int], Reply],
              *, resumed: bool, screen: ScreenChoice, out: TextIO | None, journal: TextIO) -> None:
    """Run the table with everything attached until its input ends (no screen) or its screen closes;
    then stop the features, the last started first, and close the log.

    `stdin` is read as the console's input (with a screen, or headless, only when it is a terminal: under
    systemd it is /dev/null, whose end is not a Ctrl-D); `screen` says whether to open the kiosk (its SDL
    driver) or run headless; `out` is where the kiosk says it opened (None: nowhere); `journal` hears
    that the table runs headless. A wanted screen that cannot be opened runs the table headless, unless
    `display.enabled = true` insists on it (`ScreenRequired`, before anything has started).
    """
    table.outputs.append(console)
    console.show(table.views.public)
    if resumed and cfg.timers.resume_after_restart == "pause":
        table.resume_paused()
    status = StatusBoard()
    started: list[Started] = []
    headless = screen.headless
    try:
        if screen.driver is not None:
            os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
            from companion.games import registry
            from companion.kiosk.engine import NoScreen, run_with_table  # loads SDL: only with a screen

            def on_ready(feed: KioskFeed) -> KioskSeats | None:  # the kiosk's feed is an output: the rest
                if stdin.isatty():
                    read_lines(stdin, table, reply_for)
                started.append(start_features(table, cfg, status, screen=feed))
                return started[-1].seats(cfg.table.language)

            try:
                run_with_table(table, cfg, registry(), status, screen.driver, table.referee.setup.options, out,
                               on_ready=on_ready)
                return
            except NoScreen as err:  # nothing had started
                if cfg.display.enabled is True:
                    raise ScreenRequired(str(err)) from None
                headless = str(err)
        if headless:  # a screen was wanted and is not there: everything else runs as with one
            go_headless(cfg, status, headless, journal)
        started.append(start_features(table, cfg, status))
        if not headless or stdin.isatty():
            read_lines(stdin, table, reply_for)
        with contextlib.suppress(KeyboardInterrupt):  # Ctrl-C ends the session; the log is already durable
            table.run()
    finally:
        for features in started:
            features.stop()
        table.referee.log.close()


@contextlib.contextmanager
def signals_stop() -> Iterator[None]:
    """SIGTERM (systemd's stop), SIGHUP (the terminal closed) and SIGINT (Ctrl-C) end `run_table` as
    Ctrl-C does: the table's loop ends, and its `finally` stops every feature, the managed Mosquitto
    among them (none outlives `companion run`), and closes the log. A signal while that runs is
    ignored, so a second Ctrl-C cannot cut the stopping short. Main thread only; restored after."""
    stopping = False

    def stop(signum: int, frame: FrameType | None) -> None:
        nonlocal stopping
        if stopping:
            return
        stopping = True
        raise KeyboardInterrupt

    caught = (signal.SIGTERM, signal.SIGHUP, signal.SIGINT)
    previous = {s: signal.signal(s, stop) for s in caught}
    try:
        yield
    finally:
        stopping = True  # what follows the table (the log closed, the process exiting) is not cut short
        for s, handler in previous.items():
            signal.signal(s, handler)


def go_headless(cfg: Config, status: StatusBoard, reason: str, journal: TextIO) -> None:
    """Say so in the journal (standard output) and on the status board, which the phones and systemd hear."""
    status.set(DeviceStatus("screen", "kiosk", "missing", detail=reason))
    print(i18n.translate(cfg.table.language, "status.headless", {"reason": reason}), file=journal, flush=True)
