"""The gpiozero parts: buttons that only queue their edges, LEDs, and a buzzer that plays short cues.

gpiozero calls button callbacks on its own threads; ours only put ``(button, pressed, at_ms)`` on the
queue given (debounce and gestures happen on the reader's thread, see gestures.py), so gpiozero's
`bounce_time` is not used. LEDs and the buzzer are driven from the caller's thread; a cue is played
by the `Player`'s own thread so a tune never holds up the buttons.
"""

from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Callable, Mapping
from typing import Any, Literal

from gpiozero import LED, Button, TonalBuzzer
from gpiozero.tones import Tone

logger = logging.getLogger(__name__)
LedMode = Literal["on", "off", "blink"]
Note = tuple[float | None, float]  # (Hz, or None for a rest; seconds)
#: The buzzer's cues (TonalBuzzer with two octaves around A4 plays 110-1760 Hz).
CUES: dict[str, list[Note]] = {
    "known": [(1319.0, 0.06)],  # a known token: one short chirp
    "unknown": [(330.0, 0.12), (None, 0.06), (262.0, 0.2)],  # an unknown tag: low, falling
    "warning": [(880.0, 0.1), (None, 0.08), (880.0, 0.1)],  # a timer at 10 s
    "expired": [(659.0, 0.18), (523.0, 0.18), (392.0, 0.45)],  # a timer ran out
}
Edge = tuple[str, bool, int]


class Player:
    """Plays cues one after another on its own thread; `wait` is how a note is held (a test passes one
    that does not wait)."""

    def __init__(self, buzzer: TonalBuzzer, wait: Callable[[float], Any] | None = None) -> None:
        self.buzzer = buzzer
        self.played: queue.Queue[str] = queue.Queue()  # each cue once it has finished
        self._cues: queue.Queue[str | None] = queue.Queue()
        self._idle = threading.Condition()
        self._pending = 0
        self._stop = threading.Event()
        self._wait = wait or self._stop.wait
        self._thread = threading.Thread(target=self._run, name="gpio-buzzer", daemon=True)
        self._thread.start()

    def play(self, cue: str) -> None:
        if cue not in CUES:
            raise ValueError(f"unknown cue {cue!r}; expected one of {sorted(CUES)}")
        with self._idle:
            self._pending += 1
        self._cues.put(cue)

    def wait_idle(self, timeout: float) -> bool:
        """Wait until every cue asked for has been played."""
        with self._idle:
            return self._idle.wait_for(lambda: self._pending == 0, timeout)

    def _run(self) -> None:
        while (cue := self._cues.get()) is not None:
            for freq, seconds in CUES[cue]:
                if self._stop.is_set():
                    break
                if freq is None:
                    self.buzzer.stop()
                else:
                    self.buzzer.play(Tone.from_frequency(freq))
                self._wait(seconds)
            self.buzzer.stop()
            self.played.put(cue)
            with self._idle:
                self._pending -= 1
                self._idle.notify_all()

    def close(self) -> None:
        self._stop.set()
        self._cues.put(None)
        self._thread.join(timeout=5)


class Panel:
    """The buttons, LEDs and buzzer of one table. `put` receives each button's raw edges (on gpiozero's
    threads: it must be cheap and thread-safe, e.g. `queue.Queue.put`)."""

    def __init__(self, buttons: Mapping[str, int], put: Callable[[Edge], None], clock_ms: Callable[[], int], *,
                 pull_up: bool = True, leds: Mapping[str, int] | None = None, buzzer: int | None = None,
                 wait: Callable[[float], Any] | None = None, pin_factory: Any = None) -> None:
        self.buttons: dict[str, Button] = {}
        self.leds: dict[str, LED] = {}
        self.player: Player | None = None
        self._modes: dict[str, LedMode] = {}
        try:
            for name, pin in buttons.items():
                button = Button(pin, pull_up=pull_up, bounce_time=None, pin_factory=pin_factory)
                # on gpiozero's thread: queue only
                button.when_pressed = lambda name=name: put((name, True, clock_ms()))
                button.when_released = lambda name=name: put((name, False, clock_ms()))
                self.buttons[name] = button
            for name, pin in (leds or {}).items():
                self.leds[name] = LED(pin, pin_factory=pin_factory)
            if buzzer is not None:
                self.player = Player(TonalBuzzer(buzzer, octaves=2, pin_factory=pin_factory), wait)
        except BaseException:
            self.close()
            raise

    def led(self, name: str, mode: LedMode) -> None:
        """Set an LED; a repeated mode changes nothing (a blink keeps its rhythm)."""
        led = self.leds.get(name)
        if led is None or self._modes.get(name) == mode:
            return
        self._modes[name] = mode
        if mode == "on":
            led.on()
        elif mode == "blink":
            led.blink(on_time=0.5, off_time=0.5)
        else:
            led.off()

    def play(self, cue: str) -> None:
        if self.player is not None:
            self.player.play(cue)

    def close(self) -> None:
        if self.player is not None:
            self.player.close()
            self.player.buzzer.close()
            self.player = None
        for device in [*self.buttons.values(), *self.leds.values()]:
            device.close()
        self.buttons.clear()
        self.leds.clear()
