"""A table clock that moves a second on at every reading: each input a tap test sends is stamped later
than the one before, with no wall clock and no sleep."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class StepClock:
    now: int = 0

    def now_ms(self) -> int:
        self.now += 1000
        return self.now
