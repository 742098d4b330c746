"""Touching the real kiosk as a person would: find a button by the words on it (or by its key, for a
keyboard's letters), post an SDL mouse press at its centre and let the kiosk handle it."""

from __future__ import annotations

from collections.abc import Hashable

import pygame

from companion.kiosk.kiosk import Kiosk
from companion.kiosk.widgets import Button


def button(k: Kiosk, label: str | None = None, key: Hashable = None) -> Button:
    buttons = k.top.buttons()
    found = [b for b in buttons if (label is not None and b.label == label) or (key is not None and b.key == key)]
    assert found, f"no button {label or key!r} on {k.top.name}; it shows {[b.label for b in buttons]}"
    return found[0]


def touch(k: Kiosk, label: str | None = None, key: Hashable = None) -> None:
    b = button(k, label, key)
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=b.rect.center))
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
