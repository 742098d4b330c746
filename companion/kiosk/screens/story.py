"""The whole story of a finished game (issue 31): every announcement it made, first to last, numbered, a
page at a time, opened from the results screen. The public view of a finished game carries them
(`story`, companion/core/referee.py: built from announcements only, which are public; names in words).
The footer keeps its places: Back on the left, "‹ Earlier" and "Later ›" on the right (dimmed at the
first and last page), and the page's place in the story in the title line. The story opens on its first
page: a table reads a story from its beginning."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pygame

from companion.kiosk.screens.base import Screen
from companion.kiosk.widgets import DIM, FG, Button, Region, panel
from companion.naming import Namer

if TYPE_CHECKING:
    from companion.kiosk.kiosk import Kiosk

TEXT_SIZE = 18  # design units: 18 px on the 7" panel (at least 14, issue 28)
GAP = 6

#: One page: the lines drawn, each (the entry's index in the story, one wrapped part of its text).
Page = list[tuple[int, str]]


def first_number(public: dict[str, Any]) -> int:
    """The number in the game of the story's first entry: 1, unless the game ran so long that its view
    keeps only the latest `referee.STORY_SHOWN`."""
    story = public.get("story") or []
    return max(1, int(public.get("announced") or len(story)) - len(story) + 1)


def story_texts(lang: str, public: dict[str, Any]) -> list[str]:
    """The finished game's announcements in words, in order, each with its number in the game."""
    first, namer = first_number(public), Namer.of(public)
    return [f"{first + i}. {namer.describe(lang, a)}" for i, a in enumerate(public.get("story") or [])]


class StoryScreen(Screen):
    name = "story"

    def __init__(self, kiosk: Kiosk) -> None:
        super().__init__(kiosk)
        self.page = 0
        self._pages: tuple[object, list[Page]] | None = None

    def _areas(self) -> dict[str, pygame.Rect]:
        L = self.k.layout
        return {"title": L.rect(16, 40, 540, 44), "where": L.rect(560, 40, 224, 44),
                "body": L.rect(16, 92, 768, 324), "footer": L.footer()}

    def pages(self) -> list[Page]:
        """The story cut into pages that fit the body (an entry never split unless taller than a page);
        worked out once per view and language."""
        public = self.k.public  # the same game's story changes only with a correction (its count grows)
        key = (self.k.lang, public.get("number"), public.get("announced"), public.get("corrections"),
               len(public.get("story") or []), self.k.layout.width, self.k.layout.height)
        if self._pages is None or self._pages[0] != key:
            self._pages = (key, self._paginate(story_texts(self.k.lang, self.k.public)))
        return self._pages[1]

    def _paginate(self, texts: list[str]) -> list[Page]:
        inner = self._inner()
        px, gap = self.c.font(TEXT_SIZE), self.c.px(GAP)
        pages: list[Page] = [[]]
        used = 0
        for i, text in enumerate(texts):
            parts = self.c.text.wrap(text, px, inner.width)
            heights = [self.c.text.render(part, px, FG).get_height() + gap for part in parts]
            if pages[-1] and used + sum(heights) > inner.height:  # the whole entry on the next page
                pages.append([])
                used = 0
            for part, h in zip(parts, heights, strict=True):
                if pages[-1] and used + h > inner.height:  # taller than a page: goes on over the next
                    pages.append([])
                    used = 0
                pages[-1].append((i, part))
                used += h
        return pages

    def _inner(self) -> pygame.Rect:
        return self._areas()["body"].inflate(-self.c.px(24), -self.c.px(20))

    def turn(self, delta: int) -> None:
        self.page = max(0, min(self.page + delta, len(self.pages()) - 1))

    def buttons(self) -> list[Button]:
        cols = self.k.layout.columns(self._areas()["footer"], 4)
        last = len(self.pages()) - 1
        return [Button(cols[0], self.tr("kiosk.story.back"), self.k.pop, key="back"),
                Button(cols[2], self.tr("kiosk.story.earlier"), lambda: self.turn(-1),
                       "normal" if self.page > 0 else "off", key="earlier"),
                Button(cols[3], self.tr("kiosk.story.later"), lambda: self.turn(1),
                       "primary" if self.page < last else "off", key="later")]

    def shown(self) -> list[str]:
        """The lines on the page up (what a person reads there)."""
        pages = self.pages()
        return [part for _, part in pages[min(self.page, len(pages) - 1)]]

    def regions(self) -> list[Region]:
        a, lang = self._areas(), self.k.lang
        pages = self.pages()
        page = min(self.page, len(pages) - 1)
        lines = pages[page]
        title = self.tr("kiosk.story.title")
        first = first_number(self.k.public)
        total = first - 1 + len(self.k.public.get("story") or [])
        where = self.tr("kiosk.story.where", first=first + lines[0][0], last=first + lines[-1][0],
                        total=total) if lines else ""

        def heading(surface: pygame.Surface, rect: pygame.Rect) -> None:
            self.c.text.draw(surface, title, rect, self.c.font(28), FG, bold=True)

        def place(surface: pygame.Surface, rect: pygame.Rect) -> None:
            self.c.text.draw(surface, where, rect, self.c.font(18), DIM, align="right")

        def body(surface: pygame.Surface, rect: pygame.Rect) -> None:
            panel(surface, rect)
            inner = self._inner()
            px, gap = self.c.font(TEXT_SIZE), self.c.px(GAP)
            if not lines:
                self.c.text.draw(surface, self.tr("kiosk.story.empty"), inner, px, DIM)
                return
            y = inner.top
            for _, part in lines:
                h = self.c.text.render(part, px, FG).get_height()
                self.c.text.draw(surface, part, pygame.Rect(inner.left, y, inner.width, h), px, FG)
                y += h + gap

        return [Region("story.title", a["title"], (lang, title), heading),
                Region("story.where", a["where"], (lang, where), place),
                Region("story.body", a["body"], (lang, tuple(lines)), body),
                self.button_region("story.footer", a["footer"])]
