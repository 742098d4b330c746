"""The setup screen's seat codes, one at a time (issue 28: readable and scannable on the 7" panel).

Ten players with 24-letter names at 800x480, Ben's phone already in: the list names every seat (Ben's
ticked), one large code is up, read off the screen as a phone's camera would. It is the first free seat's;
**Next ›** and **‹ Previous** step through the free seats (never Ben's), and when a phone takes the seat
shown, the next free seat's code comes up by itself. With every seat taken the panel says so and the two
buttons stay in their places, greyed. Nothing on the screen is under 14 px, under 48 px or overlapping.
"""

from __future__ import annotations

import numpy as np
import pygame
import zxingcpp

from companion.drawing.text import TextCache
from companion.kiosk.scenes import Scene, make_scene, show_screen
from companion.kiosk.screens.setup import SetupScreen
from companion.kiosk.screenshots import example_seats
from companion.kiosk.seats import ShownSeats
from companion.status import DeviceStatus
from tests.kits.kiosk_fixtures import surface, text, text_cache
from tests.kits.kiosk_touch import button, touch
from tests.kits.layout_check import LONG_NAMES, violations

__all__ = ["text", "text_cache"]
IDS = ["ana", "ben", "chai", "dao", "eve", "fon", "gus", "hua", "ivy", "jon"]


def codes_on(screen: pygame.Surface) -> set[str]:
    """Every QR code a camera reads off the screen."""
    grey = pygame.surfarray.array3d(screen).mean(axis=2).astype(np.uint8).T
    return {str(found.text) for found in zxingcpp.read_barcodes(np.ascontiguousarray(grey))}


def take(scene: Scene, seats: ShownSeats, *pids: str) -> None:
    """Phones take these seats: the seating says so on the status board (as `Seating` does), which wakes
    the kiosk."""
    seats.taken.update(pids)
    taken = len(seats.taken)
    scene.kiosk.status.set(DeviceStatus("seats", "seats", "ok" if taken else "off", count=taken))
    scene.kiosk.process()


def test_one_large_code_at_a_time_steps_through_the_free_seats(text: TextCache) -> None:
    seats = example_seats()
    assert isinstance(seats, ShownSeats)
    players = [{"id": pid, "name": LONG_NAMES[i % len(LONG_NAMES)]} for i, pid in enumerate(IDS)]
    scene = make_scene(surface("800x480"), text, "en", seats=seats, players=players)
    try:
        show_screen(scene, "setup")
        k = scene.kiosk
        assert isinstance(k.top, SetupScreen)
        assert [str(v) for v in violations(scene)] == []
        assert [d.text for d in text.record or [] if d.widget == "setup.seats"] == [
            p["name"] for p in players]  # every seat listed, by name
        url = {pid: seats.url(pid) for pid in IDS}
        assert codes_on(k.surface) == {url["ana"]}  # one code: the first free seat's
        code = next(b for b in k.top.buttons() if b.key == "next_seat")
        places = {b.key: b.rect.copy() for b in k.top.buttons()}
        shown = []
        for _ in IDS[1:]:
            touch(k, key="next_seat")
            shown.append(next(iter(codes_on(k.surface))))
        assert shown == [url[p] for p in IDS[2:]] + [url["ana"]]  # Ben's seat is skipped: his phone holds it
        touch(k, key="prev_seat")
        assert codes_on(k.surface) == {url["jon"]}

        take(scene, seats, "jon")  # Jon's phone scans it: the next free seat's code comes up by itself
        assert codes_on(k.surface) == {url["ana"]}
        assert text.record is not None
        text.record.clear()
        take(scene, seats, *IDS)
        assert codes_on(k.surface) == set()
        said = " ".join(d.text for d in text.record or [] if d.widget == "setup.code")
        assert said == "Every seat has joined by phone.", said
        assert {b.key: b.rect for b in k.top.buttons()} == places  # nothing moved
        assert button(k, key="next_seat").style == button(k, key="prev_seat").style == "off"
        assert code.style == "normal"
        assert [str(v) for v in violations(scene)] == []
    finally:
        scene.close()
