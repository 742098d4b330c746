"""The setup screen: the players in their seats and colours, the game's options, a QR code per seat
to join by phone (when phones are served), and a word on enrolling new tokens.

The screen is shared, so a seat's code is shown only while no phone holds the seat (the first phone to
scan it takes the seat; a photo of it is worth nothing after that, docs/phones.md); a taken seat says
"joined" instead. The host's code is never here: only in the host menu."""

from __future__ import annotations

from typing import Any

import pygame

from companion.kiosk.qr import qr_surface
from companion.kiosk.screens.base import Screen
from companion.kiosk.screens.options import option_label, value_label
from companion.kiosk.widgets import ACCENT, DIM, FG, GOOD, SEATS, Button, Region, draw_lines, panel

MAX_SEATS_SHOWN = 9


class SetupScreen(Screen):
    name = "setup"

    def _areas(self) -> dict[str, pygame.Rect]:
        L = self.k.layout
        return {"title": L.rect(16, 40, 768, 40), "seats": L.rect(16, 88, 500, 328),
                "side": L.rect(532, 88, 252, 328), "footer": L.footer()}

    def buttons(self) -> list[Button]:
        cols = self.k.layout.columns(self._areas()["footer"], 4)
        out = [Button(cols[0], self.tr("kiosk.button.back"), self.back, key="back"),
               Button(cols[1], self.tr("kiosk.setup.change"), self._change, key="change")]
        if self.k.feed is not None and self.k.feed.can_enroll:  # the readers run: tokens to enroll
            out.append(Button(cols[2], self.tr("kiosk.menu.enroll"), self._enroll, key="enroll"))
        return [*out, Button(cols[3], self.tr("kiosk.setup.start"), self._start, "primary", key="start")]

    def _change(self) -> None:
        """Other players or options for this game: the new-game flow, prefilled with these (issue 21)."""
        from companion.kiosk.screens.game_list import open_flow
        open_flow(self.k, str(self.k.public.get("game")))

    def _enroll(self) -> None:
        from companion.kiosk.screens.enroll import EnrollScreen
        self.k.as_host(lambda: self.k.push(EnrollScreen(self.k, mode=True)))  # the host's, as in the menu

    def _start(self) -> None:
        from companion.kiosk.screens.play import PlayScreen
        self.k.stack[0] = PlayScreen(self.k)

    def back(self) -> None:
        """Back to the demo, unless the game has begun: then back to the game (the demo never stands in
        for it)."""
        from companion.kiosk.screens import started
        from companion.kiosk.screens.attract import AttractScreen
        from companion.kiosk.screens.play import PlayScreen
        self.k.stack[0] = PlayScreen(self.k) if started(self.k.public) else AttractScreen(self.k)

    def seats(self) -> list[tuple[int, str, str, str | None, bool]]:
        """(seat number, player id, name, join URL while no phone holds the seat, held by a phone), in seat order."""
        phones = self.k.settings.seats
        return [(i + 1, p["id"], p["name"], phones.join_url(p["id"]) if phones else None,
                 phones.bound(p["id"]) if phones else False)
                for i, p in enumerate(self.k.public.get("players", [])[:MAX_SEATS_SHOWN])]

    def regions(self) -> list[Region]:
        a, lang = self._areas(), self.k.lang
        seats = self.seats()
        title = self.tr("kiosk.setup.title", game=self.tr(f"game.{self.k.public.get('game')}.title"),
                        count=len(self.k.public.get("players", [])))
        options: dict[str, Any] = dict(self.k.public.get("options", self.k.settings.options))
        game = str(self.k.public.get("game"))
        chosen = [self.tr("kiosk.options.value", option=option_label(lang, game, key),
                          value=value_label(lang, game, key, value)) for key, value in options.items()]
        if self.k.public.get("moderated"):  # everyone at the table is told: the host moderates (issue 28)
            chosen.append(self.tr("kiosk.options.value", option=option_label(lang, game, "moderator"),
                                  value=value_label(lang, game, "moderator", True)))
        side = [self.tr("kiosk.setup.options"), *(chosen or [self.tr("kiosk.setup.no_options")])]
        side += ["", self.tr("kiosk.setup.tokens")]
        with_qr = self.k.settings.seats is not None
        side += ["", self.tr("kiosk.setup.scan_own" if with_qr else "kiosk.setup.no_phones")]
        joined = self.tr("kiosk.setup.joined")

        def heading(surface: pygame.Surface, rect: pygame.Rect) -> None:
            self.c.text.draw(surface, title, rect, self.c.font(26), FG, bold=True)

        def seat_list(surface: pygame.Surface, rect: pygame.Rect) -> None:
            cols = 3 if with_qr else 1
            per_col = -(-len(seats) // cols) if seats else 1
            columns = self.k.layout.columns(rect, cols)
            for i, (number, _pid, name, url, bound) in enumerate(seats):
                col = columns[i // per_col] if with_qr else columns[0]
                rows = self.k.layout.rows(col, per_col if with_qr else max(4, len(seats)), 6)
                cell = rows[i % per_col] if with_qr else rows[i]
                panel(surface, cell)
                color = SEATS[(number - 1) % len(SEATS)]
                dot = self.c.px(12)
                pygame.draw.circle(surface, color, (cell.left + 2 * dot, cell.top + cell.height // 2 if not with_qr
                                                    else cell.top + 2 * dot), dot)
                text_rect = pygame.Rect(cell.left + 4 * dot, cell.top, cell.width - 5 * dot, self.c.px(36)
                                        if with_qr else cell.height)
                self.c.text.draw(surface, self.tr("kiosk.setup.seat", number=number, name=name), text_rect,
                                 self.c.font(18), FG, bold=True)
                if url:
                    size = min(cell.width, cell.height - self.c.px(44))
                    code = qr_surface(url, size)
                    surface.blit(code, code.get_rect(midbottom=(cell.centerx, cell.bottom - self.c.px(4))))
                elif bound:  # a phone holds the seat: no code to photograph
                    below = pygame.Rect(cell.left + self.c.px(8), text_rect.bottom, cell.width - self.c.px(16),
                                        cell.bottom - text_rect.bottom - self.c.px(8))
                    self.c.text.draw(surface, joined, below, self.c.font(18), GOOD, bold=True, align="center")

        def side_panel(surface: pygame.Surface, rect: pygame.Rect) -> None:
            panel(surface, rect)
            inner = rect.inflate(-self.c.px(20), -self.c.px(20))
            head = pygame.Rect(inner.left, inner.top, inner.width, self.c.px(26))
            self.c.text.draw(surface, side[0], head, self.c.font(16), ACCENT, bold=True)
            draw_lines(surface, self.c, side[1:], pygame.Rect(inner.left, head.bottom + self.c.px(6), inner.width,
                                                              inner.bottom - head.bottom - self.c.px(6)), 16, DIM)

        return [
            Region("setup.title", a["title"], (lang, title), heading),
            Region("setup.seats", a["seats"], (lang, with_qr, tuple(seats)), seat_list),
            Region("setup.side", a["side"], (lang, tuple(side)), side_panel),
            self.button_region("setup.footer", a["footer"]),
        ]
