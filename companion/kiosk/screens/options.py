"""The game's options before Start (issue 21): a choice as a row of buttons, a whole number with − and
+, yes/no as a toggle, each showing its value (the default until changed). Start sends
`table.new_game` as the host (NEWGAME_IFACE.md); the table's answer comes back as a notice, and when
the new game begins (the public view's "number" changes) the kiosk shows its setup screen."""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Any

import pygame

from companion import i18n
from companion.games import box
from companion.kiosk.newgame import MODERATOR, OptionField, Plan, count_problem, option_fields, table_fields
from companion.kiosk.screens.base import Screen
from companion.kiosk.widgets import DIM, FG, Button, Region, draw_button

if TYPE_CHECKING:
    from companion.kiosk.kiosk import Kiosk

ROWS_SHOWN = 5


def option_label(lang: str, game: str, name: str) -> str:
    """An option's short words, from the game's own catalog (`<game>.option_label.<name>`)."""
    msgid = "kiosk.option_label.moderator" if name == MODERATOR else f"{game}.option_label.{name}"
    return i18n.translate(lang, msgid) if msgid in i18n.msgids(lang) else name.replace("_", " ")


def value_label(lang: str, game: str, name: str, value: Any) -> str:
    """An option's value in words: yes/no, or the game's words for a choice (`<game>.option_value.<name>.<value>`)."""
    if isinstance(value, bool):
        return i18n.translate(lang, "kiosk.option.yes" if value else "kiosk.option.no")
    msgid = f"{game}.option_value.{name}.{value}"
    return i18n.translate(lang, msgid) if msgid in i18n.msgids(lang) else str(value)


class OptionsScreen(Screen):
    name = "options"

    def __init__(self, kiosk: Kiosk, plan: Plan) -> None:
        super().__init__(kiosk)
        self.plan = plan
        self.page = 0

    def fields(self) -> list[OptionField]:
        return [*option_fields(box(self.k.games, self.plan.game)), *table_fields()]

    def _set(self, name: str, value: Any) -> None:
        self.plan.options[name] = value

    def _bump(self, f: OptionField, sign: int) -> None:
        now = int(self.plan.options.get(f.name, f.default))
        self.plan.options[f.name] = max(f.low, min(f.high, now + sign * f.step))

    def _turn(self, page: int) -> None:
        self.page = page

    def start(self) -> None:
        problem = count_problem(box(self.k.games, self.plan.game), len(self.plan.seated))
        if problem is not None:
            self.k.say(*problem[:1], **problem[1])
            return
        self.k.send(self.plan.move())
        self.k.say("kiosk.options.starting", game=self.tr(f"game.{self.plan.game}.title"))

    def _areas(self) -> dict[str, pygame.Rect]:
        L = self.k.layout
        return {"title": L.rect(16, 40, 768, 40), "rows": L.rect(16, 84, 768, 332), "footer": L.footer()}

    def _rows(self) -> list[pygame.Rect]:
        return self.k.layout.rows(self._areas()["rows"], ROWS_SHOWN, 8)

    def shown(self) -> list[OptionField]:
        return self.fields()[self.page * ROWS_SHOWN:(self.page + 1) * ROWS_SHOWN]

    def buttons(self) -> list[Button]:
        L, lang = self.k.layout, self.k.lang
        out = []
        for row, f in zip(self._rows(), self.shown(), strict=False):
            controls = pygame.Rect(row.left + row.width * 2 // 5, row.top, row.width * 3 // 5, row.height)
            value = self.plan.options.get(f.name, f.default)
            if f.kind == "choice":
                for cell, choice in zip(L.columns(controls, len(f.choices), 6), f.choices, strict=True):
                    words = value_label(lang, self.plan.game, f.name, choice)
                    out.append(Button(cell, words, partial(self._set, f.name, choice),
                                      "primary" if choice == value else "normal", key=("choice", f.name, choice)))
            elif f.kind == "number":
                minus, plus = L.columns(controls, 2, 8)
                out.append(Button(minus, "−", partial(self._bump, f, -1), key=("minus", f.name)))
                out.append(Button(plus, "+", partial(self._bump, f, 1), key=("plus", f.name)))
            else:
                words = value_label(lang, self.plan.game, f.name, bool(value))
                out.append(Button(controls, words, partial(self._set, f.name, not value),
                                  "primary" if value else "normal", key=("toggle", f.name)))
        cols = L.columns(self._areas()["footer"], 4)
        out.append(Button(cols[0], self.tr("kiosk.button.back"), self.back, key="back"))
        if len(self.fields()) > ROWS_SHOWN:
            more = (self.page + 1) % -(-len(self.fields()) // ROWS_SHOWN)
            out.append(Button(cols[1], self.tr("kiosk.form.more"), partial(self._turn, more), key="more"))
        out.append(Button(cols[3], self.tr("kiosk.options.start"), self.start, "primary", key="start"))
        return out

    def regions(self) -> list[Region]:
        a, lang = self._areas(), self.k.lang
        title = self.tr("kiosk.options.title", game=self.tr(f"game.{self.plan.game}.title"),
                        count=len(self.plan.seated))
        lines = []
        for row, f in zip(self._rows(), self.shown(), strict=False):
            value = self.plan.options.get(f.name, f.default)
            words = self.tr("kiosk.options.value", option=option_label(lang, self.plan.game, f.name),
                             value=value_label(lang, self.plan.game, f.name, value))
            default = self.tr("kiosk.options.default", value=value_label(lang, self.plan.game, f.name, f.default))
            box = pygame.Rect(row.left, row.top, row.width * 2 // 5 - self.c.px(8), row.height)
            top, bottom = box.copy(), box.copy()
            top.height = box.height * 3 // 5
            bottom.top, bottom.height = top.bottom, box.height - top.height
            lines.append((top, words, bottom, default))
        empty = self.tr("kiosk.setup.no_options") if not self.fields() else None

        def heading(surface: pygame.Surface, rect: pygame.Rect) -> None:
            self.c.text.draw(surface, title, rect, self.c.font(24), FG, bold=True)

        def rows(surface: pygame.Surface, rect: pygame.Rect) -> None:
            for top, words, bottom, default in lines:
                self.c.text.draw(surface, words, top, self.c.font(18), FG, bold=True)
                self.c.text.draw(surface, default, bottom, self.c.font(14), DIM)
            if empty:
                self.c.text.draw(surface, empty, self._rows()[0], self.c.font(18), DIM)
            everything = self.buttons()
            focus = self.shown_focus()
            for i, b in enumerate(everything):
                if rect.contains(b.rect):
                    draw_button(surface, self.c, b, i == focus)

        inside = [(b.label, b.style, tuple(b.rect)) for b in self.buttons() if a["rows"].contains(b.rect)]
        keys = (self.shown_focus(), tuple(inside))
        return [Region("options.title", a["title"], (lang, title), heading),
                Region("options.rows", a["rows"], (lang, tuple(lines), empty, keys), rows),
                self.button_region("options.footer", a["footer"])]
