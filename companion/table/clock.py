"""The table's clock: what stamps every input and says when a deadline is due.

`SteadyClock` is what `companion run` uses; tests and screenshots hand the table a clock of their own
(anything with `now_ms`).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Protocol

logger = logging.getLogger(__name__)
JUMP_NOTED_MS = 2000  # a wall clock this far from the table's clock has been set (NTP, the host): say so once


class Clock(Protocol):
    def now_ms(self) -> int: ...


class SystemClock:
    def now_ms(self) -> int:
        return time.time_ns() // 1_000_000


class SteadyClock:
    """The table's clock: the wall time at start, then advanced by the monotonic clock only.

    A Pi has no real-time clock; NTP sets the wall clock minutes or months after boot, maybe mid-game.
    Timers are deadlines on this clock, so a wall clock that jumps forward must not make every timer run
    out at once, nor one set back make a timer last an hour longer: they count real seconds. A restart
    takes the wall time afresh (timers paused over a restart resume by the game's own rule). The jump
    is logged once (docs/faults.md).
    """

    def __init__(self, wall_ns: Callable[[], int] = time.time_ns,
                 mono_ns: Callable[[], int] = time.monotonic_ns) -> None:
        self._wall_ns, self._mono_ns = wall_ns, mono_ns
        self._wall0, self._mono0 = wall_ns(), mono_ns()
        self._noted = 0

    def now_ms(self) -> int:
        now = (self._wall0 + self._mono_ns() - self._mono0) // 1_000_000
        off = self._wall_ns() // 1_000_000 - now
        if abs(off - self._noted) > JUMP_NOTED_MS:
            self._noted = off
            logger.warning("the wall clock moved %+d s against the table's clock; timers keep counting real "
                           "seconds", off // 1000)
        return now
