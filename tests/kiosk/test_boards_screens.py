"""The Room 25 and Lockdown boards on the play screen, from their demo scripts replayed part way, in
en, zh and th at every common size, 800x480 to 1920x1080 (SDL dummy driver): not blank, every character in a font, no
glyph cut off, text inside its box, and the public facts of the moment on the board."""

from __future__ import annotations

import pygame
import pytest

from companion import i18n
from companion.drawing.text import TextCache
from companion.kiosk import board_scenes as scenes
from tests.kits.board_checks import board_rect, readable_moment, redraw, texts_in
from tests.kits.kiosk_fixtures import SIZES, shots_dir, surface, text, text_cache

__all__ = ["shots_dir", "text", "text_cache"]


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("lang", i18n.LANGUAGES)
@pytest.mark.parametrize("moment", sorted(scenes.moments()))
def test_each_board_renders_readably(moment: str, lang: str, size: str, text: TextCache, shots_dir) -> None:
    """Every moment readable (board_checks.readable_moment: every player named, in the legend or HP
    list), and the public facts of Room 25's and Lockdown's moments on the board."""
    with readable_moment(moment, lang, size, text, shots_dir) as seen:
        on_board, public = seen.words, seen.public
        table = public["table"]
        tr = lambda msgid, **p: i18n.translate(lang, msgid, p)  # noqa: E731
        if public["game"] == "room25":
            assert tr("gameboards.room25.turn", turn=table["turn"], last=table["last_turn"]) in on_board
            shown = {r["room"] for r in table["rooms"] if r["room"] is not None and r["cell"] is not None}
            assert len(shown) >= 3
            for kind in shown:
                assert tr(f"gameboards.room25.short.{kind}") in " ".join(on_board), kind
        elif public["game"] == "lockdown":
            phase = tr(f"gameboards.lockdown.phase.{table['phase']}")
            assert tr("gameboards.lockdown.round", round=table["round"], phase=phase) in on_board
            assert table["poison"], "the moment has poisoned floors"
            assert tr("gameboards.lockdown.poison", floors=", ".join(table["poison"])) in on_board
            for p in table["players"]:
                assert str(p["hp"]) in on_board or p["shadow"]
            assert set(table["floors"]) <= set(on_board), "every floor is labelled"


def _board_in_design_units(size: str, text: TextCache) -> pygame.Surface:
    scene = scenes.moment_scene(surface(size), text, "en", "room25-exit")
    try:
        shot = scene.kiosk.surface.subsurface(board_rect(scene)).copy()
    finally:
        scene.close()
    return pygame.transform.smoothscale(shot, (166, 160))


def test_the_board_scales_with_the_screen(text: TextCache) -> None:
    """The same board at every size, brought to one size, is the same picture (nearly pixel for pixel)."""
    small, *others = (_board_in_design_units(size, text) for size in SIZES)
    a = pygame.image.tobytes(small, "RGB")
    for size, other in zip(SIZES[1:], others, strict=True):
        b = pygame.image.tobytes(other, "RGB")
        close = sum(abs(x - y) < 48 for x, y in zip(a, b, strict=True)) / len(a)
        assert close > 0.85, f"only {close:.0%} of the board at {size} matches the board at {SIZES[0]}"


def test_room25_board_shows_locks_markers_and_the_exits_gap(text: TextCache) -> None:
    """R2.6: a locked slide is an arrow outside its line; R4.2: the gap the exit left is marked."""
    scene = scenes.moment_scene(surface("800x480"), text, "en", "room25-exit")
    try:
        table = scene.table.referee.view("public")["table"]
        assert table["exit_left"] and table["locks"]
        drawn = redraw(scene)
        assert i18n.translate("en", "gameboards.room25.exit_gone") in " ".join(texts_in(drawn, board_rect(scene)))
        area = board_rect(scene)
        arrow = (255, 184, 56)  # WARN: only the lock arrows are drawn in it
        shot = scene.kiosk.surface.subsurface(area)
        warn = pygame.mask.from_threshold(shot, arrow, (6, 6, 6, 255)).count()
        assert warn > 20 * len(table["locks"]), "no lock arrow drawn"
    finally:
        scene.close()


def test_room25_markers_follow_the_players(text: TextCache) -> None:
    """Each living player's seat colour is on the board; a dead player's is not (only in the legend)."""
    scene = scenes.moment_scene(surface("800x480"), text, "en", "room25")
    try:
        public = scene.table.referee.view("public")
        people = public["table"]["people"]
        from companion.drawing.marks import seat_colors
        colors = seat_colors(public)
        redraw(scene)
        area = board_rect(scene)
        grid_part = scene.kiosk.surface.subsurface(area.inflate(0, -area.height // 5))  # without the legend
        for pid, person in people.items():
            count = pygame.mask.from_threshold(grid_part, colors[pid], (2, 2, 2, 255)).count()
            if person["status"] == "alive":
                assert count > 10, f"{pid}'s marker is missing"
            else:
                assert count == 0, f"{pid} is {person['status']} but has a marker"
    finally:
        scene.close()
