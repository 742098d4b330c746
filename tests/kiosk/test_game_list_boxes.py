"""The game list sells the games (issue 30): each game's card is its box from its own package (name,
players, length, what the companion does for it, a small picture of its board), whole and readable at
800x480 in zh, th and en (no text under 14 px, none cut or dropped, cards at least 48 px tall), and a
touch on a card opens that game. Each game's picture in its package is its own board at its main moment.
"""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest

from companion import i18n
from companion.drawing.text import TextCache
from companion.games import box, box_picture, play_minutes, registry
from companion.kiosk.box_pictures import picture
from companion.kiosk.screens.game_list import GameListScreen, small_picture
from companion.kiosk.widgets import BG
from tests.kiosk.test_attract_loop import kiosk_on, touch
from tests.kits.kiosk_fixtures import SIZES, shots_dir, text, text_cache, text_problems

__all__ = ["shots_dir", "text", "text_cache"]


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
@pytest.mark.parametrize("size", SIZES)
def test_each_game_on_the_list_shows_its_box(size: str, lang: str, text: TextCache, shots_dir: Path) -> None:
    scene = kiosk_on("lockdown", text, size, lang)
    k = scene.kiosk
    touch(k, k.layout.rect(400, 240, 1, 1).center)  # the attract loop: one touch, the list
    assert isinstance(k.top, GameListScreen)
    text.record = []
    k.surface.fill(BG)
    for region in k.regions():
        region.draw(k.surface, region.rect)
    pygame.image.save(k.surface, str(shots_dir / f"game-list-{lang}-{size}.png"))
    assert not text_problems(text.record) and not text.missing
    scale = k.layout.scale
    small = [d.text for d in text.record  # drawn smaller than the same words at 14 px (scaled) would be
             if d.surface.get_height() < text.render(d.text, round(14 * scale), (255, 255, 255)).get_height()]
    assert not small, small
    cards = {b.key: b for b in k.top.buttons() if b.key in registry()}
    assert set(cards) == set(registry())  # every game, on one page at every size
    for gid, card in cards.items():
        assert card.rect.height >= 48 * scale
        inside = [d.text for d in text.record if card.rect.contains(d.rect)]
        b, minutes = box(registry(), gid), play_minutes(registry(), gid)
        assert minutes is not None
        assert i18n.translate(lang, f"game.{gid}.title") in inside
        facts = [t for t in inside if str(b.min_players) in t and str(b.max_players) in t]
        assert facts and str(minutes[0]) in facts[0] and str(minutes[1]) in facts[0]
        pitch = i18n.translate(lang, f"game.{gid}.companion")
        assert pitch != f"game.{gid}.companion"
        joined = "".join(t for t in inside if t not in facts and t != i18n.translate(lang, f"game.{gid}.title"))
        assert joined.replace(" ", "") == pitch.replace(" ", ""), f"{gid}: its line is whole on its card"
        # its board's picture, in the card's top right corner, beside (never under) its name and numbers
        place = k.top.pictured[gid]
        found = box_picture(registry(), gid, lang)
        assert found is not None and card.rect.contains(place)
        shown = small_picture(found, place.size)
        assert shown is not None
        assert (pygame.surfarray.array3d(k.surface.subsurface(place)) == pygame.surfarray.array3d(shown)).all()
        assert not [t for t in inside if place.colliderect(next(d.rect for d in text.record if d.text == t))]
    lockdown = cards["lockdown"]
    assert lockdown.style == "primary"  # the table's own game stands out
    touch(k, lockdown.rect.center)
    assert k.top.name == "setup"  # the game the table is set up for: its setup, Start
    scene.kiosk.close()
    scene.log.close()


def test_each_games_box_picture_is_its_board_at_its_moment(text: TextCache) -> None:
    """The file in the game's package is what its board picture draws at its main moment, in each language
    (compared loosely: a label's change at this size moves few pixels; another game or moment, many).
    After a board picture changes: python -m companion.kiosk.box_pictures."""
    for gid in registry():
        for lang in i18n.LANGUAGES:
            found = box_picture(registry(), gid, lang)
            assert found is not None, f"{gid} has no box picture in {lang}"
            kept = pygame.surfarray.array3d(pygame.image.load(str(found))).astype(int)
            made = pygame.surfarray.array3d(picture(gid, lang, text)).astype(int)
            assert kept.shape == made.shape
            others = [pygame.surfarray.array3d(pygame.image.load(str(box_picture(registry(), other, lang))))
                      for other in registry() if other != gid]
            assert abs(kept - made).mean() < 2, (gid, lang, abs(kept - made).mean())
            assert all(abs(kept - other.astype(int)).mean() > 4 for other in others), gid  # not another's
