"""The host's forms on the kiosk: what the game's `prompts` offer the host now (the toolkit's new timer,
secret vote, role deal and counter, closing a vote, revealing roles...), opened from the host menu.

The forms are the booth's (forms.py, form_layout.py): chosen by touch, paged to fit 800x480; a typed
field says to type it on the host's phone. The host's view holds no secret (companion/core/referee.py),
so this screen may show on the table's public screen; every input goes to the referee as the host's
and its answer comes back as the kiosk's notice. After Send the form's place shows what was sent and the
referee's answer in words, as a booth's does (booth_receipt.py): "Back" returns to the list, and after a
refusal "Change it" opens the form again with the values it was sent with.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pygame

from companion.kiosk.feed import Reply
from companion.kiosk.screens.base import Screen
from companion.kiosk.screens.booth_receipt import Sent, draw_receipt
from companion.kiosk.screens.form_layout import draw_line, lay_out, prompt_list
from companion.kiosk.screens.forms import FormState, label
from companion.kiosk.widgets import DIM, FG, Button, Region, draw_button, panel
from companion.naming import Namer


def menu_entries(menu: Screen) -> list[tuple[str, Callable[[], None], str]]:
    """The host menu's entry to these forms, when the game offers the host any (as the menu lists them)."""
    feed = menu.k.feed
    if feed is None or not feed.host_view().get("prompts"):
        return []
    return [(menu.tr("kiosk.menu.host_forms"), lambda: menu.k.replace(HostFormsScreen(menu.k)), "f")]


class HostFormsScreen(Screen):
    name = "host_forms"

    def __init__(self, kiosk: Any) -> None:
        super().__init__(kiosk)
        self.form: FormState | None = None
        self.sent: Sent | None = None  # the receipt of the last Send, shown in the form's place
        self.page = 0
        self._lines: list[tuple[pygame.Rect, str]] = []

    def prompts(self) -> list[dict[str, Any]]:
        feed = self.k.feed
        return [] if feed is None else list(feed.host_view().get("prompts", []))

    def on_public(self) -> None:
        """A new state: a form whose prompt is no longer offered (its name taken now) closes."""
        if self.form is not None and not any(_same(p, self.form.prompt) for p in self.prompts()):
            self.form = None

    def back(self) -> None:
        if self.form is not None or self.sent is not None:
            self.form, self.sent = None, None
        else:
            self.k.pop()

    def _open(self, prompt: dict[str, Any]) -> None:
        self.form, self.sent = FormState(prompt), None

    def _turn(self, page: int) -> None:
        self.page = page

    def _submit(self) -> None:
        """Send the form once: the receipt takes its place at once, so Send is gone until the answer."""
        if self.form is not None and self.form.complete() and self.sent is None:
            self.k.send(self.form.input("host"))
            self.sent, self.form = Sent(self.form), None

    def replied(self, reply: Reply) -> None:
        """The referee's answer to the host's Send, on the receipt in words."""
        if reply.by != "host" or self.sent is None or self.sent.answer is not None:
            return
        if reply.outcome.accepted:
            self.sent.answer = (self.tr("kiosk.host_forms.accepted"), True)
        else:
            assert reply.outcome.reason is not None
            self.sent.answer = (Namer.of(self.k.public).describe(self.k.lang, reply.outcome.reason.to_json()), False)

    def _change(self) -> None:
        """After a refusal: the form again, with the values it was sent with when its prompt is the same."""
        if self.sent is None:
            return
        prompt = self.sent.same_prompt(self.prompts())
        self.form = None if prompt is None else self.sent.form if prompt == self.sent.form.prompt else FormState(prompt)
        self.sent = None

    def _type(self, f: dict[str, Any], typed: Callable[[str], None]) -> None:
        """The on-screen keyboard for a typed field (a name, a vote's option, a role)."""
        from companion.kiosk.screens.keyboard import KeyboardScreen
        current = self.form.values.get(f["name"]) if self.form is not None else None
        initial = current if isinstance(current, str) else ""
        self.k.push(KeyboardScreen(self.k, label(self.k.lang, f), initial, typed, max_len=f.get("max_len") or 24))

    def _areas(self) -> dict[str, pygame.Rect]:
        L = self.k.layout
        return {"form": L.rect(16, 40, 768, 376), "footer": L.footer()}

    def buttons(self) -> list[Button]:
        L, lang = self.k.layout, self.k.lang
        a = self._areas()
        inner = a["form"].inflate(-L.px(16), -L.px(16))
        area = pygame.Rect(inner.left, inner.top + L.px(40), inner.width, inner.height - L.px(40))
        out: list[Button] = []
        self._lines = []
        if self.sent is not None:
            pass  # the receipt is words only; its buttons are the footer's
        elif self.form is None:
            out += prompt_list(self.prompts(), self.page, area, L, lang, self._open, self._turn)
        else:
            laid = lay_out(self.form, area, L, lang, lambda: None, typing=self._type)
            out += laid.buttons
            self._lines = laid.lines
        cols = L.columns(a["footer"], 4)
        if self.sent is not None:
            if self.sent.state() is False and self.sent.same_prompt(self.prompts()) is not None:
                out.append(Button(cols[2], self.tr("kiosk.booth.change"), self._change, key="change"))
        elif self.form is not None:
            style = "primary" if self.form.complete() else "off"
            out.append(Button(cols[2], self.tr("kiosk.booth.send"), self._submit, style, "send"))
        inside = self.form is not None or self.sent is not None
        out.append(Button(cols[3], self.tr("kiosk.form.back" if inside else "kiosk.menu.close"), self.back,
                          key="close"))
        return out

    def regions(self) -> list[Region]:
        k, a, lang = self.k, self._areas(), self.k.lang
        heading = label(lang, self.form.prompt) if self.form else self.tr("kiosk.menu.host_forms")
        buttons = self.buttons()
        lines = list(self._lines)
        sent = self.sent

        def form_panel(surface: pygame.Surface, rect: pygame.Rect) -> None:
            panel(surface, rect)
            inner = rect.inflate(-k.layout.px(16), -k.layout.px(16))
            if sent is not None:
                draw_receipt(surface, self.c, k.layout, lang, sent, inner)
                return
            self.c.text.draw(surface, heading, pygame.Rect(inner.left, inner.top, inner.width, k.layout.px(32)),
                             k.layout.font(20), FG, bold=True)
            for where, line in lines:
                draw_line(surface, self.c, line, where, DIM)
            for i, b in enumerate(buttons):
                if rect.contains(b.rect):
                    draw_button(surface, self.c, b, i == self.shown_focus())

        receipt = None if sent is None else (id(sent), sent.answer)
        key = (lang, heading, receipt, tuple((tuple(r), t) for r, t in lines), self.button_region("x", a["form"]).key)
        return [Region("host_forms.form", a["form"], key, form_panel),
                self.button_region("host_forms.footer", a["footer"])]


def _same(a: dict[str, Any], b: dict[str, Any]) -> bool:
    return (a.get("move"), a.get("label"), a.get("fixed"), a.get("fields")) == (
        b.get("move"), b.get("label"), b.get("fixed"), b.get("fields"))
