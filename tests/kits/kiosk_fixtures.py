"""Shared pieces of the kiosk tests: SDL's dummy driver, the fonts, screens on a surface, and the
checks a person would make on a screenshot (not blank, no tofu, nothing clipped, text in its box)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pygame
import pytest

from companion.drawing.text import Drawn, TextCache
from companion.kiosk.engine import fonts, open_display
from companion.kiosk.layout import COMMON_SIZES
from companion.kiosk.widgets import BG

SIZES = COMMON_SIZES  # every screen size `display.size` accepts: each screen is checked at each


@pytest.fixture(scope="session")
def text_cache(tmp_path_factory: pytest.TempPathFactory) -> TextCache:
    os.environ["SDL_VIDEODRIVER"] = "dummy"
    os.environ["SDL_AUDIODRIVER"] = "dummy"
    pygame.display.init()
    pygame.font.init()
    return fonts(tmp_path_factory.mktemp("font-cache"))


@pytest.fixture
def text(text_cache: TextCache) -> Iterator[TextCache]:
    text_cache.record = []
    text_cache.missing.clear()
    yield text_cache
    text_cache.record = None


def surface(size: str) -> pygame.Surface:
    return open_display(size, False, "dummy")


@pytest.fixture(scope="session")
def shots_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where the screenshots go (KIOSK_SHOTS to keep them; else a pytest temporary directory)."""
    where = os.environ.get("KIOSK_SHOTS")
    path = Path(where) if where else tmp_path_factory.mktemp("kiosk-shots")
    path.mkdir(parents=True, exist_ok=True)
    return path


def ink_fraction(surf: pygame.Surface) -> float:
    """How much of the screen differs from the background colour."""
    mask = pygame.mask.from_threshold(surf, BG, (8, 8, 8, 255))
    return 1 - mask.count() / (surf.get_width() * surf.get_height())


def text_problems(drawn: list[Drawn]) -> list[str]:
    """What is wrong with the drawn text: outside its box, glyph ink cut at the top, or no ink."""
    problems = []
    for d in drawn:
        if not d.text.strip():
            continue
        if not d.region.contains(d.rect):
            problems.append(f"{d.text!r} at {tuple(d.rect)} overflows its box {tuple(d.region)}")
        ink = d.surface.get_bounding_rect()
        if ink.width == 0:
            problems.append(f"{d.text!r} rendered no ink")
        elif ink.top == 0:  # SDL_ttf cuts what rises above the font's ascent (Noto Sans Thai's tone marks)
            problems.append(f"{d.text!r}: glyphs reach the top of their line (clipped marks?) {tuple(ink)}")
    return problems
