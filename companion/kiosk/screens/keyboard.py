"""An on-screen keyboard for a name (issue 21): Latin letters and digits, a Thai layout (Kedmanee,
as on a Thai keyboard), Shift, Space, Backspace, Done and Cancel, keys large enough for a finger on
800x480. Chinese names are typed on the host's phone (its own input method), docs/kiosk.md.

Pushed on top of the screen that asked; `on_done(text)` runs with the typed text (spaces trimmed)
when Done is pressed with something typed, then the keyboard closes. Cancel closes it, changing nothing."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING

import pygame

from companion.kiosk.screens.base import Screen
from companion.kiosk.widgets import ACCENT, DIM, FG, Button, Region, panel

if TYPE_CHECKING:
    from companion.kiosk.kiosk import Kiosk

LAYOUTS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {  # (plain rows, shifted rows)
    "latin": (("1234567890-'", "qwertyuiop", "asdfghjkl", "zxcvbnm.")
              , ("1234567890-'", "QWERTYUIOP", "ASDFGHJKL", "ZXCVBNM.")),
    "thai": (("ๅ/-ภถุึคตจขช", "ๆไำพะัีรนยบล", "ฟหกดเ้่าสวง", "ผปแอิืทมใฝ"),
             ("+๑๒๓๔ู฿๕๖๗๘๙", "๐\"ฎฑธํ๊ณฯญฐ,", "ฤฆฏโฌ็๋ษศซ.", "()ฉฮฺ์?ฒฬฦ")),
}
COLUMNS = 12


class KeyboardScreen(Screen):
    name = "keyboard"

    def __init__(self, kiosk: Kiosk, title: str, initial: str, on_done: Callable[[str], None],
                 max_len: int = 24) -> None:
        super().__init__(kiosk)
        self.title, self.typed, self.on_done, self.max_len = title, initial[:max_len], on_done, max_len
        self.layout_name = "thai" if kiosk.lang == "th" else "latin"
        self.shifted = False

    def keys(self) -> tuple[str, ...]:
        plain, shifted = LAYOUTS[self.layout_name]
        return shifted if self.shifted else plain

    def type(self, char: str) -> None:
        if len(self.typed) < self.max_len:
            self.typed += char
        if self.layout_name == "latin":
            self.shifted = False  # one capital, as phones do

    def backspace(self) -> None:
        self.typed = self.typed[:-1]

    def done(self) -> None:
        text = " ".join(self.typed.split())
        if not text:
            self.k.say("kiosk.keyboard.empty")
            return
        self.k.pop()
        self.on_done(text)

    def _shift(self) -> None:
        self.shifted = not self.shifted

    def _switch(self) -> None:
        self.layout_name = "latin" if self.layout_name == "thai" else "thai"
        self.shifted = False

    def _areas(self) -> dict[str, pygame.Rect]:
        L = self.k.layout
        return {"title": L.rect(16, 40, 768, 32), "field": L.rect(16, 76, 768, 44),
                "keys": L.rect(16, 128, 768, 288), "footer": L.footer()}

    def buttons(self) -> list[Button]:
        L, a = self.k.layout, self._areas()
        rows = L.rows(a["keys"], 5, 6)
        out = []
        for row, chars in zip(rows, self.keys(), strict=False):
            cells = L.columns(row, COLUMNS, 6)
            indent = (COLUMNS - len(chars)) // 2
            for i, ch in enumerate(chars):
                out.append(Button(cells[indent + i], ch, partial(self.type, ch), key=("key", ch)))
        bottom = L.columns(rows[4], 4, 6)
        other = "kiosk.keyboard.latin" if self.layout_name == "thai" else "kiosk.keyboard.thai"
        out += [Button(bottom[0], self.tr("kiosk.keyboard.shift"), self._shift, "primary" if self.shifted else "normal",
                       key="shift"),
                Button(bottom[1], self.tr(other), self._switch, key="switch"),
                Button(bottom[2], self.tr("kiosk.keyboard.space"), partial(self.type, " "), key="space"),
                Button(bottom[3], self.tr("kiosk.keyboard.backspace"), self.backspace, key="backspace")]
        cols = L.columns(a["footer"], 4)
        out += [Button(cols[0], self.tr("kiosk.keyboard.cancel"), self.k.pop, key="cancel"),
                Button(cols[3], self.tr("kiosk.keyboard.done"), self.done, "primary", key="done")]
        return out

    def regions(self) -> list[Region]:
        a, lang = self._areas(), self.k.lang
        title, typed = self.title, self.typed
        count = self.tr("kiosk.keyboard.count", count=len(typed), max=self.max_len)

        def heading(surface: pygame.Surface, rect: pygame.Rect) -> None:
            self.c.text.draw(surface, title, rect, self.c.font(22), FG, bold=True)

        def field(surface: pygame.Surface, rect: pygame.Rect) -> None:
            panel(surface, rect)
            pygame.draw.rect(surface, ACCENT, rect, width=max(2, self.c.px(2)), border_radius=self.c.px(8))
            inner = rect.inflate(-self.c.px(20), -self.c.px(6))
            words, counter = inner.copy(), inner.copy()
            counter.width = self.c.px(90)
            counter.right = inner.right
            words.width -= counter.width
            self.c.text.draw(surface, typed + "|", words, self.c.font(24), FG, bold=True)
            self.c.text.draw(surface, count, counter, self.c.font(14), DIM, align="center")

        return [Region("keyboard.title", a["title"], (lang, title), heading),
                Region("keyboard.field", a["field"], (lang, typed, count), field),
                self.button_region("keyboard.keys", a["keys"]),
                self.button_region("keyboard.footer", a["footer"])]

    def back(self) -> None:
        self.k.pop()
