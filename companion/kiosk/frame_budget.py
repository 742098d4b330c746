"""A frame's share of the kiosk thread's CPU: past it, the regions (and the parts of a picture kept by
`drawn_once`) still to draw wait for the next turn of the loop, which comes at once.

Why (docs/perf/kiosk.md): the kiosk's thread shares the GIL with the table's and paho's threads; a
frame that computes for longer than one switch interval (5 ms) is made to hand the GIL over and wait
for it, so a large change drawn in one go (a new round: the announcements and the whole board) took
60-90 ms of wall time under load. Spread over frames, each frame stays within about one interval and
the screen ends the same, region for region. A full redraw (another screen) is drawn whole, and
without a budget (`Kiosk.process()`, the tests and the screenshots) every frame is drawn whole.
"""

from __future__ import annotations

import time
from typing import Any


class FrameBudget:
    def __init__(self, seconds: float | None, whole: bool, extra: dict[str, Any]) -> None:
        self.seconds = None if whole else seconds
        self.extra = extra  # the canvas's: `drawn_once` reads "late" and sets "drew" and "pending" in it
        self.start = time.thread_time()
        self.drew = False  # something was drawn in this frame already (each frame draws at least that)
        self.more = False  # something was left for the next turn
        extra["drew"] = False
        extra["late"] = self.spent

    def spent(self) -> bool:
        if self.seconds is None or not (self.drew or self.extra.get("drew")):
            return False
        if time.thread_time() - self.start < self.seconds:
            return False
        self.more = True  # whoever asked leaves something for the next turn
        return True

    def left_part(self) -> bool:
        """After a region's draw: True when a picture in it showed an older part (draw it again)."""
        self.drew = True
        return bool(self.extra.pop("pending", False))

    def close(self) -> bool:
        """The frame is done: True when something was left for the next turn."""
        for name in ("late", "drew", "pending"):
            self.extra.pop(name, None)
        return self.more
