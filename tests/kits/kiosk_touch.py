"""Touching the real kiosk as a person would: find a button by the words on it (or by its key, for a
keyboard's letters), post an SDL mouse press and release at its centre and let the kiosk handle it.

A person looks at a new screen before touching it: `touch` lets the screen's settle time pass on the
kiosk's input clock first (companion/kiosk/presses.py); `double_tap` does not (two touches 120 ms apart)."""

from __future__ import annotations

from collections.abc import Hashable

import pygame

from companion.kiosk.kiosk import Kiosk
from companion.kiosk.presses import post_tap
from companion.kiosk.widgets import Button


def button(k: Kiosk, label: str | None = None, key: Hashable = None) -> Button:
    buttons = k.top.buttons()
    found = [b for b in buttons if (label is not None and b.label == label) or (key is not None and b.key == key)]
    assert found, f"no button {label or key!r} on {k.top.name}; it shows {[b.label for b in buttons]}"
    return found[0]


def touch(k: Kiosk, label: str | None = None, key: Hashable = None) -> None:
    b = button(k, label, key)
    tap_at(k, b.rect.center)


def tap_at(k: Kiosk, pos: tuple[int, int]) -> None:
    """A deliberate touch at `pos`, once the screen on top has settled."""
    k.presses.wait_out(k.top)
    post_tap(pos)
    k.process()


DOUBLE_TAP_MS = 120  # between a double tap's two touches


def double_tap(k: Kiosk, label: str | None = None, key: Hashable = None) -> tuple[int, int]:
    """Two quick touches at the button's place (the second one whatever is there by then); returns it."""
    pos = button(k, label, key).rect.center
    tap_at(k, pos)
    k.presses.clock.advance(DOUBLE_TAP_MS)
    post_tap(pos)
    k.process()
    return pos


def slide(k: Kiosk, down: tuple[int, int], up: tuple[int, int]) -> None:
    """A finger that goes down at `down` and comes up at `up` (after the screen settled)."""
    k.presses.wait_out(k.top)
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=down))
    k.process()
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, button=1, pos=up))
    k.process()


def type_on(k: Kiosk, text: str) -> None:
    """Type `text` on the on-screen keyboard, a key at a time (Shift before a capital)."""
    for ch in text:
        if ch == " ":
            touch(k, key="space")
            continue
        if not any(b.key == ("key", ch) for b in k.top.buttons()):
            touch(k, key="shift")
        touch(k, key=("key", ch))
