"""A GPIO button, end to end onto the kiosk: mock pin -> gpio thread -> the table's inbox -> the table's
loop (a real thread) -> `Kiosk.button` -> the screen (issue 7)."""

from __future__ import annotations

import threading
from pathlib import Path

from gpiozero.pins.mock import MockFactory, MockPWMPin

from companion.config import Config, GpioConfig, StorageConfig
from companion.drawing.text import TextCache
from companion.gpio.starter import start
from companion.kiosk.scenes import make_scene
from companion.kiosk.screens.host_menu import HostMenuScreen
from tests.kits.kiosk_fixtures import surface, text, text_cache

__all__ = ["text", "text_cache"]


def test_the_two_button_combination_opens_the_host_menu_on_screen(text: TextCache, tmp_path: Path) -> None:
    scene = make_scene(surface("800x480"), text, "en")
    k, table = scene.kiosk, scene.table
    factory = MockFactory(pin_class=MockPWMPin)
    now = [0]
    cfg = Config(storage=StorageConfig(path=tmp_path / "g.sqlite3"),
                 gpio=GpioConfig(enabled=True, buzzer=None, led_reader=None, led_broker=None))
    running = start(table, cfg, scene.kiosk.status, clock_ms=lambda: now[0], pin_factory=factory)
    done = threading.Event()
    loop = threading.Thread(target=table.run, kwargs={"until": done}, name="table", daemon=True)
    loop.start()
    try:
        factory.pin(17).drive_low()  # next
        now[0] = 100
        factory.pin(27).drive_low()  # ok, with next still down
        now[0] = 1100  # held together for the combination's 1000 ms
        running.loop.poke()
        for _ in range(20):  # each wake-up: a status change, then the action from the table's thread
            if isinstance(k.top, HostMenuScreen) or not k.waker.wait(10.0):
                break
            k.process()
        assert isinstance(k.top, HostMenuScreen)
    finally:
        done.set()
        table.stop()
        loop.join(timeout=10)
        running.stop()
        factory.reset()
        scene.close()
