"""The Room 25 and Lockdown boards on the play screen, from their demo scripts replayed part way, in
en, zh and th at every common size, 800x480 to 1920x1080 (SDL dummy driver): not blank, every character in a font, no
glyph cut off, text inside its box, and the public facts of the moment on the board."""

from __future__ import annotations

import re

import pygame
import pytest

from companion import i18n
from companion.drawing.text import TextCache
from companion.kiosk import board_scenes as scenes
from tests.kits.gameboard_scenes import board_rect, redraw, texts_in
from tests.kits.kiosk_fixtures import SIZES, ink_fraction, shots_dir, surface, text, text_cache, text_problems

__all__ = ["shots_dir", "text", "text_cache"]
SCRIPT = {"zh": re.compile(r"[\u4e00-\u9fff]"), "th": re.compile(r"[\u0e01-\u0e5b]"), "en": re.compile(r"[A-Za-z]")}


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("lang", i18n.LANGUAGES)
@pytest.mark.parametrize("moment", sorted(scenes.moments()))
def test_each_board_renders_readably(moment: str, lang: str, size: str, text: TextCache, shots_dir) -> None:
    scene = scenes.moment_scene(surface(size), text, lang, moment)
    try:
        assert scene.kiosk.top.name == "play"
        drawn = redraw(scene)
        shot = scene.kiosk.surface
        pygame.image.save(shot, str(shots_dir / f"board-{moment}-{lang}-{size}.png"))
        area = board_rect(scene)
        assert ink_fraction(shot.subsurface(area)) > 0.3, "the board is (nearly) empty"
        assert not text.missing, f"characters no font has: {sorted(text.missing)}"
        assert text_problems(drawn) == []
        on_board = texts_in(drawn, area)
        assert any(SCRIPT[lang].search(t) for t in on_board), f"nothing on the board is in {lang}: {on_board}"
        public = scene.table.referee.view("public")
        table = public["table"]
        tr = lambda msgid, **p: i18n.translate(lang, msgid, p)  # noqa: E731
        names = [p["name"] for p in public["players"]]
        assert set(names) <= set(on_board), "every player is named on the board (legend or HP list)"
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
    finally:
        scene.close()


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
