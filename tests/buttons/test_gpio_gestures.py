"""Buttons -> gestures with a fake clock: debounce against synthetic chatter, short and long presses,
two-button combinations (issue 7). Mock pins do not bounce, so the chatter is made here."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hardware.gpio.gestures import ButtonSpec, ComboSpec, Gesture, Gestures

NEXT = ButtonSpec("next", press="next", long="prev")
OK = ButtonSpec("ok", press="select", long="back")
MENU = ComboSpec(("next", "ok"), "menu", hold_ms=1000)


def panel(**kwargs: object) -> Gestures:
    return Gestures([NEXT, OK, ButtonSpec("red", press="select")], [MENU], **kwargs)  # type: ignore[arg-type]


def run(g: Gestures, edges: list[tuple[str, bool, int]], until: int) -> list[Gesture]:
    out: list[Gesture] = []
    for name, pressed, at in edges:
        out += g.edge(name, pressed, at)
    return out + g.tick(until)


def test_short_press_acts_on_release_and_long_press_when_held() -> None:
    g = panel()
    assert g.edge("next", True, 1000) == []
    assert g.next_due() == 1800  # the long press, if it stays down
    assert g.edge("next", False, 1300) == [Gesture("press", "next", "next", 1300)]
    assert g.next_due() is None
    assert g.edge("ok", True, 2000) == []
    assert g.tick(2799) == []
    assert g.tick(2900) == [Gesture("long", "ok", "back", 2800)]  # at the moment it became long
    assert g.edge("ok", False, 4000) == []  # the release after a long press does nothing more


def test_a_button_without_long_action_acts_when_it_goes_down() -> None:
    g = panel()
    assert g.edge("red", True, 500) == [Gesture("press", "red", "select", 500)]
    assert g.edge("red", False, 3000) == []


def test_combination_fires_when_both_are_held_and_nothing_else_counts() -> None:
    g = panel()
    assert run(g, [("next", True, 0), ("ok", True, 200)], until=1199) == []
    assert g.tick(1200) == [Gesture("combo", "next+ok", "menu", 1200)]
    # neither release is a press, and no long press fires although both were held > hold_ms
    assert run(g, [("ok", False, 2000), ("next", False, 2100)], until=5000) == []
    # afterwards the buttons work alone again
    assert run(g, [("next", True, 6000), ("next", False, 6100)], until=7000) == [
        Gesture("press", "next", "next", 6100)]


def test_combination_let_go_too_early_does_nothing() -> None:
    g = panel()
    assert run(g, [("next", True, 0), ("ok", True, 100), ("ok", False, 600), ("next", False, 700)],
               until=5000) == []


def test_a_long_press_already_made_is_not_part_of_a_later_combination() -> None:
    g = panel()
    assert run(g, [("next", True, 0)], until=900) == [Gesture("long", "next", "prev", 800)]
    # ok pressed while next is still down: ok is a press of its own, not the menu
    assert run(g, [("ok", True, 1000), ("ok", False, 1100)], until=5000) == [
        Gesture("press", "ok", "select", 1100)]


def test_combination_with_hold_zero_fires_as_the_second_button_goes_down() -> None:
    g = Gestures([NEXT, OK], [ComboSpec(("next", "ok"), "menu", hold_ms=0)])
    assert run(g, [("ok", True, 50)], until=50) == []
    assert g.edge("next", True, 70) == [Gesture("combo", "next+ok", "menu", 70)]


def test_chatter_on_press_and_release_is_one_press() -> None:
    g = panel(bounce_ms=30)
    edges = [("next", True, 100), ("next", False, 102), ("next", True, 105), ("next", False, 109),
             ("next", True, 111),  # settles down within the window
             ("next", False, 400), ("next", True, 403), ("next", False, 410)]  # release chatter
    assert run(g, edges, until=2000) == [Gesture("press", "next", "next", 400)]


def test_chatter_ending_released_inside_the_window_is_settled_at_its_end() -> None:
    """A very short tap that chatters and ends up open before the window closes: taken at window end."""
    g = panel(bounce_ms=30)
    assert run(g, [("next", True, 100), ("next", False, 104), ("next", True, 108), ("next", False, 112)],
               until=129) == []
    assert g.next_due() == 130
    assert g.tick(130) == [Gesture("press", "next", "next", 130)]


def test_unknown_buttons_are_ignored_and_bad_combinations_refused() -> None:
    assert panel().edge("nope", True, 0) == []
    with pytest.raises(ValueError, match="unknown button 'x'"):
        Gestures([NEXT], [ComboSpec(("next", "x"), "menu")])


def chatter(start: int, level: bool, bounce: int) -> st.SearchStrategy[list[tuple[bool, int]]]:
    """Contact bounce after a real change to `level` at `start`: edges alternating away from and back to
    `level`, all less than `bounce` ms after `start`, the last one back at `level`."""
    def edges(offsets: list[int]) -> list[tuple[bool, int]]:
        out = [((not level) if i % 2 == 0 else level, start + t) for i, t in enumerate(sorted(offsets))]
        return [*out, (level, out[-1][1])] if out and out[-1][0] != level else out
    return st.lists(st.integers(0, bounce - 1), max_size=8).map(edges)


@settings(max_examples=200, deadline=None)
@given(bounce=st.integers(5, 200), down=st.integers(0, 10_000), length=st.integers(0, 5000),
       data=st.data())
def test_property_any_chatter_around_one_press_is_one_gesture(bounce: int, down: int, length: int,
                                                              data: st.DataObject) -> None:
    """Whatever the contacts do within bounce_ms of each real change, one press is one gesture: a press
    if let go before hold_ms, a long press otherwise; never both, never two."""
    hold = 800
    up = down + bounce + length  # the real release comes after the press's own bounce window
    g = Gestures([NEXT, OK], [MENU], bounce_ms=bounce, hold_ms=hold)
    edges = [("next", True, down)] + [("next", lvl, t) for lvl, t in data.draw(chatter(down, True, bounce))]
    edges += [("next", False, up)] + [("next", lvl, t) for lvl, t in data.draw(chatter(up, False, bounce))]
    out = run(g, edges, until=up + 10_000)
    expected_kind = "press" if up - down < hold else "long"
    assert [gesture.kind for gesture in out] == [expected_kind]
    assert out[0].at_ms == (up if expected_kind == "press" else down + hold)
    assert g.held() == [] and g.next_due() is None


@settings(max_examples=100, deadline=None)
@given(edges=st.lists(st.tuples(st.sampled_from(["next", "ok", "red"]), st.booleans(), st.integers(0, 3000)),
                      max_size=40))
def test_property_any_edges_give_ordered_gestures_and_settle_when_released(
        edges: list[tuple[str, bool, int]]) -> None:
    g = panel()
    edges = sorted(edges, key=lambda e: e[2])
    out = run(g, [*edges, ("next", False, 4000), ("ok", False, 4000), ("red", False, 4000)], until=20_000)
    times = [gesture.at_ms for gesture in out]
    assert times == sorted(times)
    assert g.held() == [] and g.next_due() is None
    combos = [gesture for gesture in out if gesture.kind == "combo"]
    assert all(c.action == "menu" for c in combos)
