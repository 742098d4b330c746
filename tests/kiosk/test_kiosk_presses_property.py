"""The rule of companion/kiosk/presses.py as a property (hypothesis): over any sequence of finger downs
and ups at any places, screens that change (or change face) at any time and any gaps on the input clock,
a tap acts only when its finger went down on the same button of the same screen face it comes up on,
after that screen had settled, and at most once per touch."""

from __future__ import annotations

from typing import Any

import pygame
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.kiosk.presses import SETTLE_MS, InputClock, Presses
from companion.kiosk.widgets import Button


class Board:
    """A stand-in screen: buttons in a row (the screen object is what the kiosk compares)."""

    def __init__(self, n: int, face: int = 0) -> None:
        self.n, self.face_no = n, face

    def buttons(self) -> list[Button]:
        return [Button(pygame.Rect(i * 100, 0, 90, 60), f"b{i}", lambda: None, key=("b", i)) for i in range(self.n)]

    def face(self) -> Any:
        return self.face_no


EVENTS = st.lists(st.tuples(st.sampled_from(["down", "up", "screen", "face", "wait"]),
                            st.integers(0, 450), st.integers(0, 900)), max_size=40)


@settings(max_examples=300, deadline=None)
@given(EVENTS)
def test_a_tap_acts_once_on_the_settled_screen_where_it_began(events: list[tuple[str, int, int]]) -> None:
    clock = InputClock(monotonic=False)  # only `advance` moves it
    presses = Presses(clock)
    top: Any = Board(4)
    presses.look(top)
    changed_at = clock.now_ms()  # when the screen on top last changed (or changed face)
    down: tuple[Any, Any, Any] | None = None  # what the finger went down on, if the screen had settled
    for kind, x, gap in events:
        if kind == "wait":
            clock.advance(gap)
        elif kind == "screen":
            top, changed_at = Board(1 + x % 4), clock.now_ms()
        elif kind == "face":
            top.face_no += 1
            changed_at = clock.now_ms()
        elif kind == "down":
            settled = clock.now_ms() - changed_at >= SETTLE_MS
            presses.down(top, (x, 30))
            widget = next((b.key for b in top.buttons() if b.rect.collidepoint((x, 30))), None)
            down = (top, top.face(), widget) if settled else None
        else:
            acted = presses.up(top, (x, 30))
            widget = next((b.key for b in top.buttons() if b.rect.collidepoint((x, 30))), None)
            expected = down is not None and down == (top, top.face(), widget)
            assert acted == expected, (kind, x, down, widget)
            assert not presses.up(top, (x, 30)), "a touch acts once"
            down = None
        presses.look(top)


def test_the_settle_time_is_short_enough_for_a_deliberate_touch() -> None:
    assert 300 <= SETTLE_MS <= 400  # a double tap's second touch comes 100-250 ms after the first
