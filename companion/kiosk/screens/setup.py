"""The setup screen: the players in their seats and colours, the game's options, one seat's QR code at
a time to join by phone (when phones are served), and a word on enrolling new tokens.

The screen is shared, so a seat's code is shown only while no phone holds the seat (the first phone to
scan it takes the seat; a photo of it is worth nothing after that, docs/phones.md); a taken seat is
ticked in the list instead. The host's code is never here: only in the host menu.

One code at a time, large (issue 28: readable and scannable on the 7" panel): under the seat's name,
the code of the first seat no phone holds yet; when a phone takes it, the next free seat's code comes up
by itself, so players lean in and scan one after another. **‹ Previous** and **Next ›** (always in
their place, greyed while there is only one code to show) step through the free seats for a player who
wants theirs now."""

from __future__ import annotations

from typing import Any

import pygame

from companion.kiosk.qr import modules, qr_surface
from companion.kiosk.screens.base import Screen
from companion.kiosk.screens.options import option_label, value_label
from companion.kiosk.widgets import (
    ACCENT,
    DIM,
    FG,
    GOOD,
    SEATS,
    Button,
    Region,
    draw_label,
    draw_lines,
    panel,
)

MAX_SEATS_SHOWN = 10  # rows in the seat list (the codes step through every seat)

Seat = tuple[int, str, str, str | None, bool]  # seat number, player id, name, join URL while free, held by a phone


class SetupScreen(Screen):
    name = "setup"

    def __init__(self, kiosk: Any) -> None:
        super().__init__(kiosk)
        self.pick: str | None = None  # the seat whose code a Previous/Next asked for

    def _with_qr(self) -> bool:
        return self.k.settings.seats is not None

    def _areas(self) -> dict[str, pygame.Rect]:
        L = self.k.layout
        areas = {"title": L.rect(16, 40, 768, 40), "side": L.rect(532, 88, 252, 328), "footer": L.footer()}
        if self._with_qr():
            areas |= {"seats": L.rect(16, 88, 256, 328), "code": L.rect(284, 88, 236, 268),
                      "steps": L.rect(284, 364, 236, 52)}
        else:
            areas |= {"seats": L.rect(16, 88, 504, 328)}
        return areas

    def buttons(self) -> list[Button]:
        cols = self.k.layout.columns(self._areas()["footer"], 4)
        out = [Button(cols[0], self.tr("kiosk.button.back"), self.back, key="back"),
               Button(cols[1], self.tr("kiosk.setup.change"), self._change, key="change")]
        if self.k.feed is not None and self.k.feed.can_enroll:  # the readers run: tokens to enroll
            out.append(Button(cols[2], self.tr("kiosk.menu.enroll"), self._enroll, key="enroll"))
        out.append(Button(cols[3], self.tr("kiosk.setup.start"), self._start, "primary", key="start"))
        if self._with_qr():  # after the footer: the focus starts where it always did
            style = "normal" if len(self.free()) > 1 else "off"
            prev, nxt = self.k.layout.columns(self._areas()["steps"], 2, 8)  # under the code
            out += [Button(prev, self.tr("kiosk.setup.prev_seat"), lambda: self._step(-1), style, key="prev_seat"),
                    Button(nxt, self.tr("kiosk.setup.next_seat"), lambda: self._step(1), style, key="next_seat")]
        return out

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

    def _game(self) -> int | None:
        """The number of the game this screen sets up (its seats' codes are that game's)."""
        number = self.k.public.get("number")
        return number if isinstance(number, int) else None

    def seats(self) -> list[Seat]:
        """(seat number, player id, name, join URL while no phone holds the seat, held by a phone), in seat order."""
        phones, game = self.k.settings.seats, self._game()
        return [(i + 1, p["id"], p["name"], phones.join_url(p["id"], game) if phones else None,
                 phones.bound(p["id"]) if phones else False)
                for i, p in enumerate(self.k.public.get("players", []))]

    def free(self) -> list[Seat]:
        """The seats with a code to scan (no phone holds them), in seat order."""
        return [s for s in self.seats() if s[3] is not None]

    def shown(self) -> Seat | None:
        """The seat whose code is up: the one picked while it is free, else the first free seat after it
        (the next player's, once a phone took the picked one), else none (every seat has its phone)."""
        seats, free = self.seats(), self.free()
        if not free:
            return None
        order = [s[1] for s in seats]
        start = order.index(self.pick) if self.pick in order else 0
        for i in range(len(seats)):
            seat = seats[(start + i) % len(seats)]
            if seat[3] is not None:
                return seat
        return free[0]

    def _step(self, by: int) -> None:
        free, now = self.free(), self.shown()
        if len(free) < 2 or now is None:
            return
        at = [s[1] for s in free].index(now[1])
        self.pick = free[(at + by) % len(free)][1]

    def regions(self) -> list[Region]:
        a, lang = self._areas(), self.k.lang
        seats = self.seats()
        title = self.tr("kiosk.setup.title", game=self.tr(f"game.{self.k.public.get('game')}.title"),
                        count=len(seats))
        options: dict[str, Any] = dict(self.k.public.get("options", self.k.settings.options))
        game = str(self.k.public.get("game"))
        chosen = [self.tr("kiosk.options.value", option=option_label(lang, game, key),
                          value=value_label(lang, game, key, value)) for key, value in options.items()]
        if self.k.public.get("moderated"):  # everyone at the table is told: the host moderates (issue 28)
            chosen.append(self.tr("kiosk.options.value", option=option_label(lang, game, "moderator"),
                                  value=value_label(lang, game, "moderator", True)))
        side = [self.tr("kiosk.setup.options"), *(chosen or [self.tr("kiosk.setup.no_options")])]
        side += ["", self.tr("kiosk.setup.tokens")]
        with_qr = self._with_qr()
        side += ["", self.tr("kiosk.setup.scan_own" if with_qr else "kiosk.setup.no_phones")]
        shown = self.shown()
        listed = seats[:MAX_SEATS_SHOWN]

        def heading(surface: pygame.Surface, rect: pygame.Rect) -> None:
            self.c.text.draw(surface, title, rect, self.c.font(26), FG, bold=True)

        def seat_list(surface: pygame.Surface, rect: pygame.Rect) -> None:
            rows = self.k.layout.rows(rect, max(5, len(listed)), 4)
            for (number, pid, name, _url, bound), row in zip(listed, rows, strict=False):
                here = shown is not None and shown[1] == pid
                panel(surface, row)
                if here:  # the seat whose code is up
                    pygame.draw.rect(surface, ACCENT, row, width=max(2, self.c.px(3)), border_radius=self.c.px(8))
                dot = min(self.c.px(10), row.height // 3)
                pygame.draw.circle(surface, SEATS[(number - 1) % len(SEATS)],
                                   (row.left + self.c.px(15), row.centery), dot)
                mark = self.c.px(22)  # room for the tick: a 24-letter name fits one line at 14 px beside it
                label = pygame.Rect(row.left + self.c.px(28), row.top + self.c.px(2),
                                    row.width - self.c.px(28) - mark - self.c.px(6), row.height - self.c.px(4))
                draw_label(surface, self.c, self.tr("kiosk.setup.seat", number=number, name=name) if not with_qr
                           else name, label, 18 if not with_qr else 16, GOOD if bound else FG, bold=not with_qr)
                if bound:  # a phone holds the seat: a tick, no code to photograph
                    x, y, u = row.right - mark - self.c.px(4), row.centery, mark / 22
                    pygame.draw.lines(surface, GOOD, False, [(x + 3 * u, y), (x + 9 * u, y + 6 * u),
                                                             (x + 19 * u, y - 7 * u)], max(2, self.c.px(3)))

        def code_panel(surface: pygame.Surface, rect: pygame.Rect) -> None:
            panel(surface, rect)
            L = self.k.layout
            inner = rect.inflate(-L.px(8), -L.px(8))
            head = pygame.Rect(inner.left, inner.top, inner.width, L.px(40))
            if shown is None:  # every seat has its phone, the new game's codes are on their way, or no page
                joined = bool(seats) and all(s[4] for s in seats)
                phones = self.k.settings.seats
                said = ("kiosk.setup.all_joined" if joined else "kiosk.setup.codes_coming"
                        if phones is not None and phones.codes_coming(self._game()) else "kiosk.setup.no_phones")
                draw_lines(surface, self.c, [self.tr(said)], inner.inflate(-L.px(8), 0), 18, GOOD if joined else DIM)
                return
            number, _pid, name, url, _bound = shown
            pygame.draw.circle(surface, SEATS[(number - 1) % len(SEATS)], (head.left + L.px(8), head.centery),
                               L.px(7))
            draw_label(surface, self.c, name, head.inflate(-L.px(22), 0).move(L.px(11), 0), 20, FG)  # as listed
            assert url is not None
            room = inner.bottom - head.bottom
            code = qr_surface(url, min(inner.width, room))
            for other in self.free():  # the other free seats' codes made now: Next shows one at once
                modules(str(other[3]))
            surface.blit(code, code.get_rect(center=(inner.centerx, head.bottom + room // 2)))

        def side_panel(surface: pygame.Surface, rect: pygame.Rect) -> None:
            panel(surface, rect)
            inner = rect.inflate(-self.c.px(20), -self.c.px(20))
            head = pygame.Rect(inner.left, inner.top, inner.width, self.c.px(26))
            self.c.text.draw(surface, side[0], head, self.c.font(16), ACCENT, bold=True)
            draw_lines(surface, self.c, side[1:], pygame.Rect(inner.left, head.bottom + self.c.px(6), inner.width,
                                                              inner.bottom - head.bottom - self.c.px(6)), 16, DIM)

        regions = [
            Region("setup.title", a["title"], (lang, title), heading),
            Region("setup.seats", a["seats"], (lang, with_qr, tuple(listed), shown), seat_list),
            Region("setup.side", a["side"], (lang, tuple(side)), side_panel),
            self.button_region("setup.footer", a["footer"]),
        ]
        if with_qr:
            regions += [Region("setup.code", a["code"], (lang, shown, tuple(s[4] for s in seats)), code_panel),
                        self.button_region("setup.steps", a["steps"])]
        return regions
