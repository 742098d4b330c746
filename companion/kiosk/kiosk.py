"""The kiosk's loop: sleep until woken or until something on screen changes by itself, then handle
what arrived (views, taps, touches, keys, GPIO actions) and redraw only the regions that changed.

Sleeping is `select` on the self-pipe (`wake.Waker`): a view or a tap from another thread wakes the
loop at once. SDL input (touch, mouse, keys) cannot wake a `select`, so it is read on every turn and
the turn is at most `POLL_IDLE_S` long when nobody touched the screen lately (`POLL_ACTIVE_S` while
someone does); a running timer adds a turn at its next second.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass, field
from typing import Any

import pygame

from companion import i18n
from companion.core.contract import Game
from companion.drawing.canvas import forget_drawn
from companion.drawing.text import TextCache
from companion.kiosk import feed as msgs
from companion.kiosk import memory
from companion.kiosk.feed import KioskFeed
from companion.kiosk.frame_budget import FrameBudget
from companion.kiosk.host_lock import HostLock
from companion.kiosk.layout import Layout
from companion.kiosk.presses import InputClock, Presses
from companion.kiosk.screens import first_screen, on_message
from companion.kiosk.screens.attract import back_to_the_loop, idle_due
from companion.kiosk.screens.base import Screen
from companion.kiosk.screens.host_menu import HostMenuScreen
from companion.kiosk.screens.status_bar import status_region
from companion.kiosk.seats import PhoneSeats
from companion.kiosk.sound import Sound
from companion.kiosk.wake import Waker
from companion.kiosk.widgets import BG, Canvas, Region
from companion.parts.timers import remaining
from companion.status import StatusBoard
from hardware.events import ButtonEdge

logger = logging.getLogger(__name__)
POLL_IDLE_S = 0.1
POLL_ACTIVE_S = 1 / 30
ACTIVE_FOR_S = 3.0  # after a touch or key, poll fast this long
NOTICE_MS = 4000
WARNING_MS = 10_000  # the warning cue sounds when a running timer crosses this
IDLE_REDRAW_MS = 60_000  # with nothing due, still look again once a minute (a clock jump, a stray change)
FRAME_BUDGET_S = 0.004  # the loop's frame, in its own CPU: the regions left wait a turn (docs/perf/kiosk.md)
KEYS = {
    pygame.K_TAB: "next", pygame.K_RIGHT: "next", pygame.K_DOWN: "next",
    pygame.K_LEFT: "prev", pygame.K_UP: "prev",
    pygame.K_RETURN: "select", pygame.K_KP_ENTER: "select", pygame.K_SPACE: "select",
    pygame.K_ESCAPE: "back", pygame.K_BACKSPACE: "back",
    pygame.K_m: "menu", pygame.K_F1: "menu",
}
ACTIONS = frozenset({"next", "prev", "select", "back", "menu"})


@dataclass
class Settings:
    lang: str = "en"
    volume: float = 0.8
    booth_timeout_s: float = 30.0
    seats: PhoneSeats | None = None  # the seats' QR codes and their release, when phones are served
    options: Mapping[str, Any] = field(default_factory=dict)
    demo_script: list[str] | None = None  # a recorded game for a one-game attract loop (default: the game's own)
    # the attract screen until the game has begun: which games its loop shows (companion/kiosk/reel.py)
    attract: bool | str | list[str] = True
    attract_url: str | None = None  # the attract loop's QR code: a "what is this" page (none: no code)
    idle_return_s: float = 120.0  # after a game ends, untouched this long: back to the attract loop (0: never)
    host_lock: HostLock = field(default_factory=HostLock)  # the host menu's PIN, the booths' PINs (off: none)


class Kiosk:
    def __init__(self, surface: pygame.Surface, text: TextCache, games: Mapping[str, Game],
                 public: dict[str, Any], settings: Settings, *, feed: KioskFeed | None = None,
                 status: StatusBoard | None = None, now_ms: Callable[[], int] | None = None,
                 sound: Sound | None = None, input_clock: InputClock | None = None) -> None:
        self.surface = surface
        self.layout = Layout(*surface.get_size())
        self.text = text
        self.canvas = Canvas(text, self.layout.px, self.layout.font)
        self.games = games
        self.public = public
        self.settings = settings
        self.lang = settings.lang
        self.waker = feed.waker if feed is not None else Waker()
        self.feed = feed
        self.status = status or StatusBoard()
        self.now_ms = now_ms or (lambda: time.time_ns() // 1_000_000)
        self.sound = sound or Sound(settings.volume)
        self.sound.set_volume(settings.volume)
        self.actions: queue.Queue[str] = queue.Queue()
        self.notice: tuple[str, int] | None = None  # (text, until ms)
        self.notice_msgid = ""  # the notice's message id
        self.stack: list[Screen] = []
        self.frames = 0
        self.last_frame_ms = 0.0
        self._keys: dict[str, Hashable] = {}
        self._drawn: Screen | None = None
        self._active_until = 0.0
        self._due = 0  # table ms when the screen changes by itself next
        self.last_touch_ms = self.now_ms()  # the last touch, key or button (or news of the game): idle since
        self._timer_seen: dict[str, tuple[int, bool]] = {}
        self._cued_expiry: set[str] = set()
        self.running = True
        self._settled = False  # memory given back after the first frame (and after a language change)
        self._more = False  # the last frame left regions for the next turn (a redraw spread over frames)
        self.keyed = False  # GPIO buttons or keys have moved the focus: the focus ring shows (issue 28)
        self.presses = Presses(input_clock or InputClock())  # a tap acts once, where it began
        self.stack.append(first_screen(self))

    # -- navigation -------------------------------------------------------------------------------------

    @property
    def top(self) -> Screen:
        return self.stack[-1]

    def push(self, screen: Screen) -> None:
        self.stack.append(screen)

    def pop(self) -> None:
        if len(self.stack) > 1:
            self.stack.pop()

    def replace(self, screen: Screen) -> None:
        self.stack[-1] = screen

    def open_menu(self) -> None:
        """The host menu, behind the host's PIN when the table has a lock (a touch, the M key or the GPIO
        buttons' gesture alike: companion/kiosk/host_lock.py)."""
        from companion.kiosk.screens.pin_pad import PinPadScreen
        if isinstance(self.top, HostMenuScreen) or (isinstance(self.top, PinPadScreen) and
                                                     self.top.kind in ("host", "host_choose")):
            return
        lock = self.settings.host_lock
        if lock.mode == "off":
            self.push(HostMenuScreen(self))
        else:
            self.push(PinPadScreen(self, "host" if lock.mode == "pin" else "host_choose"))

    def as_host(self, then: Callable[[], None]) -> None:
        """Do `then` for the host: at once at an unlocked table, else after the host's PIN on the pad."""
        from companion.kiosk.screens.pin_pad import PinPadScreen
        if self.settings.host_lock.mode == "pin":
            self.push(PinPadScreen(self, "host_then", then=then))
        else:
            then()

    def set_language(self, lang: str) -> None:
        self.lang = lang
        self.text.forget_faces()  # the old language's faces and lines go; the new one's open as drawn
        self._settled = False
        self._keys.clear()
        self._drawn = None
        self._due = 0

    def touched(self) -> None:
        """Something on screen was pressed: the next turn redraws what changed."""
        self._due = 0
        self.last_touch_ms = self.now_ms()

    def say(self, msgid: str, **params: Any) -> None:
        self.notice = (i18n.translate(self.lang, msgid, params), self.now_ms() + NOTICE_MS)
        self.notice_msgid = msgid
        self._due = 0

    def send(self, raw: dict[str, Any]) -> None:
        if self.feed is not None:
            self.feed.send(raw)

    # -- input from other threads -------------------------------------------------------------------------

    def press(self, action: str) -> None:
        """Thread-safe: a button (GPIO) action; wakes the loop."""
        if action not in ACTIONS:
            raise ValueError(f"unknown action {action!r}; expected one of {sorted(ACTIONS)}")
        self.actions.put(action)
        self.waker.wake()

    def button(self, edge: ButtonEdge) -> bool:
        """Thread-safe: a device button named after an action (``next``, ``select``, ``back``, ``menu``)
        presses it when it goes down; other buttons are the game's. True when it was the kiosk's."""
        if not edge.pressed or edge.button not in ACTIONS:
            return False
        self.press(edge.button)
        return True

    # -- the loop -----------------------------------------------------------------------------------------

    def timeout(self, now: int) -> float:
        if self._more:
            return 0.0
        poll = POLL_ACTIVE_S if time.monotonic() < self._active_until else POLL_IDLE_S
        wakes = [t for t in (self.top.next_change_ms(now), self.notice and self.notice[1]) if t]
        if wakes:
            poll = min(poll, max(0.0, (min(wakes) - now) / 1000))
        return poll

    def step(self, budget_s: float | None = None) -> None:
        """One turn: sleep until woken or due, then handle everything and redraw what changed."""
        self.waker.wait(self.timeout(self.now_ms()))
        self.process(budget_s)
        for hook in self.feed.turn_hooks if self.feed is not None else ():
            hook()

    def process(self, budget_s: float | None = None) -> None:
        """Handle what arrived; then, if anything did or something is due, update and redraw."""
        happened = False
        if self.feed is not None:
            while True:
                try:
                    self.handle(self.feed.inbox.get_nowait())
                except queue.Empty:
                    break
                happened = True
        self.presses.look(self.top)  # what a message put up settles from now
        if self.feed is not None:  # the host's phone page shows whether the host menu asks for a PIN
            self.feed.lock_changed(self.settings.host_lock.mode)
        while True:
            try:
                action = self.actions.get_nowait()
                self.keyed = True
                self.top.action(action)
            except queue.Empty:
                break
            happened = True
        for event in pygame.event.get():
            self.handle_event(event)
            happened = True
        self.presses.look(self.top)
        now = self.now_ms()
        if not happened and now < self._due and self._drawn is self.top and not self._more:
            return  # nothing arrived and nothing on screen changes before `_due`: skip the turn's work
        if self.notice and self.notice[1] <= now:
            self.notice, self.notice_msgid = None, ""
        back_to_the_loop(self, now)
        self.top.update(now)
        self._cue(now)
        self.render(budget_s)
        self.presses.look(self.top)  # a screen that came up this turn settles from now
        wakes = [t for t in (self.top.next_change_ms(now), self.notice and self.notice[1], idle_due(self)) if t]
        self._due = min(wakes) if wakes else now + IDLE_REDRAW_MS

    def run(self, until: threading.Event | None = None) -> None:
        while self.running and (until is None or not until.is_set()):
            self.step(FRAME_BUDGET_S)

    def close(self) -> None:
        """Release the wake pipe (the kiosk's own, even when it came with the feed); after the loop."""
        self.waker.close()

    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame.QUIT:
            self.running = False
        elif event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            self._active_until = time.monotonic() + ACTIVE_FOR_S
            self.presses.down(self.top, event.pos)
        elif event.type == pygame.MOUSEBUTTONUP and event.button == 1:
            if self.presses.up(self.top, event.pos):  # down and up on the same widget of the same screen
                self.top.tap(event.pos)
            self.presses.look(self.top)
        elif event.type == pygame.KEYDOWN:
            self._active_until = time.monotonic() + ACTIVE_FOR_S
            action = KEYS.get(event.key)
            if action:
                self.keyed = True
                self.top.action(action)
        elif event.type in (pygame.WINDOWEXPOSED, pygame.VIDEOEXPOSE, pygame.WINDOWSIZECHANGED):
            self._drawn = None

    def handle(self, message: msgs.Message) -> None:
        on_message(self, message)

    # -- sound cues ---------------------------------------------------------------------------------------

    def _cue(self, now: int) -> None:
        """The warning cue when a running timer crosses 10 s, the expiry cue once when it runs out."""
        timers = (self.public.get("table") or {}).get("timers") or {}
        for name, t in timers.items():
            left = remaining(t, now)
            before, _ = self._timer_seen.get(name, (left, bool(t["expired"])))
            if t["running"] and before > WARNING_MS >= left > 0:
                self.sound.play("warning")
            out = bool(t["expired"]) or (t["running"] and left == 0)
            if out and name not in self._cued_expiry:
                self._cued_expiry.add(name)
                self.sound.play("expired")
            elif not out:
                self._cued_expiry.discard(name)
            self._timer_seen[name] = (left, bool(t["expired"]))

    # -- drawing ------------------------------------------------------------------------------------------

    def regions(self) -> list[Region]:
        return [status_region(self), *self.top.regions()]

    def render(self, budget_s: float | None = None) -> list[pygame.Rect]:
        """Redraw the regions whose key changed; returns the rectangles updated on the display. With
        `budget_s`, those past it are left to the next turn (`_more`; companion/kiosk/frame_budget.py)."""
        started, screen, dirty = time.perf_counter(), self.top, []
        full = self._drawn is not screen
        budget = FrameBudget(budget_s, full, self.canvas.extra)
        if full:  # a full redraw: every region, every picture drawn anew
            self.surface.fill(BG)
            self._keys.clear()
            forget_drawn(self.canvas)
            self._drawn = screen
            dirty.append(self.surface.get_rect())
        for region in self.regions():
            if self._keys.get(region.name) == region.key:
                continue
            if budget.spent():  # the rest next turn, at once
                continue
            self.surface.fill(BG, region.rect)
            self.text.audience = region.audience
            self.text.widget = region.name
            try:
                region.draw(self.surface, region.rect)
            except Exception as err:  # a game's board hook, a bad view: keep the table's screen alive
                self.surface.fill(BG, region.rect)
                if region.audience == "public":
                    logger.exception("kiosk: drawing %s failed", region.name)
                else:  # a booth's data may hold that player's secrets: name the failure, not the values
                    logger.error("kiosk: drawing %s failed (%s)", region.name, type(err).__name__)
            if not budget.left_part():  # else drawn again next turn: its kept pictures, the rest anew
                self._keys[region.name] = region.key
            dirty.append(region.rect)
        self._more = budget.close()
        if dirty:
            pygame.display.update(dirty)
            self.frames += 1
            self.last_frame_ms = (time.perf_counter() - started) * 1000
            if not self._settled:
                memory.give_back()
                self._settled = True
        return dirty
