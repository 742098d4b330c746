"""Starting the kiosk: the display (SDL driver, size, fullscreen), the fonts and the `Kiosk` itself,
and `run_with_table`, which runs the Table's loop on a thread and the kiosk on the main thread."""

from __future__ import annotations

import os
import sys
import threading
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, TextIO

import pygame

from companion import i18n
from companion.config import Config
from companion.core.contract import Game
from companion.drawing.fonts import default_cache_dir, load_chain
from companion.drawing.text import TextCache
from companion.kiosk.feed import KioskFeed
from companion.kiosk.host_lock import HostLock
from companion.kiosk.kiosk import Kiosk, Settings
from companion.kiosk.layout import parse_size
from companion.kiosk.presses import InputClock
from companion.kiosk.seats import PhoneSeats
from companion.kiosk.sound import Sound
from companion.kiosk.wake import Waker
from companion.status import StatusBoard
from companion.table.loop import Table
from hardware.events import ButtonEdge, DeviceEvent

DEFAULT_SIZE = (800, 480)


class NoScreen(Exception):
    """SDL could not open the screen (no device, no display server, no permission): the message says why."""


def open_display(size: str, fullscreen: bool, driver: str = "") -> pygame.Surface:
    """Initialise SDL's video with `driver` (unless SDL_VIDEODRIVER is already set) and open the screen."""
    if driver and not os.environ.get("SDL_VIDEODRIVER"):
        os.environ["SDL_VIDEODRIVER"] = driver
    pygame.display.init()
    pygame.font.init()
    flags = pygame.FULLSCREEN if fullscreen else 0
    wanted = ((0, 0) if fullscreen else DEFAULT_SIZE) if size == "auto" else parse_size(size)
    surface = pygame.display.set_mode(wanted, flags)
    pygame.display.set_caption("Tabletop companion")
    pygame.mouse.set_visible(not fullscreen)
    pygame.event.set_allowed(None)  # no mouse-motion storm: only what the kiosk handles wakes it
    pygame.event.set_allowed([pygame.QUIT, pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP, pygame.KEYDOWN,
                              pygame.WINDOWEXPOSED, pygame.WINDOWSIZECHANGED, pygame.VIDEOEXPOSE])
    return surface


def fonts(cache_dir: Path | None = None) -> TextCache:
    return TextCache(load_chain(cache_dir or default_cache_dir()))


def build(surface: pygame.Surface, table: Table, games: Mapping[str, Game], settings: Settings,
          status: StatusBoard, text: TextCache | None = None, sound: Sound | None = None,
          input_clock: InputClock | None = None) -> Kiosk:
    """A kiosk on `table` (call before the table's loop starts: it reads the first view here)."""
    feed = KioskFeed(Waker())
    feed.attach(table, status)
    public: dict[str, Any] = table.views.public
    kiosk = Kiosk(surface, text or fonts(), games, public, settings, feed=feed, status=status,
                  now_ms=table.clock.now_ms, sound=sound, input_clock=input_clock)

    def buttons(event: DeviceEvent) -> None:  # GPIO and board buttons named after an action (main loop)
        if isinstance(event, ButtonEdge):
            kiosk.button(event)

    table.device_handlers.append(buttons)
    return kiosk


def settings_from(cfg: Config) -> Settings:
    """The kiosk's settings; its host lock from `[kiosk] host_pin` or the PIN chosen earlier on the kiosk,
    kept beside the log (companion/kiosk/host_lock.py)."""
    log = Path(cfg.storage.path)
    lock = HostLock.load(cfg.kiosk.host_pin, None if str(log) == ":memory:" else log.parent)
    return Settings(lang=cfg.table.language, volume=cfg.display.volume / 100,
                    booth_timeout_s=float(cfg.display.booth_timeout), attract=cfg.display.attract, host_lock=lock,
                    idle_return_s=float(cfg.display.idle_return), attract_url=cfg.display.attract_url)


def run_with_table(table: Table, cfg: Config, games: Mapping[str, Game], status: StatusBoard,
                   driver: str, options: Mapping[str, Any] | None = None, out: TextIO | None = None,
                   on_ready: Callable[[KioskFeed], PhoneSeats | None] | None = None) -> None:
    """The Table's loop on a thread, the kiosk on this (the main) thread, until either ends.

    `on_ready` runs once the kiosk's feed is one of the table's outputs and before the table's loop
    starts: `companion run` starts the readers and phones there (companion/wiring.py), handing the
    readers the feed, so taps reach the kiosk's booth and prompts. It returns the seats (their QR codes,
    their release) for the kiosk when phones are served.
    Raises `NoScreen`, before anything has started, when SDL cannot open the screen.
    """
    try:
        surface = open_display(cfg.display.size, cfg.display.fullscreen, driver)
    except pygame.error as err:
        pygame.quit()
        raise NoScreen(f"{driver or os.environ.get('SDL_VIDEODRIVER') or 'SDL'}: {err}") from None
    if out is not None:
        w, h = surface.get_size()
        print(i18n.translate(cfg.table.language, "kiosk.opened",
                             {"size": f"{w}x{h}", "driver": pygame.display.get_driver()}), file=out, flush=True)
    settings = settings_from(cfg)
    settings.options = dict(options or {})
    kiosk = build(surface, table, games, settings, status)
    assert kiosk.feed is not None  # `build` attaches one
    if on_ready is not None and (seats := on_ready(kiosk.feed)) is not None:
        kiosk.settings.seats = seats
    done = threading.Event()

    def table_loop() -> None:
        try:
            table.run()
        finally:
            done.set()
            kiosk.waker.wake()

    thread = threading.Thread(target=table_loop, name="table", daemon=True)
    thread.start()
    try:
        kiosk.run(until=done)
    except KeyboardInterrupt:
        pass
    finally:
        table.stop()
        thread.join(timeout=10)
        kiosk.sound.close()
        kiosk.close()
        pygame.quit()
        if thread.is_alive():
            print("companion: the table's loop did not stop", file=sys.stderr)
