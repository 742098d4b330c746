"""Lockdown's board is drawn again only when what it shows changed (issue 20: drawn_once): the kept
picture is pixel for pixel the one a fresh canvas draws, for any views one after another, and a view
that changes only the turn, the ready marks or the timers draws no text at all."""

from __future__ import annotations

from typing import Any

import pygame
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.drawing.canvas import Canvas
from companion.drawing.text import TextCache
from companion.games import registry
from companion.kiosk.layout import Layout
from tests.kiosk.test_boards_properties import lockdown_views
from tests.kits.kiosk_fixtures import text, text_cache

__all__ = ["text", "text_cache"]


def _shot(c: Canvas, layout: Layout, size: tuple[int, int], lang: str, public: dict[str, Any]) -> pygame.Surface:
    shot = pygame.Surface(size)
    shot.fill((1, 2, 3))
    draw = registry()["lockdown"].board()
    assert draw is not None
    draw(shot, layout.rect(464, 108, 308, 296), c, lang, public, 0)
    return shot


def _same(a: pygame.Surface, b: pygame.Surface) -> bool:
    return pygame.image.tobytes(a, "RGB") == pygame.image.tobytes(b, "RGB")


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(views=st.lists(lockdown_views(), min_size=2, max_size=3), lang=st.sampled_from(["en", "zh", "th"]))
def test_the_kept_board_is_the_board_a_fresh_canvas_draws(views: list[dict[str, Any]], lang: str,
                                                          text: TextCache) -> None:
    size = (800, 480)
    layout = Layout(*size)
    kept = Canvas(text, layout.px, layout.font)
    for public in [*views, views[0], views[0]]:
        assert _same(_shot(kept, layout, size, lang, public), _shot(Canvas(text, layout.px, layout.font), layout,
                                                                   size, lang, public))


def test_a_new_turn_alone_redraws_no_text(text: TextCache) -> None:
    size = (800, 480)
    layout = Layout(*size)
    c = Canvas(text, layout.px, layout.font)
    floors = ["A1", "A2", "B1"]
    table = {"round": 2, "phase": "action", "map": "default", "floors": floors, "poison": ["B1"], "turn": "a",
             "ready": [], "timers": {"turn": {"remaining": 9000, "running": True}},
             "players": [{"id": "a", "shadow": False, "hp": 5}, {"id": "b", "shadow": True, "hp": 0}]}
    public = {"game": "lockdown", "players": [{"id": "a", "name": "Ana"}, {"id": "b", "name": "Ben"}], "table": table}
    first = _shot(c, layout, size, "en", public)
    assert text.record is not None
    text.record.clear()
    later = {**public, "turn": "b", "table": {**table, "turn": "b", "timers": {"turn": {"remaining": 120000}}}}
    assert _same(_shot(c, layout, size, "en", later), first)
    assert list(text.record) == []
    hurt = {**public, "table": {**table, "players": [{"id": "a", "shadow": False, "hp": 4}, table["players"][1]]}}
    assert not _same(_shot(c, layout, size, "en", hurt), first)


def test_a_new_phase_redraws_the_top_line_alone(text: TextCache) -> None:
    """The board's three parts are kept apart: a new phase draws its round line again, not the map's
    floors nor the players' names and HP (issue 20: the board's parts, docs/perf/kiosk.md)."""
    size = (800, 480)
    layout = Layout(*size)
    c = Canvas(text, layout.px, layout.font)
    table = {"round": 2, "phase": "action", "map": "default", "floors": ["A1", "A2", "B1"], "poison": ["B1"],
             "players": [{"id": "a", "shadow": False, "hp": 5}, {"id": "b", "shadow": True, "hp": 0}]}
    public = {"game": "lockdown", "players": [{"id": "a", "name": "Ana"}, {"id": "b", "name": "Ben"}], "table": table}
    _shot(c, layout, size, "en", public)
    assert text.record is not None
    text.record.clear()
    voting = {**public, "table": {**table, "phase": "free"}}
    shot = _shot(c, layout, size, "en", voting)
    assert _same(shot, _shot(Canvas(text, layout.px, layout.font), layout, size, "en", voting))
    text.record.clear()
    _shot(c, layout, size, "en", {**public, "table": {**table, "phase": "settlement"}})
    drawn = [d.text for d in text.record]
    assert drawn and not {"A1", "A2", "B1", "Ana", "Ben", "5"} & set(drawn), drawn
