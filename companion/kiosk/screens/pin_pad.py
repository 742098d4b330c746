"""The PIN pad (issue 28; docs/kiosk.md, "The host lock"): ten digit keys of 120x76 design units, Erase and
OK, the digits typed shown as dots only. What it guards (`Kind`):

- ``host``: the host's PIN, then the host menu;
- ``host_choose``: the host chooses a PIN (typed twice) the first time the menu opens, or "No lock"
  for a family table; then the menu;
- ``host_then``: the host's PIN, then what the host asked for (enrolling a tag from the screen);
- ``booth``: a player's own PIN, then that player's booth;
- ``host_for_booth``: the host's leave for a player to choose a PIN (a player without one);
- ``booth_choose``: the player chooses their PIN (typed twice), then their booth.

GPIO buttons and keys move the focus over the keys and press the focused one, so a table without a
touchscreen types a PIN too: the two-button host gesture opens this pad, never the menu itself.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Literal

import pygame

from companion.kiosk.host_lock import PIN_MAX, PIN_MIN, HostLock, Tries, valid
from companion.kiosk.screens.base import Screen
from companion.kiosk.widgets import ACCENT, DANGER, DIM, FG, Button, Region, draw_lines, panel

if TYPE_CHECKING:
    from companion.kiosk.kiosk import Kiosk

Kind = Literal["host", "host_choose", "host_then", "booth", "host_for_booth", "booth_choose"]
KEYS = ("1", "2", "3", "4", "5", "6", "7", "8", "9", "erase", "0", "ok")


class PinPadScreen(Screen):
    name = "pin"

    def __init__(self, kiosk: Kiosk, kind: Kind, player: str | None = None,
                 then: Callable[[], None] | None = None) -> None:
        super().__init__(kiosk)
        self.kind, self.player, self.then = kind, player, then
        self.typed = ""
        self.first: str | None = None  # a new PIN's first typing, while it is typed again
        self.problem: tuple[str, dict[str, object]] | None = None  # what went wrong, as a message

    @property
    def lock(self) -> HostLock:
        return self.k.settings.host_lock

    def face(self) -> object:
        return (self.kind, self.first is None)

    def _name(self) -> str:
        return self.player_names().get(self.player or "", self.player or "")

    def _areas(self) -> dict[str, pygame.Rect]:
        L = self.k.layout
        return {"title": L.rect(16, 40, 768, 44), "words": L.rect(16, 92, 368, 324),
                "keys": L.rect(400, 92, 384, 324), "footer": L.footer()}

    # -- the keys -----------------------------------------------------------------------------------------

    def buttons(self) -> list[Button]:
        L = self.k.layout
        a = self._areas()
        cells = [cell for row in L.rows(a["keys"], 4) for cell in L.columns(row, 3)]
        out = []
        for cell, key in zip(cells, KEYS, strict=True):
            if key == "erase":
                out.append(Button(cell, self.tr("kiosk.pin.erase"), self._erase, key="erase"))
            elif key == "ok":
                style = "primary" if len(self.typed) >= PIN_MIN else "off"
                out.append(Button(cell, self.tr("kiosk.pin.ok"), self._ok, style, key="ok"))
            else:
                out.append(Button(cell, key, partial(self._digit, key), key=("digit", key)))
        cols = L.columns(a["footer"], 4)
        out.append(Button(cols[0], self.tr("kiosk.pin.cancel"), self.back, key="cancel"))
        if self.kind == "host_choose":
            out.append(Button(cols[1].union(cols[2]), self.tr("kiosk.pin.no_lock"), self._no_lock, key="no_lock"))
        return out

    def _digit(self, d: str) -> None:
        if len(self.typed) < PIN_MAX:
            self.typed += d
        self.problem = None

    def _erase(self) -> None:
        self.typed = self.typed[:-1]

    def _ok(self) -> None:
        typed, self.typed = self.typed, ""
        if len(typed) < PIN_MIN:
            self.problem = ("kiosk.pin.length", {"low": PIN_MIN, "high": PIN_MAX})
        elif self.kind in ("host_choose", "booth_choose"):
            self._choose(typed)
        elif self.kind == "booth":
            pin = self.lock.booth_pin(self.player or "")
            tries = self.lock.booth_tries_of(self.player or "")
            if pin is not None and self._check(tries, pin, typed):
                self._open_booth()
        else:
            assert self.lock.pin is not None
            if self._check(self.lock.tries, self.lock.pin, typed):
                if self.kind == "host":
                    self._open_menu()
                elif self.kind == "host_then":
                    if self in self.k.stack:
                        self.k.stack.remove(self)
                    if self.then is not None:
                        self.then()
                else:
                    self.k.replace(PinPadScreen(self.k, "booth_choose", self.player))

    def _check(self, tries: Tries, pin: object, typed: str) -> bool:
        from companion.kiosk.host_lock import Pin
        assert isinstance(pin, Pin)
        now = self.k.presses.clock.now_ms()
        if tries.waiting_ms(now):
            self.problem = ("kiosk.pin.wait", {"seconds": -(-tries.waiting_ms(now) // 1000)})
            return False
        if tries.check(pin, typed, now):
            return True
        waiting = tries.waiting_ms(now)
        self.problem = (("kiosk.pin.wait", {"seconds": -(-waiting // 1000)}) if waiting else ("kiosk.pin.wrong", {}))
        return False

    def _choose(self, typed: str) -> None:
        if not valid(typed):
            self.problem = ("kiosk.pin.length", {"low": PIN_MIN, "high": PIN_MAX})
        elif self.first is None:
            self.first = typed
        elif typed != self.first:
            self.first, self.problem = None, ("kiosk.pin.mismatch", {})
        elif self.kind == "host_choose":
            self.lock.choose(typed)
            self.k.say("kiosk.pin.host_set")
            self._open_menu()
        else:
            self.lock.set_booth_pin(self.player or "", self._name(), typed)
            self.k.say("kiosk.pin.booth_set", player=self._name())
            self._open_booth()

    def _no_lock(self) -> None:
        self.lock.choose(None)
        self.k.say("kiosk.pin.lock_off")
        self._open_menu()

    def _open_menu(self) -> None:
        from companion.kiosk.screens.host_menu import HostMenuScreen
        self.k.replace(HostMenuScreen(self.k))

    def _open_booth(self) -> None:
        """The player's booth, as their figure's tap opens it (on the table's thread, from their view)."""
        if self in self.k.stack:
            self.k.stack.remove(self)
        if self.k.feed is not None and self.player is not None:
            self.k.feed.open_booth(self.player)

    # -- what it shows --------------------------------------------------------------------------------------

    def _words(self) -> tuple[str, str]:
        """The title and what to do, in the reader's words."""
        name = self._name()
        if self.kind == "host":
            return self.tr("kiosk.pin.host_title"), self.tr("kiosk.pin.host_hint")
        if self.kind == "host_then":
            return self.tr("kiosk.pin.host_title"), self.tr("kiosk.pin.host_then_hint")
        if self.kind == "host_choose":
            return (self.tr("kiosk.pin.choose_title"),
                    self.tr("kiosk.pin.choose_hint" if self.first is None else "kiosk.pin.again",
                            low=PIN_MIN, high=PIN_MAX))
        if self.kind == "host_for_booth":
            return self.tr("kiosk.pin.host_title"), self.tr("kiosk.pin.leave_hint", player=name)
        if self.kind == "booth_choose":
            return (self.tr("kiosk.pin.booth_choose_title", player=name),
                    self.tr("kiosk.pin.booth_choose_hint" if self.first is None else "kiosk.pin.again",
                            low=PIN_MIN, high=PIN_MAX))
        return self.tr("kiosk.pin.booth_title", player=name), self.tr("kiosk.pin.booth_hint")

    def regions(self) -> list[Region]:
        a, lang = self._areas(), self.k.lang
        title, hint = self._words()
        problem = self.tr(self.problem[0], **self.problem[1]) if self.problem else ""
        count = len(self.typed)

        def heading(surface: pygame.Surface, rect: pygame.Rect) -> None:
            self.c.text.draw(surface, title, rect, self.c.font(26), FG, bold=True)

        def words(surface: pygame.Surface, rect: pygame.Rect) -> None:
            panel(surface, rect)
            inner = rect.inflate(-self.c.px(24), -self.c.px(24))
            dots = pygame.Rect(inner.left, inner.top, inner.width, self.c.px(48))
            r, step = self.c.px(10), self.c.px(30)
            for i in range(PIN_MAX):
                centre = (dots.left + r + i * step, dots.centery)
                if i < count:
                    pygame.draw.circle(surface, ACCENT, centre, r)
                else:
                    pygame.draw.circle(surface, DIM, centre, r, width=max(1, self.c.px(2)))
            below = pygame.Rect(inner.left, dots.bottom + self.c.px(16), inner.width,
                                inner.bottom - dots.bottom - self.c.px(112))
            draw_lines(surface, self.c, [hint], below, 18, FG)
            if problem:
                low = pygame.Rect(inner.left, inner.bottom - self.c.px(88), inner.width, self.c.px(88))
                draw_lines(surface, self.c, [problem], low, 18, DANGER)

        return [Region("pin.title", a["title"], (lang, title), heading),
                Region("pin.words", a["words"], (lang, hint, problem, count), words),
                self.button_region("pin.keys", a["keys"]),
                self.button_region("pin.footer", a["footer"])]
