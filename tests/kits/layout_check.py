"""The 7" readability check (issue 28, item 7): a screen as drawn, measured the way a person squinting at
the Pi's 800x480 panel would: no text under 14 px, no touch target under 48 px (both scaled with the
layout on larger screens), no text cut short or running out of its box, no two texts and no two buttons
on top of each other. Each violation names the widget (the kiosk region that drew it, or the button).

What is measured comes from the kiosk's own draw path, not from a patched one: `TextCache.record`
(each text run's rect, the box it had to fit, its pixel size and its region, `TextCache.widget`), the
lines `draw_lines` had to leave out (`TextCache.cut`), and the screen's `buttons()` (the very rects a
touch is matched against). `violations(scene)` redraws the whole screen and returns the list;
`kiosk_violations(kiosk)` does the same for any kiosk (a running table's), and `LayoutWatch` checks each
distinct screen a running kiosk shows, once: `watch_layout(table)` sets one on a night table (the night
tests, tests/night/: the evening, each game's short night and each game's script).
"""

from __future__ import annotations

import json
import time
from collections.abc import Set
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import pygame

from companion.drawing.text import Drawn
from companion.kiosk.kiosk import Kiosk
from companion.kiosk.scenes import PLAYERS, Scene

if TYPE_CHECKING:
    from tests.kits.night_table import Night

MIN_TEXT = 14  # px at 800x480
MIN_TARGET = 48  # px at 800x480
#: Names of 24 letters, as people type them into a phone: one long word, words with spaces, Thai; and a
#: Chinese name as wide (12 characters: each is as wide as two Latin letters).
LONG_NAMES = ("Maximilianfeatherstonely", "Anna Maria Vanderberghes", "สมชายใจดีมากมายหลายอย่าง",
              "欧阳娜娜娜娜娜娜娜娜娜娜")


def long_players() -> list[dict[str, str]]:
    """The scenes' players (same ids) with 24-letter names."""
    return [{"id": p["id"], "name": LONG_NAMES[i % len(LONG_NAMES)]} for i, p in enumerate(PLAYERS)]


def long_named(lines: list[str]) -> list[str]:
    """A demo script whose setup line's players have 24-letter names (ids kept)."""
    setup = json.loads(lines[0])
    for i, p in enumerate(setup.get("players", [])):
        p["name"] = LONG_NAMES[i % len(LONG_NAMES)]
    return [json.dumps(setup, ensure_ascii=False), *lines[1:]]


@dataclass(frozen=True)
class Violation:
    kind: str  # "small text", "small target", "cut", "overflow", "overlap", "buttons overlap"
    widget: str  # the region or button
    what: str  # the text, or the button's label

    def __str__(self) -> str:
        return f"{self.kind}: {self.widget}: {self.what}"


def redraw(scene: Scene) -> tuple[list[Drawn], list[tuple[str, str]]]:
    """The whole screen drawn again: every text run drawn and every text cut short, recorded."""
    return redraw_kiosk(scene.kiosk)


def redraw_kiosk(k: Kiosk) -> tuple[list[Drawn], list[tuple[str, str]]]:
    assert k.text.record is not None, "recording is off (use the `text` fixture)"
    k._drawn = None
    k.text.record.clear()
    k.text.cut.clear()
    k.process()
    return list(k.text.record), list(k.text.cut)


def _ink(d: Drawn) -> pygame.Rect:
    ink = d.surface.get_bounding_rect()
    return ink.move(d.rect.topleft)


def violations(scene: Scene) -> list[Violation]:
    return kiosk_violations(scene.kiosk)


def kiosk_violations(k: Kiosk) -> list[Violation]:
    """What is wrong on the kiosk's screen as it is now, redrawn whole (its text cache recording)."""
    drawn, cut = redraw_kiosk(k)
    scale = k.layout.scale
    min_text, min_target = int(MIN_TEXT * scale), int(MIN_TARGET * scale)
    found: list[Violation] = []
    for d in drawn:
        if not d.text.strip():
            continue
        if d.size < min_text:
            found.append(Violation("small text", d.widget, f"{d.text!r} at {d.size} px"))
        if not d.region.contains(d.rect):
            found.append(Violation("overflow", d.widget, repr(d.text)))
    for widget, text in cut:
        found.append(Violation("cut", widget, f"text left out from {text!r}"))
    shown = [(d, _ink(d)) for d in drawn if d.text.strip()]
    latest: dict[tuple[str, tuple[int, int, int, int]], tuple[Drawn, pygame.Rect]] = {}
    for d, ink in shown:  # a region drawn twice (a cached picture) counts once
        latest[(d.text, tuple(d.rect))] = (d, ink)
    runs = list(latest.values())
    for i, (a, ink_a) in enumerate(runs):
        for b, ink_b in runs[i + 1:]:
            both = ink_a.clip(ink_b)
            if both.width > 1 and both.height > 1:
                found.append(Violation("overlap", a.widget, f"{a.text!r} over {b.text!r} ({b.widget})"))
    buttons = k.top.buttons()
    for b in buttons:
        name = f"{k.top.name} button {b.key or b.label!r}"
        if b.rect.width < min_target or b.rect.height < min_target:
            found.append(Violation("small target", name, f"{b.label!r} {b.rect.width}x{b.rect.height} px"))
        if not k.layout.full().contains(b.rect):
            found.append(Violation("cut", name, f"{b.label!r} outside the screen"))
    for i, a in enumerate(buttons):
        for b in buttons[i + 1:]:
            if a.rect.colliderect(b.rect):
                found.append(Violation("buttons overlap", f"{k.top.name} button {a.key or a.label!r}",
                                       f"{a.label!r} over {b.label!r}"))
    return found


def screen_state(k: Kiosk) -> str:
    """What the kiosk shows, as it tells its regions apart when it redraws: the screen on top, its face
    and each region's key (a region whose key is unchanged is not drawn again), written out (some keys
    hold rects, which do not hash)."""
    return repr((k.top.name, k.top.face(), [(r.name, r.key) for r in k.regions()]))


@dataclass
class LayoutWatch:
    """The layout check on a running kiosk: `look()` after each of its turns checks the screen once per
    distinct state (`screen_state`); `found` holds each violation once, with its screen, in order seen."""

    kiosk: Kiosk
    seen: set[str] = field(default_factory=set)
    found: list[tuple[str, Violation]] = field(default_factory=list)  # (screen, violation)
    screens: list[str] = field(default_factory=list)  # the screens checked, each once
    checks: int = 0
    spent_s: float = 0.0  # the time looking took (reported by the evening test; no limit)

    def look(self) -> None:
        started = time.perf_counter()
        try:
            self._look()
        finally:
            self.spent_s += time.perf_counter() - started

    def _look(self) -> None:
        k = self.kiosk
        before = screen_state(k)
        if before in self.seen:
            return
        record, k.text.record = k.text.record, []
        try:
            problems = kiosk_violations(k)
        finally:
            k.text.record = record
        self.checks += 1
        self.seen |= {before, screen_state(k)}
        if k.top.name not in self.screens:
            self.screens.append(k.top.name)
        self.found += [(k.top.name, v) for v in problems if (k.top.name, v) not in self.found]

    def said(self) -> str:
        """What was checked, in one line (the night tests print it)."""
        return (f"layout check: {self.checks} screen states in {self.spent_s:.1f} s on {len(self.screens)} "
                f"screens ({', '.join(self.screens)})")

    def unknown(self, known: Set[tuple[str, str, str]] = frozenset()) -> list[str]:
        """Each violation found but not in `known` ((screen, kind, widget)), said with its screen."""
        return [f"{screen} screen: {v}" for screen, v in self.found if (screen, v.kind, v.widget) not in known]

    def check(self, known: Set[tuple[str, str, str]] = frozenset()) -> None:
        """Fails on any violation found but not in `known`, each said with its screen and widget."""
        problems = self.unknown(known)
        assert not problems, "layout violations:\n" + "\n".join(problems)

    def tell_so_far(self, known: Set[tuple[str, str, str]] = frozenset()) -> None:
        """Prints the violations found so far (for a night that stopped short of its end)."""
        if self.unknown(known):
            print("\nlayout violations so far:\n" + "\n".join(self.unknown(known)))


def watch_layout(table: Night) -> LayoutWatch:
    """The layout check on each screen a night table's kiosk shows from now on (after each turn and
    settle, `Night.looks`), starting with the one it shows now."""
    watch = LayoutWatch(table.kiosk)
    table.looks.append(watch.look)
    watch.look()
    return watch
