"""The booth: one player's private screen, opened by a tap of that player's token.

It draws from that player's view only (their secrets, their prompts as touch forms) and hides
itself when they press "Close my booth" (Done, always at the footer's right end: the one way out by
touch), tap their token again, leave it untouched for `booth_timeout_s`, or when nothing is left to do
`FINISHED_MS` after their last Send was accepted (the receipt says so, counting down).
On hiding, the view is dropped and the feed stops computing it. When phones are served, "My phone code"
shows the player's own seat's QR code here, in private, while no phone holds the seat.

The footer keeps fixed places (issue 28): My phone code, Back to the list, Send (or, after a refusal,
Change it), Close my booth. After Send the form panel shows what was sent and the referee's answer
(booth_receipt.py) and the player stays in the booth; Back returns to the list of forms without sending.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pygame

from companion import i18n
from companion.core.rejection import Rejected
from companion.games import registry
from companion.kiosk.feed import Reply
from companion.kiosk.layout import Layout
from companion.kiosk.qr import qr_surface
from companion.kiosk.screens.base import Screen
from companion.kiosk.screens.booth_receipt import Sent, draw_receipt
from companion.kiosk.screens.form_layout import draw_line, lay_out, prompt_list
from companion.kiosk.screens.forms import FormState, label
from companion.kiosk.widgets import (
    ACCENT,
    DANGER,
    DIM,
    GOOD,
    Button,
    Region,
    draw_button,
    draw_label,
    draw_lines,
    label_height,
    panel,
)
from companion.naming import Namer

if TYPE_CHECKING:
    from companion.kiosk.kiosk import Kiosk

PANEL_SIZES = frozenset({(800, 480), (1024, 600), (1280, 800)})  # a table's own touch panel, 7" to 10"
FINISHED_MS = 8000  # after the last input a player had to make was accepted: time to read the receipt, then hide
CLOSING_SAID_MS = 8000  # the receipt counts the last seconds down before the booth hides by itself


def private_screen(layout: Layout) -> bool:
    """Whether the screen is a small panel only the player in front of it reads ("only you see this"):
    the 7" to 10" panels' sizes. A 16:9 screen (1280x720, 1920x1080) is a TV or a monitor the table
    sees from across the room: the booth says so instead (docs/kiosk.md)."""
    return (layout.width, layout.height) in PANEL_SIZES


class BoothScreen(Screen):
    name = "booth"

    def __init__(self, kiosk: Kiosk, player: str, view: dict[str, Any]) -> None:
        super().__init__(kiosk)
        self.player = player
        self.audience = f"player:{player}"
        self.view: dict[str, Any] = view
        self.form: FormState | None = None
        self.sent: Sent | None = None  # the receipt of the last Send, shown in place of the form
        self.answer: tuple[str, bool] | None = None  # (text, accepted): the last answer, or "Sending…"
        self.listing = False  # the player went Back to the list: a single prompt does not reopen by itself
        self.touched = kiosk.now_ms()
        self.finished_at: int | None = None  # when the player made their last input
        self.showing_code = False  # the player's own seat's QR code in place of their secrets
        self.prompt_page = 0  # the page of the list of prompts, when they do not fit in one
        self._select_single_prompt()

    # -- state --------------------------------------------------------------------------------------------

    def prompts(self) -> list[dict[str, Any]]:
        return list(self.view.get("prompts", []))

    def show(self, view: dict[str, Any]) -> None:
        """The player's new view. When what they may do changed, the list of it opens at its first page
        (a page kept from the old list could hide the new first choices, or be past the new list's end)."""
        if [p.get("move") for p in view.get("prompts", [])] != [p.get("move") for p in self.prompts()]:
            self.prompt_page = 0
        self.view = view

    def _select_single_prompt(self) -> None:
        """A form whose prompt is gone closes; the only thing to do opens by itself, unless the player
        went Back to the list or is reading what they sent."""
        prompts = self.prompts()
        if self.sent is not None or (self.form is not None and any(p == self.form.prompt for p in prompts)):
            return
        self.form = FormState(prompts[0]) if len(prompts) == 1 and not self.listing else None

    def forget(self) -> None:
        """Drop the player's view (the booth is hidden) and tell the feed to stop computing it."""
        self.view = {}
        self.form = None
        self.sent = None
        if self.k.feed is not None:
            self.k.feed.close_booth(self.player)

    def close(self) -> None:
        if self in self.k.stack:
            self.k.stack.remove(self)
        self.forget()

    def replied(self, reply: Reply) -> None:
        """The referee's answer to this player's Send: on the receipt, in words (the form is kept after a
        refusal, for "Change it")."""
        if reply.by != self.audience:
            return
        if reply.outcome.accepted:
            self.answer = (self.tr("kiosk.booth.accepted"), True)
            self.form = None
            self.finished_at = self.k.now_ms()
        else:
            assert reply.outcome.reason is not None
            self.answer = (Namer.of(self.view).describe(self.k.lang, reply.outcome.reason.to_json()), False)
        if self.sent is not None and self.sent.answer is None:
            self.sent.answer = self.answer

    def refused(self, token: str, reason: Rejected) -> None:
        """A token tapped while this booth was open was refused: why, for this player's eyes only."""
        said = Namer.of(self.view).describe(self.k.lang, reason.to_json())
        self.answer = (i18n.translate(self.k.lang, "kiosk.notice.token_refused", {"token": token, "reason": said}),
                       False)
        self.touch()

    def touch(self) -> None:
        self.touched = self.k.now_ms()

    def face(self) -> object:
        """The list of what the player may do, one form of it, what they sent (and whether it is still on
        its way, accepted or refused), or their phone code: each a new face."""
        form = None if self.form is None else str(self.form.prompt.get("move"))
        sent = None if self.sent is None else self.sent.state()
        return (form, self.sent is not None, sent, self.showing_code, self.prompt_page)

    def finishing(self) -> bool:
        """Nothing is left to do and the last Send was accepted: the booth hides by itself soon."""
        return self.finished_at is not None and not self.prompts()

    def closes_at(self) -> int:
        """Untouched for the timeout, or a moment after the player's last input when nothing is left."""
        at = self.touched + int(self.k.settings.booth_timeout_s * 1000)
        if self.finishing():
            assert self.finished_at is not None
            at = min(at, self.finished_at + FINISHED_MS)
        return at

    def closing_words(self, now: int) -> str:
        """The receipt's countdown when the booth hides by itself within `CLOSING_SAID_MS`."""
        left = self.closes_at() - now
        if self.sent is None or not self.finishing() or left > CLOSING_SAID_MS:
            return ""
        return self.tr("kiosk.booth.closing", seconds=max(1, -(-left // 1000)))

    def update(self, now: int) -> None:
        if now >= self.closes_at():
            self.close()
            return
        self._select_single_prompt()

    def next_change_ms(self, now: int) -> int | None:
        at = self.closes_at()
        if self.sent is not None and self.finishing() and at - now <= CLOSING_SAID_MS + 1000:
            return min(at, now + ((at - now - 1) % 1000) + 1)  # the countdown's next second
        return at

    def tap(self, pos: tuple[int, int]) -> bool:
        self.touch()
        return super().tap(pos)

    def action(self, name: str) -> None:
        self.touch()
        super().action(name)

    def back(self) -> None:
        """A key's or GPIO button's Back: from a form or a receipt to the list; from the list, out."""
        if self.form is not None or self.sent is not None:
            self.to_list()
        else:
            self.close()

    def to_list(self) -> None:
        """Back to the list of forms, sending nothing (a form's values are dropped)."""
        self.form, self.sent, self.listing = None, None, True
        if self.answer is not None and not self.answer[1]:
            self.answer = None  # a refusal belongs to the form left behind

    def _submit(self) -> None:
        """Send the form once: the receipt takes the form's place at once, so Send is gone until the
        answer (a second tap finds the receipt settling: companion/kiosk/presses.py)."""
        if self.form is not None and self.form.complete() and self.sent is None:
            self.k.send(self.form.input(self.audience))
            self.sent = Sent(self.form)
            self.answer = (self.tr("kiosk.booth.sending"), True)

    def _change(self) -> None:
        """After a refusal: the form again, with the values it was sent with when its prompt is the same."""
        if self.sent is None:
            return
        prompt = self.sent.same_prompt(self.prompts())
        if prompt is None:
            self.to_list()
            return
        self.form = self.sent.form if prompt == self.sent.form.prompt else FormState(prompt)
        self.sent, self.answer = None, None

    # -- layout -------------------------------------------------------------------------------------------

    def _areas(self) -> dict[str, pygame.Rect]:
        L = self.k.layout
        return {"header": L.rect(16, 40, 768, 40), "mine": L.rect(16, 88, 300, 328),
                "form": L.rect(332, 88, 452, 328), "footer": L.footer()}

    def buttons(self) -> list[Button]:
        L, lang = self.k.layout, self.k.lang
        a = self._areas()
        out: list[Button] = []
        self._lines: list[tuple[pygame.Rect, str]] = []
        form = a["form"].inflate(-L.px(16), -L.px(16))
        y = form.top + self._heading_height(form.width)
        area = pygame.Rect(form.left, y, form.width, form.bottom - L.px(32) - y)  # above the answer's line
        if self.sent is not None:
            pass  # the receipt is words only; its buttons are the footer's
        elif self.form is None:
            out += prompt_list(self.prompts(), self.prompt_page, area, L, lang, self._open, self._turn)
        else:
            laid = lay_out(self.form, area, L, lang, self._changed)
            out += laid.buttons
            self._lines = laid.lines
        cols = L.columns(a["footer"], 4)
        if self.k.settings.seats is not None:
            word = "kiosk.booth.my_secrets" if self.showing_code else "kiosk.booth.phone_code"
            out.append(Button(cols[0], self.tr(word), self._toggle_code, key="code"))
        if self.form is not None or self.sent is not None:
            out.append(Button(cols[1], self.tr("kiosk.booth.back"), self.to_list, key="back"))
        if self.sent is not None:
            if self.sent.state() is False and self.sent.same_prompt(self.prompts()) is not None:
                out.append(Button(cols[2], self.tr("kiosk.booth.change"), self._change, key="change"))
        elif self.form is not None:
            style = "primary" if self.form.complete() else "off"
            out.append(Button(cols[2], self.tr("kiosk.booth.send"), self._submit, style, "send"))
        out.append(Button(cols[3], self.tr("kiosk.booth.close"), self.close, key="done"))
        return out

    def _heading(self) -> str:
        """The form panel's title: the open form's, else what to do."""
        if self.form is not None:
            return label(self.k.lang, self.form.prompt)
        return self.tr("kiosk.booth.choose" if self.prompts() else "kiosk.booth.nothing")

    def _heading_height(self, width: int) -> int:
        """The title's box above the rows: 40, taller when the title takes two lines at 14 px that need it
        (Thai's, issue 28)."""
        return label_height(self.c, self._heading(), width, 20, self.k.layout.px(40))

    def _toggle_code(self) -> None:
        self.showing_code = not self.showing_code

    def _open(self, prompt: dict[str, Any]) -> None:
        self.form, self.sent = FormState(prompt), None
        self.answer = None

    def _turn(self, page: int) -> None:
        self.prompt_page = page

    def _changed(self) -> None:
        self.answer = None

    def regions(self) -> list[Region]:
        k, a, lang = self.k, self._areas(), self.k.lang
        names = self.player_names()
        title = self.tr("kiosk.booth.title" if private_screen(k.layout) else "kiosk.booth.title_shared",
                        player=names.get(self.player, self.player))
        game = registry().get(str(self.view.get("game")))
        own = self.view.get("private") or {}
        namer = Namer.of(self.view)  # a player's lines say names, never ids (companion/naming.py)
        mine = [namer.text(lang, msgid, params)
                for msgid, params in (game.private_lines(own) if game is not None and own else [])]
        heading = self._heading()
        heading_h = self._heading_height(a["form"].width - k.layout.px(16) * 2)
        buttons = self.buttons()
        field_lines = list(self._lines)
        answer = self.answer
        sent = self.sent
        closing = self.closing_words(k.now_ms())
        who = self.audience
        phones = k.settings.seats
        code_url = phones.join_url(self.player) if phones is not None and self.showing_code else None
        code_text = self.tr("kiosk.booth.scan" if code_url else "kiosk.booth.seat_taken") if self.showing_code else ""

        def header(surface: pygame.Surface, rect: pygame.Rect) -> None:
            self.c.text.draw(surface, title, rect, k.layout.font(26), ACCENT, bold=True)

        def private(surface: pygame.Surface, rect: pygame.Rect) -> None:
            panel(surface, rect)
            inner = rect.inflate(-k.layout.px(24), -k.layout.px(24))
            if not code_text:
                draw_lines(surface, self.c, mine or [self.tr("kiosk.booth.no_secrets")], inner, 18)
                return
            if code_url is None:  # a phone holds the seat already
                draw_lines(surface, self.c, [code_text], inner, 18, GOOD)
                return
            head = pygame.Rect(inner.left, inner.top, inner.width, k.layout.px(64))
            draw_lines(surface, self.c, [code_text], head, 15)
            code = qr_surface(code_url, min(inner.width, inner.bottom - head.bottom))
            surface.blit(code, code.get_rect(midbottom=(inner.centerx, inner.bottom)))

        def form_panel(surface: pygame.Surface, rect: pygame.Rect) -> None:
            panel(surface, rect)
            inner = rect.inflate(-k.layout.px(16), -k.layout.px(16))
            if sent is not None:
                draw_receipt(surface, self.c, k.layout, lang, sent, inner, closing)
                return
            # a long prompt's title on two lines at 14 px rather than one tiny line (the rows start under it)
            draw_label(surface, self.c, heading,
                       pygame.Rect(inner.left, inner.top, inner.width, heading_h), 20)
            for where, line in field_lines:
                draw_line(surface, self.c, line, where, DIM)
            if answer is not None:
                bottom = pygame.Rect(inner.left, inner.bottom - k.layout.px(28), inner.width, k.layout.px(28))
                self.c.text.draw(surface, answer[0], bottom, k.layout.font(16), GOOD if answer[1] else DANGER)
            for i, b in enumerate(buttons):
                if rect.contains(b.rect):
                    draw_button(surface, self.c, b, i == self.shown_focus())

        lines_key = tuple((tuple(r), t) for r, t in field_lines)
        receipt = None if sent is None else (tuple(sent.what(lang)), label(lang, sent.form.prompt), sent.answer)
        form_key = (lang, heading, lines_key, answer, receipt, closing, self.button_region("x", a["form"]).key)
        return [
            Region("booth.header", a["header"], (lang, title), header, who),
            Region("booth.mine", a["mine"], (lang, tuple(mine), code_text, code_url), private, who),
            Region("booth.form", a["form"], form_key, form_panel, who),
            self._footer(a["footer"]),
        ]

    def _footer(self, area: pygame.Rect) -> Region:
        region = self.button_region("booth.footer", area)
        region.audience = self.audience
        return region

