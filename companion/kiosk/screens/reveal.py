"""The reveal: the game's last announcements (what its settlement made public) one at a time, then
the final ranking. Each touch or `select` shows the next; they also advance by themselves. Then "The
whole story" (in Next's place) opens every announcement of the game (screens/story.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

from companion.kiosk.screens.base import Screen
from companion.kiosk.screens.play import announcement_texts
from companion.kiosk.widgets import ACCENT, DIM, FG, SEATS, Button, Region, draw_lines, panel

if TYPE_CHECKING:
    from companion.kiosk.kiosk import Kiosk

REVEALED = 5  # announcements revealed before the ranking
STEP_MS = 3000


class RevealScreen(Screen):
    name = "reveal"

    def __init__(self, kiosk: Kiosk) -> None:
        super().__init__(kiosk)
        self.shown = 1
        self.next_at = kiosk.now_ms() + STEP_MS

    def items(self) -> list[str]:
        return list(reversed(announcement_texts(self.k.lang, self.k.public, REVEALED)))

    @property
    def done(self) -> bool:
        return self.shown > len(self.items())

    def advance(self) -> None:
        if not self.done:
            self.shown += 1
            self.next_at = self.k.now_ms() + STEP_MS

    def update(self, now: int) -> None:
        if not self.done and now >= self.next_at:
            self.advance()

    def next_change_ms(self, now: int) -> int | None:
        return None if self.done else self.next_at

    def _areas(self) -> dict[str, pygame.Rect]:
        L = self.k.layout
        return {"title": L.rect(16, 40, 768, 44), "news": L.rect(16, 92, 420, 324),
                "ranking": L.rect(452, 92, 332, 324), "footer": L.footer()}

    def buttons(self) -> list[Button]:
        cols = self.k.layout.columns(self._areas()["footer"], 4)
        out = [Button(cols[3], self.tr("kiosk.button.menu"), self.k.open_menu, key="menu")]
        if not self.done:
            out.insert(0, Button(cols[2], self.tr("kiosk.reveal.next"), self.advance, "primary", key="next"))
        elif self.k.public.get("story"):  # issue 31: every announcement, first to last, where Next was
            out.insert(0, Button(cols[2], self.tr("kiosk.reveal.story"), self.story, key="story"))
        # issue 21: the same game again in one touch, or the game list; after Next and Menu, so the focus
        # (a GPIO "select") never starts a game by itself
        return [*out, Button(cols[0], self.tr("kiosk.reveal.play_again"), self.play_again,
                             "primary" if self.done else "normal", key="again"),
                Button(cols[1], self.tr("kiosk.reveal.another"), self.another, key="another")]

    def play_again(self) -> None:
        """The same game, players (same ids and names, same seats) and options, as the host."""
        public = self.k.public
        self.k.send({"by": "host", "move": "table.new_game",
                     "args": {"game": public.get("game"),
                              "players": [{"id": p["id"], "name": p["name"]} for p in public.get("players", [])],
                              "options": dict(public.get("options", self.k.settings.options)),
                              **({"moderator": True} if public.get("moderated") else {})}})
        self.k.say("kiosk.options.starting", game=self.tr(f"game.{public.get('game')}.title"))

    def story(self) -> None:
        from companion.kiosk.screens.story import StoryScreen
        self.k.push(StoryScreen(self.k))

    def another(self) -> None:
        from companion.kiosk.screens.game_list import GameListScreen
        self.k.push(GameListScreen(self.k))

    def ranking(self) -> list[tuple[int, list[str]]]:
        names = self.player_names()
        result = self.k.public.get("result") or {}
        return [(place, [names.get(pid, pid) for pid in group])
                for place, group in enumerate(result.get("ranking", []), start=1)]

    def regions(self) -> list[Region]:
        a, lang = self._areas(), self.k.lang
        items = self.items()[: self.shown]
        ranking = self.ranking() if self.done else []
        title = self.tr("kiosk.reveal.title")

        def heading(surface: pygame.Surface, rect: pygame.Rect) -> None:
            self.c.text.draw(surface, title, rect, self.c.font(30), FG, bold=True)

        def news(surface: pygame.Surface, rect: pygame.Rect) -> None:
            draw_lines(surface, self.c, items, rect, 20)

        def places(surface: pygame.Surface, rect: pygame.Rect) -> None:
            panel(surface, rect)
            inner = rect.inflate(-self.c.px(24), -self.c.px(20))
            if not self.done:
                self.c.text.draw(surface, self.tr("kiosk.reveal.wait"), inner, self.c.font(18), DIM, align="center")
                return
            head = pygame.Rect(inner.left, inner.top, inner.width, self.c.px(28))
            self.c.text.draw(surface, self.tr("kiosk.reveal.ranking"), head, self.c.font(18), ACCENT, bold=True)
            # a row per player, a shared place on each of its rows: 24-letter names never share a line
            lines = [(place, name) for place, group in ranking for name in group]
            rows = self.k.layout.rows(pygame.Rect(inner.left, head.bottom + self.c.px(8), inner.width,
                                                  inner.bottom - head.bottom - self.c.px(8)), max(5, len(lines)))
            for row, (place, name) in zip(rows, lines, strict=False):
                pygame.draw.circle(surface, SEATS[(place - 1) % len(SEATS)], (row.left + self.c.px(12), row.centery),
                                   self.c.px(9))
                text = self.tr("kiosk.reveal.place", place=place, names=name)
                self.c.text.draw(surface, text, row.inflate(-self.c.px(32), 0).move(self.c.px(16), 0),
                                 self.c.font(22), FG, bold=place == 1)
            if not ranking:
                draw_lines(surface, self.c, [self.tr("kiosk.reveal.no_ranking")], rows[0], 18, DIM)

        return [
            Region("reveal.title", a["title"], (lang, title), heading),
            Region("reveal.news", a["news"], (lang, tuple(items)), news),
            Region("reveal.ranking", a["ranking"], (lang, self.done, tuple(map(repr, ranking))), places),
            self.button_region("reveal.footer", a["footer"]),
        ]

    def back(self) -> None:
        pass
