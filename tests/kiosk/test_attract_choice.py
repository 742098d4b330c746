"""The host chooses on the kiosk which games the attract loop shows (issue 30): the host menu's "Demo loop"
(the footer's free place: every other control keeps its place), then "All games" or "This game only",
by touches. The loop underneath plays the chosen games once the menu closes, and the choice stays for
as long as the kiosk runs, like the menu's language and volume. Drawn whole in zh, th and en at 800x480.
"""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest

from companion import i18n
from companion.drawing.text import TextCache
from companion.games import registry
from companion.kiosk.kiosk import Kiosk
from companion.kiosk.screens.attract import DEMO_STEP_MS, AttractScreen
from companion.kiosk.widgets import BG
from tests.kiosk.test_attract_loop import kiosk_on
from tests.kits.kiosk_fixtures import shots_dir, text, text_cache, text_problems
from tests.kits.kiosk_touch import touch

__all__ = ["shots_dir", "text", "text_cache"]


def menu_places(k: Kiosk) -> dict[object, tuple[int, int, int, int]]:
    k.open_menu()
    k.process()
    assert k.top.name == "menu"
    return {b.key: tuple(b.rect) for b in k.top.buttons()}


def games_played(scene: object, screen: AttractScreen, steps: int) -> list[str]:
    seen: list[str] = []
    for _ in range(steps):
        game = str(screen.demo.public()["game"])
        if game not in seen:
            seen.append(game)
        scene.at(scene.clock.now + DEMO_STEP_MS)  # type: ignore[attr-defined]
    return seen


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_the_host_chooses_the_loops_games_in_the_menu(lang: str, text: TextCache, shots_dir: Path) -> None:
    scene = kiosk_on("lockdown", text, "800x480", lang, attract="all")  # the config said all games
    k = scene.kiosk
    loop = k.top
    assert isinstance(loop, AttractScreen) and loop.reel.ids == list(registry())
    places = menu_places(k)
    touch(k, key="a")  # the menu's "Demo loop"
    assert k.top.name == "attract_choice"
    text.record = []
    k.surface.fill(BG)
    for region in k.regions():
        region.draw(k.surface, region.rect)
    pygame.image.save(k.surface, str(shots_dir / f"attract-choice-{lang}-800x480.png"))
    assert not text_problems(text.record) and not text.missing
    drawn = "".join(d.text for d in text.record).replace(" ", "")
    lockdown = i18n.translate(lang, "game.lockdown.title")
    assert i18n.translate(lang, "kiosk.attract_choice.this", {"game": lockdown}).replace(" ", "") in drawn
    assert all(i18n.translate(lang, f"game.{g}.title").replace(" ", "") in drawn for g in registry())  # shows now
    assert {b.key: b.style for b in k.top.buttons() if b.key in ("all", "this")} == {"all": "primary",
                                                                                      "this": "normal"}

    touch(k, i18n.translate(lang, "kiosk.attract_choice.this", {"game": lockdown}))  # by its words
    assert k.notice is not None
    assert k.notice[0] == i18n.translate(lang, "kiosk.attract_choice.chosen_this", {"game": lockdown})
    assert {b.key: b.style for b in k.top.buttons() if b.key in ("all", "this")} == {"all": "normal",
                                                                                      "this": "primary"}
    touch(k, key="back")
    assert k.top is loop
    assert games_played(scene, loop, 12) == ["lockdown"]  # the loop took the choice: Lockdown only

    again = menu_places(k)  # the choice stays; the menu's controls are where they were
    assert again == places
    touch(k, key="a")
    touch(k, key="all")
    touch(k, key="back")
    assert games_played(scene, loop, 60)[:3] == list(registry())[:3]  # every game again, in menu order
    scene.kiosk.close()
    scene.log.close()


def test_the_menu_entry_takes_a_free_place_and_moves_nothing(text: TextCache) -> None:
    """With the loop off in the config the entry is not offered; with it on, every other control sits where
    it sat, and the entry is in the footer's third place, as large as a footer button."""
    off = kiosk_on("lockdown", text, "800x480", "en", attract=False)
    without = menu_places(off.kiosk)
    off.kiosk.close()
    off.log.close()
    on = kiosk_on("lockdown", text, "800x480", "en", attract=True)
    with_it = menu_places(on.kiosk)
    assert "a" not in without and "a" in with_it
    assert {key: place for key, place in with_it.items() if key != "a"} == without
    footer = on.kiosk.layout.columns(on.kiosk.layout.footer(), 4)
    assert with_it["a"] == tuple(footer[2])
    assert with_it["a"][3] >= 48
    on.kiosk.close()
    on.log.close()
