"""Screenshots of every kiosk screen in en, zh and th at every common size, 800x480 to 1920x1080 (SDL dummy driver),
saved as PNG files, each checked as a person would: not blank, every character in a font that has it,
no glyph cut off, every text inside the box it was laid out for, and in the screen's language."""

from __future__ import annotations

import re

import pygame
import pytest

from companion import i18n
from companion.drawing.text import TextCache
from companion.kiosk.scenes import SCREENS, make_scene, show_screen
from companion.kiosk.screenshots import example_seats
from tests.kits.kiosk_fixtures import SIZES, ink_fraction, shots_dir, surface, text, text_cache, text_problems

__all__ = ["shots_dir", "text", "text_cache"]
SCRIPT = {"zh": re.compile(r"[\u4e00-\u9fff]"), "th": re.compile(r"[\u0e01-\u0e5b]"), "en": re.compile(r"[A-Za-z]")}


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("lang", i18n.LANGUAGES)
@pytest.mark.parametrize("screen", SCREENS)
def test_each_screen_renders_readably(screen: str, lang: str, size: str, text: TextCache, shots_dir) -> None:
    scene = make_scene(surface(size), text, lang, seats=example_seats())
    try:
        show_screen(scene, screen)
        assert scene.kiosk.top.name == screen
        shot = scene.kiosk.surface
        pygame.image.save(shot, str(shots_dir / f"{screen}-{lang}-{size}.png"))
        assert ink_fraction(shot) > 0.05, "the screen is (nearly) blank"
        assert not text.missing, f"characters no font has: {sorted(text.missing)}"
        assert text.record, "no text was drawn"
        assert text_problems(text.record) == []
        assert any(SCRIPT[lang].search(d.text) for d in text.record), f"nothing on screen is in {lang}"
    finally:
        scene.close()


def test_the_layout_scales_one_design(text: TextCache) -> None:
    """The same screen at every size puts each region at the same place relative to the design."""
    rects = {}
    for size in SIZES:
        scene = make_scene(surface(size), text, "en")
        show_screen(scene, "play")
        layout = scene.kiosk.layout
        ox, oy = layout.origin
        rects[size] = {r.name: ((r.rect.x - ox) / layout.scale, (r.rect.y - oy) / layout.scale)
                       for r in scene.kiosk.regions() if r.name != "status"}
        scene.close()
    small, *others = rects.values()
    for size, other in zip(SIZES[1:], others, strict=True):
        assert small.keys() == other.keys(), size
        for name in small:
            assert small[name] == pytest.approx(other[name], abs=1.5), (size, name)
