"""The host menu's phones and seats: which seats a phone holds (never which phone), a button to release
each one (its phone is dropped and its code changes), and the host's own QR code while no phone holds
the host's seat. The host's code is shown here only, never on the setup screen (docs/phones.md)."""

from __future__ import annotations

import functools

import pygame

from companion import i18n
from companion.kiosk.qr import qr_surface
from companion.kiosk.screens.base import Screen
from companion.kiosk.widgets import DIM, FG, GOOD, SEATS, Button, Region, draw_button, draw_label, draw_lines, panel

MAX_SEATS_SHOWN = 9


class PhoneSeatsScreen(Screen):
    name = "phones"

    def _areas(self) -> dict[str, pygame.Rect]:
        L = self.k.layout
        return {"title": L.rect(16, 40, 768, 40), "host": L.rect(16, 88, 300, 328),
                "seats": L.rect(332, 88, 452, 328), "footer": L.footer()}

    def rows(self) -> list[tuple[int, str, str, bool]]:
        """(seat number, player id, name, held by a phone), in seat order."""
        phones = self.k.settings.seats
        return [(i + 1, p["id"], p["name"], phones is not None and phones.bound(p["id"]))
                for i, p in enumerate(self.k.public.get("players", [])[:MAX_SEATS_SHOWN])]

    def _row_rects(self) -> list[pygame.Rect]:
        L = self.k.layout
        inner = self._areas()["seats"].inflate(-L.px(16), -L.px(16))
        return L.rows(inner, max(5, len(self.rows())), 6)

    def buttons(self) -> list[Button]:
        L = self.k.layout
        out: list[Button] = []
        for (_number, pid, _name, bound), row in zip(self.rows(), self._row_rects(), strict=False):
            if bound:
                rect = pygame.Rect(row.right - L.px(130), row.top, L.px(130), row.height)
                out.append(Button(rect, self.tr("kiosk.seats.release"), functools.partial(self._ask_release, pid),
                                  "danger", ("release", pid)))
        phones = self.k.settings.seats
        if phones is not None and phones.bound(None):
            host = self._areas()["host"].inflate(-L.px(20), -L.px(20))
            rect = pygame.Rect(host.left, host.bottom - L.px(56), host.width, L.px(56))
            out.append(Button(rect, self.tr("kiosk.seats.release_host"), functools.partial(self._ask_release, None),
                              "danger", ("release", None)))
        cols = L.columns(self._areas()["footer"], 4)
        out.append(Button(cols[0], self.tr("kiosk.button.back"), self.k.pop, key="back"))
        return out

    def _ask_release(self, pid: str | None) -> None:
        """Release a seat: its second step says that the phone is dropped and how it comes back."""
        from companion.kiosk.screens.confirm import ConfirmScreen
        seat = self.tr("sender.host") if pid is None else self.player_names().get(pid, pid)
        self.k.push(ConfirmScreen(self.k, self.tr("kiosk.confirm.release.title", seat=seat),
                                  self.tr("kiosk.confirm.release.body", seat=seat),
                                  self.tr("kiosk.confirm.release.yes"), functools.partial(self._release, pid)))

    def _release(self, pid: str | None) -> None:
        phones = self.k.settings.seats
        if phones is None:
            return
        seat = self.tr("sender.host") if pid is None else self.player_names().get(pid, pid)
        if phones.release(pid):
            self.k.say("kiosk.seats.released", seat=seat)
        else:
            self.k.say("kiosk.notice.refused", reason=i18n.translate(self.k.lang, "reject.seat_unavailable"))

    def regions(self) -> list[Region]:
        a, lang = self._areas(), self.k.lang
        phones = self.k.settings.seats
        title = self.tr("kiosk.seats.title")
        rows = self.rows()
        host_url = phones.join_url(None) if phones is not None else None
        host_bound = phones is not None and phones.bound(None)
        host_text = self.tr("kiosk.seats.host_joined" if host_bound else
                            "kiosk.seats.host_code" if host_url else "kiosk.setup.no_phones")
        words = {True: self.tr("kiosk.seats.joined"), False: self.tr("kiosk.seats.open")}
        lines = [(self.tr("kiosk.setup.seat", number=n, name=name), bound) for n, _pid, name, bound in rows]
        buttons = self.buttons()
        focus = self.shown_focus()
        row_rects = self._row_rects()

        def heading(surface: pygame.Surface, rect: pygame.Rect) -> None:
            self.c.text.draw(surface, title, rect, self.c.font(26), FG, bold=True)

        def host_panel(surface: pygame.Surface, rect: pygame.Rect) -> None:
            panel(surface, rect)
            inner = rect.inflate(-self.c.px(20), -self.c.px(20))
            head = pygame.Rect(inner.left, inner.top, inner.width, self.c.px(60))
            draw_lines(surface, self.c, [host_text], head, 16, GOOD if host_bound else FG)
            if host_url:
                code = qr_surface(host_url, min(inner.width, inner.bottom - head.bottom))
                surface.blit(code, code.get_rect(midbottom=(inner.centerx, inner.bottom)))
            for i, b in enumerate(buttons):
                if rect.contains(b.rect):
                    draw_button(surface, self.c, b, i == focus)

        def seat_rows(surface: pygame.Surface, rect: pygame.Rect) -> None:
            panel(surface, rect)
            dot = self.c.px(9)
            for (number, _pid, _name, bound), (label, _), row in zip(rows, lines, row_rects, strict=False):
                pygame.draw.circle(surface, SEATS[(number - 1) % len(SEATS)], (row.left + dot, row.centery), dot)
                end = row.right - (self.c.px(138) if bound else 0)  # a taken seat's release button on the right
                said = self.c.text.render(words[bound], self.c.font(16), DIM).get_width()
                # the name takes what the state's word leaves (a 24-letter name needs the room)
                text = pygame.Rect(row.left + 3 * dot, row.top, end - said - self.c.px(8) - row.left - 3 * dot,
                                   row.height)
                draw_label(surface, self.c, label, text, 18)
                state = pygame.Rect(text.right + self.c.px(8), row.top, end - text.right - self.c.px(8), row.height)
                self.c.text.draw(surface, words[bound], state, self.c.font(16), GOOD if bound else DIM)
            for i, b in enumerate(buttons):
                if rect.contains(b.rect):
                    draw_button(surface, self.c, b, i == focus)

        key_buttons = tuple((b.label, b.style, tuple(b.rect), b.key, i == focus) for i, b in enumerate(buttons))
        return [
            Region("phones.title", a["title"], (lang, title), heading),
            Region("phones.host", a["host"], (lang, host_text, host_url, key_buttons), host_panel),
            Region("phones.seats", a["seats"], (lang, tuple(lines), key_buttons), seat_rows),
            self.button_region("phones.footer", a["footer"]),
        ]
