"""How the kiosk is driven: touch and keys through SDL's queue, what the tap router tells it, the
attract loop giving way, silence without an audio device, and when `companion run` opens it."""

from __future__ import annotations

import os
from pathlib import Path

import pygame
import pytest

from companion import config
from companion.core.rejection import Rejected
from companion.drawing.text import TextCache
from companion.kiosk.detect import display_driver
from companion.kiosk.scenes import make_scene, opening
from companion.kiosk.screens.attract import AttractScreen
from companion.kiosk.screens.game_list import GameListScreen
from companion.kiosk.screens.host_menu import HostMenuScreen
from companion.kiosk.screens.play import PlayScreen
from companion.kiosk.screens.setup import SetupScreen
from companion.kiosk.sound import Sound
from hardware.events import ButtonEdge
from tests.kits.kiosk_fixtures import surface, text, text_cache
from tests.kits.kiosk_touch import tap_at

__all__ = ["text", "text_cache"]


def test_a_token_input_ends_the_attract_loop(text: TextCache) -> None:
    scene = make_scene(surface("800x480"), text, "en")
    assert isinstance(scene.kiosk.top, AttractScreen)
    scene.play(opening()[0])
    assert isinstance(scene.kiosk.top, PlayScreen)
    scene.close()


def test_the_demo_loop_plays_its_script_and_starts_over(text: TextCache) -> None:
    scene = make_scene(surface("800x480"), text, "en")
    attract = scene.kiosk.top
    assert isinstance(attract, AttractScreen)
    steps = len(attract.demo.steps)
    for _ in range(steps):
        attract.demo.advance()
    assert attract.demo.finished and attract.demo.public()["ended"]
    attract.demo.advance()
    assert attract.demo.index == 0 and attract.demo.public()["announced"] == 0
    scene.clock.now += 2_500  # the demo's own pace, on the table clock
    scene.kiosk.process()
    assert attract.demo.index == 1
    scene.close()


def test_touch_and_keys_arrive_through_sdl(text: TextCache) -> None:
    scene = make_scene(surface("800x480"), text, "en")
    k = scene.kiosk
    tap_at(k, k.layout.rect(500, 300, 1, 1).topleft)
    assert isinstance(k.top, GameListScreen)  # a touch on the demo: to the game list (issue 30)
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_ESCAPE, mod=0, unicode="", scancode=0))
    k.process()
    assert isinstance(k.top, SetupScreen)  # Back: the table's own game's setup screen
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_m, mod=0, unicode="m", scancode=0))
    k.process()
    assert isinstance(k.top, HostMenuScreen)
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_ESCAPE, mod=0, unicode="", scancode=0))
    k.process()
    assert isinstance(k.top, SetupScreen)
    scene.close()


def test_device_buttons_named_after_actions_drive_the_screen(text: TextCache) -> None:
    scene = make_scene(surface("800x480"), text, "en")
    k = scene.kiosk
    assert k.button(ButtonEdge("gpio", "menu", pressed=True)) is True
    assert k.button(ButtonEdge("gpio", "menu", pressed=False)) is False  # the release does nothing
    assert k.button(ButtonEdge("board0", "red", pressed=True)) is False  # a game's button, not the kiosk's
    k.process()
    assert isinstance(k.top, HostMenuScreen)
    scene.close()


def test_an_unknown_action_is_refused(text: TextCache) -> None:
    scene = make_scene(surface("800x480"), text, "en")
    with pytest.raises(ValueError, match="unknown action"):
        scene.kiosk.press("jump")
    scene.close()


def test_what_the_tap_router_says_shows_as_a_notice(text: TextCache) -> None:
    scene = make_scene(surface("800x480"), text, "zh")
    feed = scene.kiosk.feed
    assert feed is not None
    feed.use_registry(None)  # no readers running: the notice says how to enroll (else the enroll screen)
    feed.unknown_tag("04A1B2C3D4E5F6", "board0")
    scene.kiosk.process()
    assert scene.kiosk.notice is not None
    said = scene.kiosk.notice[0]  # in words, never the tag's UID nor the reader's name (issue 28)
    assert "棋子或卡牌" in said and "companion tokens enroll" in said, said
    assert not any(part in said for part in ("04A1", "E5F6", "C3D4", "board0")), said
    feed.token_refused("Key", Rejected("reject.timer_not_running"))
    scene.kiosk.process()
    assert scene.kiosk.notice is not None and scene.kiosk.notice[0] == "Key：现在不行"  # no booth: no reason
    drawn = [d.text for d in text.record or []]
    assert scene.kiosk.notice[0] in drawn
    scene.close()


def test_silent_without_an_audio_device() -> None:
    pygame.mixer.quit()
    before = os.environ.get("SDL_AUDIODRIVER")
    os.environ["SDL_AUDIODRIVER"] = "no-such-driver"
    try:
        sound = Sound()
        assert not sound.available
        sound.play("warning")  # no error: the cue is noted and nothing is heard
        assert sound.played == ["warning"]
    finally:
        os.environ["SDL_AUDIODRIVER"] = before or "dummy"
    assert Sound().available  # with a device (SDL's dummy one) the cues are loaded


def test_a_sound_server_or_a_chosen_driver_counts_as_audio(tmp_path: Path) -> None:
    from companion.kiosk.sound import audio_present

    assert audio_present({"SDL_AUDIODRIVER": "alsa"})
    (tmp_path / "pulse").mkdir()
    (tmp_path / "pulse" / "native").touch()
    assert audio_present({"XDG_RUNTIME_DIR": str(tmp_path)})


def cfg(**display: object) -> config.Config:
    return config.load(flags={f"display.{k}": v for k, v in display.items()}, system_path=None, user_path=None,
                       env={})


def test_when_companion_run_opens_the_screen() -> None:
    assert display_driver(cfg(), {}, machine_mode=False, drm=False) is None
    assert display_driver(cfg(), {}, machine_mode=False, drm=True) == "kmsdrm"  # a Pi console
    assert display_driver(cfg(), {"DISPLAY": ":1"}, machine_mode=False) == ""
    assert display_driver(cfg(), {"DISPLAY": ":1"}, machine_mode=True) is None  # --jsonl keeps to the console
    assert display_driver(cfg(), {"SDL_VIDEODRIVER": "dummy"}, machine_mode=False) == "dummy"
    assert display_driver(cfg(enabled=False), {"DISPLAY": ":1"}, machine_mode=False) is None
    assert display_driver(cfg(enabled=True, driver="kmsdrm"), {}, machine_mode=True) == "kmsdrm"


def test_display_settings_refuse_bad_values_by_name() -> None:
    with pytest.raises(config.ConfigError) as err:
        cfg(enabled="maybe", driver="vga")
    text = str(err.value)
    assert 'display.enabled = "maybe" is not allowed; expected "auto", true or false' in text
    assert 'display.driver = "vga" is not allowed; choose one of kmsdrm, x11, wayland, dummy' in text
