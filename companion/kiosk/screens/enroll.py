"""Enrolling NFC tags from the screen: a new tag's prompt, the choice of what it is, and enroll mode.

An unknown tag tapped during the game opens the prompt ("A new figure or card: whose figure is it, or
which of the game's pieces?" / "not now"; the tag's UID and reader only in a small detail line; it hides
itself when left untouched for the booth's timeout). "Say what it is" lists what the tag can be: each
player's figure, then the game's declared tokens (`companion/taps/kinds.py`); a choice is saved in
the token registry at once and the same tag then acts. Enroll mode (host menu) waits for tag after
tag and asks what each is, until the host presses "done". Nothing here is a game input.
"""

from __future__ import annotations

import functools
import logging
import sqlite3
from typing import TYPE_CHECKING

import pygame

from companion import i18n
from companion.kiosk.feed import UnknownTag
from companion.kiosk.screens.base import Screen
from companion.kiosk.widgets import ACCENT, DANGER, DIM, FG, GOOD, Button, Region, draw_button, draw_lines, panel
from companion.taps.kinds import Choice
from companion.taps.registry import PLAYER, RegistryError

if TYPE_CHECKING:
    from companion.kiosk.kiosk import Kiosk

logger = logging.getLogger(__name__)
COLUMNS, ROWS = 3, 4
PAGE = COLUMNS * ROWS
SHOWN_SAVED = 5  # enroll mode lists the last few tags it saved


def word(lang: str, msgid: str, fallback: str) -> str:
    """A catalog word when the catalog has it, else `fallback` (a game's own id)."""
    text = i18n.translate(lang, msgid)
    return fallback if text == msgid else text


def choice_text(lang: str, game: str, choice: Choice) -> str:
    """A choice as the host reads it: "Ana's figure", "Dice: 2d6", "Room: Acid room", "Omen card: the Mask"."""
    if choice.kind == PLAYER:
        return i18n.translate(lang, "kiosk.enroll.figure", {"player": choice.label})
    kind = word(lang, f"kind.token.{choice.kind}", choice.kind)
    # the game's own word for the id when its catalog has one (kind.room25.room.acid, lockdown.item.water)
    # a card of one of the game's decks (betrayal's omen, item, event) by the game's card word
    shown = word(lang, f"kind.{game}.{choice.kind}.{choice.id}",
                 word(lang, f"{game}.{choice.kind}.{choice.id}",
                      word(lang, f"kind.{game}.card.{choice.id}", choice.id)))
    return i18n.translate(lang, "kiosk.enroll.token", {"kind": kind, "id": shown})


class EnrollScreen(Screen):
    name = "enroll"  # the prompt; "enroll_choose" while choosing, "enroll_mode" waiting for a tag

    def _name(self) -> None:
        self.name = "enroll_choose" if self.choosing else "enroll" if self.tag is not None else "enroll_mode"
        self.k.touched()

    def __init__(self, kiosk: Kiosk, tag: UnknownTag | None = None, *, mode: bool = False) -> None:
        super().__init__(kiosk)
        self.mode = mode  # enroll mode: tag after tag until "done"
        self.tag = tag
        self.choosing = mode and tag is not None  # outside the mode the host first says "enroll it"
        self.page = 0
        self.result: tuple[str, bool] | None = None  # (text, saved)
        self.saved: list[str] = []  # enroll mode: what was enrolled so far, as the host reads it
        self.touched = kiosk.now_ms()
        self._name()

    # -- what arrives -------------------------------------------------------------------------------------

    def new_tag(self, tag: UnknownTag) -> None:
        """Another unknown tag while this screen is up: it is the one asked about now."""
        self.tag, self.choosing, self.page, self.focus = tag, self.mode, 0, 0
        self.result = None if not self.mode else self.result
        self.touched = self.k.now_ms()
        self._name()

    def closes_at(self) -> int | None:
        return None if self.mode else self.touched + int(self.k.settings.booth_timeout_s * 1000)

    def next_change_ms(self, now: int) -> int | None:
        return self.closes_at()

    def update(self, now: int) -> None:
        at = self.closes_at()
        if at is not None and now >= at:
            self.close()

    def tap(self, pos: tuple[int, int]) -> bool:
        self.touched = self.k.now_ms()
        return super().tap(pos)

    def action(self, name: str) -> None:
        self.touched = self.k.now_ms()
        super().action(name)

    def close(self) -> None:
        if self in self.k.stack:
            self.k.stack.remove(self)
        self.k.touched()

    def back(self) -> None:
        if self.choosing and not self.mode:
            self.choosing, self.focus = False, 0
        elif self.mode and self.tag is not None:
            self.tag, self.choosing, self.focus = None, False, 0  # skip this tag, wait for the next
        else:
            self.close()
        self._name()

    # -- what the host does -------------------------------------------------------------------------------

    def _start(self) -> None:
        """What the tag is: the host's to say (a figure enrolled by anyone would open its player's booth),
        so on a locked table after the host's PIN (enroll mode is in the host menu, behind it already)."""
        if self.mode:
            self._choose()
        else:
            self.k.as_host(self._choose)

    def _choose(self) -> None:
        if self not in self.k.stack:  # the prompt timed out behind the PIN pad
            self.k.push(self)
        self.touched = self.k.now_ms()
        self.choosing, self.focus, self.page = True, 0, 0
        self._name()

    def face(self) -> object:
        return (self.choosing, self.tag.uid if self.tag is not None else None, self.page)

    def _more(self) -> None:
        pages = max(1, -(-len(self.choices()) // PAGE))
        self.page, self.focus = (self.page + 1) % pages, 0

    def choices(self) -> tuple[Choice, ...]:
        return self.tag.choices if self.tag is not None else ()

    def _save(self, choice: Choice) -> None:
        assert self.tag is not None and self.k.feed is not None
        what = choice_text(self.k.lang, self.tag.game, choice)
        try:
            self.k.feed.enroll(choice.token(self.tag.uid, self.tag.game))
        except (RegistryError, sqlite3.Error, RuntimeError) as err:
            logger.warning("kiosk: enrolling %s failed: %s", self.tag.uid, err)
            self.result = (self.tr("kiosk.enroll.failed", what=what), False)
            self.k.say("kiosk.enroll.failed", what=what)
            return
        self.k.sound.play("tap")
        if self.mode:
            self.result = None
            self.saved.append(what)
            self.tag, self.choosing, self.focus = None, False, 0
            self._name()
        else:
            self.close()
            self.k.say("kiosk.enroll.saved", what=what)

    # -- drawing ------------------------------------------------------------------------------------------

    def _areas(self) -> dict[str, pygame.Rect]:
        L = self.k.layout
        return {"title": L.rect(16, 40, 768, 44), "body": L.rect(16, 92, 768, 312), "footer": L.footer()}

    def buttons(self) -> list[Button]:
        L = self.k.layout
        a = self._areas()
        out: list[Button] = []
        cols = L.columns(a["footer"], 4)
        if self.choosing:
            shown = self.choices()[self.page * PAGE:(self.page + 1) * PAGE]
            grid = a["body"].inflate(-L.px(16), -L.px(16))
            cells = [cell for row in L.rows(grid, ROWS) for cell in L.columns(row, COLUMNS)]
            for i, (cell, choice) in enumerate(zip(cells, shown, strict=False)):
                text = choice_text(self.k.lang, self.tag.game if self.tag else "", choice)
                style = "primary" if choice.kind == PLAYER else "normal"
                out.append(Button(cell, text, functools.partial(self._save, choice), style,
                                  ("choice", self.page * PAGE + i)))
            if len(self.choices()) > PAGE:
                out.append(Button(cols[2], self.tr("kiosk.enroll.more"), self._more, key="more"))
            out.append(Button(cols[3], self.tr("kiosk.enroll.skip" if self.mode else "kiosk.enroll.cancel"),
                              self.back, key="cancel"))
        elif self.tag is not None:
            out.append(Button(cols[2], self.tr("kiosk.enroll.say"), self._start, "primary", "start"))
            out.append(Button(cols[3], self.tr("kiosk.enroll.not_now"), self.close, key="not_now"))
        else:
            out.append(Button(cols[3], self.tr("kiosk.enroll.done"), self.close, "primary", "done"))
        return out

    def detail(self) -> str:
        """The tag's own id and reader, for whoever wires the readers: a small line under the question."""
        if self.tag is None or self.choosing:
            return ""
        return self.tr("kiosk.enroll.detail", uid=self.tag.uid[-8:], reader=self.tag.reader)

    def _title_and_lines(self) -> tuple[str, list[str]]:
        if self.tag is None:
            lines = [self.tr("kiosk.enroll.waiting")]
            if self.saved:
                lines += ["", *(self.tr("kiosk.enroll.saved", what=what) for what in self.saved[-SHOWN_SAVED:])]
            return self.tr("kiosk.enroll.mode_title"), lines
        if self.choosing:
            pages = max(1, -(-len(self.choices()) // PAGE))
            title = self.tr("kiosk.enroll.whose")
            if pages > 1:
                title = self.tr("kiosk.enroll.page", what=title, page=self.page + 1, pages=pages)
            return title, []
        return self.tr("kiosk.enroll.new_title"), [self.tr("kiosk.enroll.ask")]

    def regions(self) -> list[Region]:
        L, lang, a = self.k.layout, self.k.lang, self._areas()
        title, lines = self._title_and_lines()
        result = self.result
        choosing = self.choosing
        detail = self.detail()

        def heading(surface: pygame.Surface, rect: pygame.Rect) -> None:
            self.c.text.draw(surface, title, rect, self.c.font(26), ACCENT, bold=True)

        def body(surface: pygame.Surface, rect: pygame.Rect) -> None:
            panel(surface, rect)
            inner = rect.inflate(-L.px(24), -L.px(24))
            if not choosing:
                used = draw_lines(surface, self.c, lines, inner, 20, FG)
                if result is not None:
                    y = inner.top + used * L.px(34) + L.px(16)
                    self.c.text.draw(surface, result[0], pygame.Rect(inner.left, y, inner.width, L.px(30)),
                                     self.c.font(18), GOOD if result[1] else DANGER)
                if detail:  # the tag's id, small, at the panel's foot: for whoever wires the readers
                    foot = pygame.Rect(inner.left, inner.bottom - L.px(24), inner.width, L.px(24))
                    draw_lines(surface, self.c, [detail], foot, 15, DIM)
            for i, b in enumerate(self.buttons()):
                if rect.contains(b.rect):
                    draw_button(surface, self.c, b, i == self.shown_focus())

        grid_key = self.button_region("x", a["body"]).key
        return [Region("enroll.title", a["title"], (lang, title), heading),
                Region("enroll.body", a["body"], (lang, tuple(lines), result, choosing, detail, grid_key), body),
                self.button_region("enroll.footer", a["footer"])]
