"""The status bar: the game's title, a notice when there is one, and the devices (reader, broker,
phones, buttons) from the `StatusBoard`, each a coloured dot and a word. With no Mosquitto installed
(the broker `missing`), the notice's place says how to install it for phones while no other notice shows."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

from companion import i18n
from companion.kiosk.widgets import DANGER, DIM, FG, GOOD, PANEL, WARN, Region
from companion.status import MOSQUITTO_INSTALL_COMMAND

if TYPE_CHECKING:
    from companion.kiosk.kiosk import Kiosk

STATE_COLORS = {"ok": GOOD, "searching": WARN, "missing": DANGER, "error": DANGER, "off": DIM}


def status_region(k: Kiosk) -> Region:
    devices = tuple((s.kind, s.name, s.state, s.count) for s in k.status.snapshot())
    notice = k.notice[0] if k.notice else ""
    if not notice and any(s.kind == "broker" and s.state == "missing" for s in k.status.snapshot()):
        notice = i18n.translate(k.lang, "kiosk.device.broker_missing", {"command": MOSQUITTO_INSTALL_COMMAND})
    game = str(k.public.get("game", ""))
    key = (k.lang, game, notice, devices)

    def draw(surface: pygame.Surface, rect: pygame.Rect) -> None:
        c = k.canvas
        surface.fill(PANEL, rect)
        pad = c.px(10)
        inner = rect.inflate(-2 * pad, 0)
        size = c.font(15)
        title = i18n.translate(k.lang, f"game.{game}.title") if game else ""
        wide = c.text.render(title, size, DIM, True).get_width() if title else 0  # as wide as it needs, up to a third
        left = pygame.Rect(inner.left, inner.top, min(max(wide, inner.width // 4), inner.width // 3), inner.height)
        c.text.draw(surface, title, left, size, DIM, bold=True)
        x = inner.right
        for kind, _name, state, count in reversed(devices):
            word = i18n.translate(k.lang, f"kiosk.device.{kind}", {"count": count if count is not None else ""})
            w = min(c.text.render(word, size, FG).get_width(), inner.width // 6)
            x -= w
            c.text.draw(surface, word, pygame.Rect(x, inner.top, w, inner.height), size, FG)
            x -= c.px(12)
            pygame.draw.circle(surface, STATE_COLORS.get(state, DIM), (x + c.px(5), rect.centery), c.px(5))
            x -= c.px(14)
        if notice:
            middle = pygame.Rect(left.right + pad, inner.top, max(1, x - left.right - 2 * pad), inner.height)
            c.text.draw(surface, notice, middle, size, WARN, align="center")

    return Region("status", k.layout.status_bar(), key, draw)
