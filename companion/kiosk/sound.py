"""Short generated cues through pygame.mixer (a beep at 10 s left, a chord at expiry); silent
when there is no audio device. The cues are made from sine waves at start-up: no sound files."""

from __future__ import annotations

import array
import logging
import math
import os
from pathlib import Path

import pygame

logger = logging.getLogger(__name__)
RATE = 22050
CUES: dict[str, list[tuple[float, float]]] = {  # name -> (frequency Hz, seconds) segments
    "warning": [(880.0, 0.12), (0.0, 0.06), (880.0, 0.12)],
    "expired": [(660.0, 0.18), (523.3, 0.18), (392.0, 0.45)],
    "tap": [(1320.0, 0.04)],
}


def tone(segments: list[tuple[float, float]], volume: float = 0.5) -> bytes:
    """16-bit mono samples for the segments, each faded in and out to avoid clicks."""
    out = array.array("h")
    for freq, seconds in segments:
        n = int(RATE * seconds)
        fade = max(1, min(n // 4, int(RATE * 0.01)))
        for i in range(n):
            env = min(1.0, i / fade, (n - i) / fade)
            value = math.sin(2 * math.pi * freq * i / RATE) if freq else 0.0
            out.append(int(32767 * volume * env * value))
    return out.tobytes()


def audio_present(env: dict[str, str] | None = None) -> bool:
    """Whether any audio output could exist: a sound card, a sound server, or a driver chosen by hand.

    Without one, SDL's probe only fills the journal with ALSA complaints, so the kiosk stays silent.
    """
    env = dict(os.environ) if env is None else env
    if env.get("SDL_AUDIODRIVER") or env.get("PULSE_SERVER"):
        return True
    runtime = Path(env.get("XDG_RUNTIME_DIR") or "/nonexistent")
    servers = (runtime / "pulse" / "native", runtime / "pipewire-0")
    return any(p.exists() for p in servers) or any(Path("/dev/snd").glob("pcmC*"))


class Sound:
    def __init__(self, volume: float = 0.8) -> None:
        self.volume = volume
        self.played: list[str] = []  # every cue asked for, played or not (the tests read it)
        self._sounds: dict[str, pygame.mixer.Sound] = {}
        if not audio_present():
            logger.info("no audio device, the kiosk is silent")
            return
        try:
            pygame.mixer.init(frequency=RATE, size=-16, channels=1)
        except pygame.error as err:
            logger.info("no audio device, the kiosk is silent: %s", err)
            return
        freq, _, channels = pygame.mixer.get_init() or (RATE, -16, 1)
        for name, segments in CUES.items():
            if freq == RATE and channels == 1:
                self._sounds[name] = pygame.mixer.Sound(buffer=tone(segments))

    @property
    def available(self) -> bool:
        return bool(self._sounds)

    def set_volume(self, volume: float) -> None:
        self.volume = max(0.0, min(1.0, volume))

    def play(self, cue: str) -> None:
        self.played.append(cue)
        sound = self._sounds.get(cue)
        if sound is not None and self.volume > 0:
            sound.set_volume(self.volume)
            sound.play()

    def close(self) -> None:
        if self._sounds:
            pygame.mixer.quit()
            self._sounds.clear()
