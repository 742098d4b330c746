"""No focus ring on a choice nobody touched (issue 28): a white ring on an untouched button reads as a
preselection. The ring shows once GPIO buttons or keys are used at the kiosk, on the button they moved to."""

from __future__ import annotations

import pygame
import pytest

from companion.drawing.text import TextCache
from companion.kiosk.scenes import make_scene, show_screen
from companion.kiosk.screenshots import example_seats
from companion.kiosk.widgets import FOCUS, Button
from tests.kits.kiosk_fixtures import surface, text, text_cache

__all__ = ["text", "text_cache"]


def ringed(s: pygame.Surface, b: Button) -> bool:
    """The button's left edge, half way down, in the focus colour (the ring is drawn over its fill)."""
    return tuple(s.get_at((b.rect.left + 1, b.rect.centery)))[:3] == FOCUS


@pytest.mark.parametrize("screen", ["reveal", "menu", "booth", "phones", "games"])
def test_an_untouched_screen_shows_no_ring_until_keys_move_the_focus(screen: str, text: TextCache) -> None:
    scene = make_scene(surface("800x480"), text, "en", seats=example_seats())
    try:
        show_screen(scene, screen)
        k = scene.kiosk
        k._drawn = None
        k.process()
        assert not any(ringed(k.surface, b) for b in k.top.buttons()), "a ring on a choice nobody touched"
        k.press("next")
        k.process()
        buttons = k.top.buttons()
        focused = buttons[k.top.focus % len(buttons)]
        assert ringed(k.surface, focused)
        assert [b.key for b in buttons if ringed(k.surface, b)] == [focused.key]
    finally:
        scene.close()
