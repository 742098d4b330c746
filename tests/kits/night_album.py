"""Pictures of an evening (tests/night/test_night_evening.py, docs/game-night.md): at each step the
kiosk's screen as it is drawn (800x480) and one phone's page (its viewport, 390 px wide), saved as
`<lang>-<step>-kiosk.png` and `<lang>-<step>-phone.png` in one folder. The kiosk's picture also gives
back every text it drew, so a test can check what a person reads on it."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pygame

from tests.kits.night_kiosk import Finger


@dataclass
class Album:
    finger: Finger
    lang: str
    folder: Path
    phone: Any = None  # the phone whose page is pictured (a PhonePage), once one has joined
    taken: int = 0

    def kiosk(self, step: str) -> list[str]:
        """The kiosk's screen, redrawn whole and saved; the texts it drew."""
        k = self.finger.night.kiosk
        k.touched()
        k._drawn = None  # the next render draws every region afresh
        k.text.record = []
        k.process()
        drawn = [d.text for d in (k.text.record or [])]
        k.text.record = None
        pygame.image.save(k.surface, str(self.folder / f"{self.lang}-{step}-kiosk.png"))
        self.taken += 1
        return drawn

    def both(self, step: str) -> list[str]:
        """The kiosk and the phone at this step (the phone only once one has joined)."""
        drawn = self.kiosk(step)
        if self.phone is not None:
            self.phone.page.evaluate("window.scrollTo(0, 0)")  # the top of the page, as a person glances at it
            self.phone.page.screenshot(path=str(self.folder / f"{self.lang}-{step}-phone.png"))
            self.taken += 1
        return drawn
