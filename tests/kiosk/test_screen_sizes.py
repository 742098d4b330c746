"""Common screens (issue 19): the Pi's 7" panel (800x480), the 7" 1024x600 HDMI panels, 720p, the
10" 1280x800 panels and 1080p TVs are each accepted by `display.size`, open at that size, and every
screen is laid out inside the screen, its regions apart, the design centred with even bars.

The screenshots themselves, every screen in every language at each of these sizes, are
tests/kiosk/test_kiosk_screens.py and tests/kiosk/test_boards_screens.py (both parametrized by SIZES)."""

from __future__ import annotations

import itertools
import subprocess
import sys
from pathlib import Path

import pygame
import pytest

from companion import config
from companion.drawing.text import TextCache
from companion.kiosk.layout import COMMON_SIZES, Layout
from companion.kiosk.scenes import SCREENS, make_scene, show_screen
from companion.kiosk.screenshots import example_seats
from tests.kits.kiosk_fixtures import SIZES, surface, text, text_cache

__all__ = ["text", "text_cache"]
FIVE = ("800x480", "1024x600", "1280x720", "1280x800", "1920x1080")


def load_size(tmp_path: Path, size: str) -> str:
    path = tmp_path / "config.toml"
    path.write_text(f'[display]\nsize = "{size}"\n', encoding="utf-8")
    return config.load(env={"HOME": str(tmp_path)}, system_path=path, user_path=None).display.size


def test_the_five_common_screens_are_the_tested_sizes() -> None:
    assert set(FIVE) <= set(COMMON_SIZES)
    assert set(SIZES) == set(COMMON_SIZES)  # every accepted size has its screenshots


@pytest.mark.parametrize("size", FIVE)
def test_display_size_accepts_each_common_screen(tmp_path: Path, size: str) -> None:
    assert load_size(tmp_path, size) == size
    env = {"HOME": str(tmp_path), "COMPANION_DISPLAY__SIZE": size}
    assert config.load(env=env, system_path=None, user_path=None).display.size == size


def test_display_size_refuses_other_sizes_naming_the_accepted_ones(tmp_path: Path) -> None:
    with pytest.raises(config.ConfigError) as info:
        load_size(tmp_path, "640x480")
    message = str(info.value)
    assert 'display.size = "640x480" is not allowed' in message
    for size in (*FIVE, "auto"):
        assert size in message


@pytest.mark.parametrize("size", FIVE)
def test_the_display_opens_at_each_size(size: str, text: TextCache) -> None:
    assert surface(size).get_size() == tuple(map(int, size.split("x")))


@pytest.mark.parametrize("size", FIVE)
def test_the_design_is_centred_with_even_bars(size: str) -> None:
    w, h = map(int, size.split("x"))
    layout = Layout(w, h)
    design = layout.rect(0, 0, 800, 480)
    assert layout.full().contains(design)
    assert abs((design.left - 0) - (w - design.right)) <= 1 and abs(design.top - (h - design.bottom)) <= 1
    assert design.width == w or design.height == h  # it fills one way


@pytest.mark.parametrize("size", FIVE)
@pytest.mark.parametrize("screen", SCREENS)
def test_every_screen_is_laid_out_inside_the_screen_without_overlaps(screen: str, size: str,
                                                                      text: TextCache) -> None:
    scene = make_scene(surface(size), text, "en", seats=example_seats())  # codes for free seats, one joined
    try:
        show_screen(scene, screen)
        screen_rect = scene.kiosk.layout.full()
        regions = scene.kiosk.regions()
        for region in regions:
            assert screen_rect.contains(region.rect), f"{region.name} {tuple(region.rect)} is off the screen"
        # the top level regions tile the screen: none covers another (a region inside another is its part)
        for a, b in itertools.combinations(regions, 2):
            if a.rect.contains(b.rect) or b.rect.contains(a.rect):
                continue
            assert not a.rect.colliderect(b.rect), f"{a.name} {tuple(a.rect)} overlaps {b.name} {tuple(b.rect)}"
        assert text.record, "no text was drawn"
        for drawn in text.record:
            assert screen_rect.contains(drawn.rect), f"{drawn.text!r} is drawn off the screen"
    finally:
        scene.close()


def test_screenshots_command_takes_every_common_size(tmp_path: Path) -> None:
    result = subprocess.run([sys.executable, "-m", "companion.kiosk.screenshots", str(tmp_path), "--size", "1024x600",
                             "--lang", "en", "--screen", "play"], capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    shot = tmp_path / "play-en-1024x600.png"
    assert shot.exists()
    assert pygame.image.load(str(shot)).get_size() == (1024, 600)
