"""A board's label (`companion.drawing.marks.label`) asked at 14 px or more is never drawn under 14 px
(scaled), whatever its box: it fits, or goes on two lines between whole words when both lines fit the
box's height, or is cut with an ellipsis on one line (issue 28: Room 25's "Passag"/"e" at 10 px on the
attract loop's board)."""

from __future__ import annotations

import pygame
import pytest

from companion.drawing.canvas import Canvas
from companion.drawing.marks import READABLE, label
from companion.drawing.text import TextCache
from companion.kiosk.layout import Layout
from tests.kits.kiosk_fixtures import text, text_cache

__all__ = ["text", "text_cache"]
WORDS = ["Passage", "Flooded", "ทางผ่าน", "น้ำท่วม", "通道", "exit gone", "ทางออกหายไป", "出口已消失",
         "Maximilianfeatherstonely", "Anna Maria Vanderberghes"]
#: (width, height) in design units: a Room 25 tile's name box on the panel and smaller, a wide low strip.
BOXES = [(55, 30), (53, 30), (40, 30), (30, 20), (55, 56), (120, 19), (20, 60)]


@pytest.mark.parametrize("size", ["800x480", "1920x1080"])
@pytest.mark.parametrize("box", BOXES, ids=[f"{w}x{h}" for w, h in BOXES])
def test_a_label_is_never_under_the_readable_size(size: str, box: tuple[int, int], text: TextCache) -> None:
    layout = Layout(*(int(n) for n in size.split("x")))
    c = Canvas(text, layout.px, layout.font)
    surface = pygame.Surface((layout.width, layout.height))
    least = layout.font(READABLE)
    for words in WORDS:
        for bold in (True, False):
            area = pygame.Rect(10, 10, layout.px(box[0]), layout.px(box[1]))
            text.record = []
            label(surface, c, words, area, 15, (255, 255, 255), bold=bold)
            drawn = text.record
            assert drawn, words
            for d in drawn:
                assert d.size >= least, (words, d.text, d.size)
                assert area.contains(d.rect) or (len(drawn) == 1 and d.rect.height > area.height), (words, d.text)
            shown = "".join(d.text for d in drawn)
            if len(drawn) == 2:  # two lines: split between words, nothing left out
                assert shown.replace(" ", "") == words.replace(" ", ""), (words, shown)
                assert " " in words or not words.isascii(), (words, [d.text for d in drawn])
            else:
                assert shown == words or words.startswith(shown.removesuffix("…")), (words, shown)  # a box
                # narrower than a letter and "…" keeps the first letter
