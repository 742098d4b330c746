"""The reader-board driver: a `SerialLink` on the board's port feeding a `BoardSession`.

    driver = BoardDriver("board0", "/dev/companion-board0")   # or a pty path, loop://, socket://
    driver.start(events.put)      # TagPlaced / TagRemoved / ButtonEdge / ReaderStatus arrive there
    driver.led(0, (0, 255, 0), ms=500); driver.buzz(880, 120)
    driver.stop()

Implements `hardware.events.ReaderDriver`. The protocol is firmware_protocol/SPEC.md; how taps,
placements, removals, unplugs and noise are reported is in session.py's docstring.
"""

from __future__ import annotations

from firmware_protocol import codec
from hardware.board.session import BoardSession
from hardware.events import Emit
from hardware.serial_link import SerialLink


class BoardDriver:
    def __init__(
        self,
        name: str,
        url: str,
        *,
        repeat_window: float = 0.75,
        heartbeat_timeout: float = 1.6,
        backoff_max: float = 0.5,
    ) -> None:
        self.name = name
        self.url = url
        self.repeat_window = repeat_window
        self.heartbeat_timeout = heartbeat_timeout
        self.backoff_max = backoff_max
        self.session: BoardSession | None = None
        self.link: SerialLink | None = None

    def start(self, emit: Emit) -> None:
        if self.link is not None:
            raise RuntimeError(f"{self.name}: already started")
        self.session = BoardSession(
            self.name, emit, repeat_window=self.repeat_window, heartbeat_timeout=self.heartbeat_timeout
        )
        self.link = SerialLink(self.url, self.session, emit, name=self.name, backoff_max=self.backoff_max)
        self.link.start()

    def stop(self) -> None:
        if self.link is not None:
            self.link.stop()

    def led(self, led: int, rgb: tuple[int, int, int], ms: int = 0) -> bool:
        """Light a reader's LED (255 = all) for `ms` milliseconds (0 = until changed); False if unsent."""
        red, green, blue = rgb
        return self._command(codec.Message(codec.LED, led=led, red=red, green=green, blue=blue, ms=ms))

    def buzz(self, hz: int, ms: int) -> bool:
        return self._command(codec.Message(codec.BUZZER, hz=hz, ms=ms))

    def _command(self, msg: codec.Message) -> bool:
        return self.session is not None and self.session.command(msg)
