"""The host menu's controls keep their places whatever the timers do (issue 28: a host ended a Werewolf
night by tapping where "Game forms" had been a moment before): with no timer, one waiting, one running,
one run out and three of them, every control that is not a timer's sits where it sat, and a timer's
controls never take another control's place. Read off the real kiosk's buttons, drawn at 800x480."""

from __future__ import annotations

from pathlib import Path

import pygame

from companion.drawing.text import TextCache
from companion.kiosk.scenes import make_scene, opening
from tests.kits.kiosk_fixtures import shots_dir, surface, text, text_cache, text_problems
from tests.kits.kiosk_touch import touch

__all__ = ["shots_dir", "text", "text_cache"]


def places(k: object) -> dict[object, tuple[int, int, int, int]]:
    from companion.kiosk.kiosk import Kiosk
    assert isinstance(k, Kiosk)
    return {b.key: tuple(b.rect) for b in k.top.buttons()}


def test_every_control_keeps_its_place_as_timers_come_run_and_go(text: TextCache, shots_dir: Path) -> None:
    scene = make_scene(surface("800x480"), text, "th")
    k = scene.kiosk
    for step in opening()[:2]:  # roles dealt, a counter: the toolkit's forms are on offer, no timer yet
        scene.play(step)
    k.open_menu()
    k.process()
    before = places(k)
    assert {"undo", "end:0", "n", "f", "l", "v", "c"} <= set(before)
    seen = [before]
    scene.play({"by": "host", "move": "timer.create", "args": {"name": "day", "seconds": 60, "warnings": []}})
    seen.append(places(k))
    scene.play({"by": "host", "move": "timer.start", "args": {"name": "day"}})
    seen.append(places(k))
    scene.at(scene.clock.now + 61_000)  # run out: only "+30 s" is left of its controls
    seen.append(places(k))
    for name in ("night", "vote"):
        scene.play({"by": "host", "move": "timer.create", "args": {"name": name, "seconds": 30, "warnings": []}})
    seen.append(places(k))
    k._drawn = None
    text.record = []
    k.process()
    pygame.image.save(k.surface, str(shots_dir / "host-menu-three-timers-th.png"))
    assert not text_problems(text.record)
    for now in seen:
        for key, rect in before.items():
            assert now[key] == rect, f"{key!r} moved"
        timer_rects = {r for key, r in now.items() if key not in before}
        assert not timer_rects & set(before.values()), "a timer's control took another's place"
        assert all(r[3] >= 48 and r[2] >= 48 for r in now.values())
    assert "timers" in seen[-1]  # three timers: two a page, the footer turns it
    touch(k, key="timers")
    paged = places(k)
    assert "extend:vote" in paged and "extend:day" not in paged  # the third timer, on the second page
    assert all(paged[key] == rect for key, rect in before.items())
    scene.close()
