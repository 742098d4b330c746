"""A list of large buttons a page at a time, with "‹ Back" and "More ›" when it is longer (issue 21:
every list fits 800x480). The game list, the attract picker and the seating screen share it."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass

import pygame

from companion import i18n
from companion.kiosk.layout import Layout
from companion.kiosk.widgets import Button


@dataclass(frozen=True)
class Entry:
    label: str
    action: Callable[[], None]
    style: str = "normal"
    key: Hashable = None


def paged(entries: list[Entry], area: pygame.Rect, L: Layout, lang: str, page: int,
          turn: Callable[[int], None], columns: int = 1, row_h: float = 48) -> list[Button]:
    """The entries of page `page` in a grid filling `area` (`columns` wide, rows of `row_h` design units),
    the last row holding Back/More when there is more than one page."""
    gap = L.px(8)
    h = L.px(row_h)
    rows = max(1, (area.height + gap) // (h + gap))
    fit = rows * columns
    per = fit if len(entries) <= fit else (rows - 1) * columns
    pages = max(1, -(-len(entries) // max(1, per)))
    page = max(0, min(page, pages - 1))
    cols = L.columns(pygame.Rect(area.left, area.top, area.width, h), columns, 8)
    out = []
    for i, e in enumerate(entries[page * per:(page + 1) * per]):
        col = cols[i % columns]
        rect = pygame.Rect(col.left, area.top + (i // columns) * (h + gap), col.width, h)
        out.append(Button(rect, e.label, e.action, e.style, e.key))
    if pages > 1:
        nav = L.columns(pygame.Rect(area.left, area.top + (rows - 1) * (h + gap), area.width, h), 2, 8)
        if page > 0:
            out.append(Button(nav[0], i18n.translate(lang, "kiosk.form.back"), lambda: turn(page - 1),
                              key=("page_back", page)))
        if page + 1 < pages:
            out.append(Button(nav[1], i18n.translate(lang, "kiosk.form.more"), lambda: turn(page + 1),
                              key=("page_more", page)))
    return out
