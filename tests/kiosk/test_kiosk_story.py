"""The whole story of a finished game on the kiosk (issue 31): views keep the last 20 announcements, the
9-player Lockdown demo announces 124. Played to its last input through the real Table, the results
screen offers "The whole story"; a touch opens every announcement, numbered, first to last, a page at a
time, with Back, "‹ Earlier" and "Later ›" in fixed places, names and never ids, text of 14 px and more
and targets of 48 px and more; Back returns to the results."""

from __future__ import annotations

import json
from pathlib import Path

import pygame
import pytest

from companion import i18n
from companion.drawing.text import TextCache
from companion.games import folder
from companion.kiosk.scenes import Scene, make_scene
from companion.kiosk.screens.reveal import RevealScreen
from companion.kiosk.screens.story import StoryScreen
from companion.naming import Namer
from tests.kits.kiosk_fixtures import shots_dir, surface, text, text_cache, text_problems
from tests.kits.kiosk_touch import button, touch

__all__ = ["shots_dir", "text", "text_cache"]
NINE = folder("lockdown") / "demo_games" / "lockdown-9p.jsonl"


def finished_on_the_kiosk(lang: str, text: TextCache) -> Scene:
    """The demo's lines through the referee, its last input at the table while the kiosk runs."""
    lines = NINE.read_text(encoding="utf-8").splitlines()
    scene = make_scene(surface("800x480"), text, lang, script=lines[:-1])
    last = json.loads(lines[-1])
    scene.clock.now = last.pop("at")
    assert scene.kiosk.top.name == "play" and not scene.kiosk.public.get("ended")
    scene.play(last)
    return scene


@pytest.mark.parametrize("lang", ["en", "th"])
def test_the_results_open_the_whole_story_first_to_last(lang: str, text: TextCache, shots_dir: Path) -> None:
    scene = finished_on_the_kiosk(lang, text)
    k = scene.kiosk
    try:
        public = k.public
        assert isinstance(k.top, RevealScreen) and public["announced"] == 124 and len(public["announcements"]) == 20
        while not k.top.done:
            touch(k, key="next")
        touch(k, i18n.translate(lang, "kiosk.reveal.story"))
        story = k.top
        assert isinstance(story, StoryScreen)
        namer = Namer.of(public)
        said = [namer.describe(lang, a) for a in public["story"]]
        assert len(said) == 124
        k.process()
        pygame.image.save(k.surface, str(shots_dir / f"story-first-{lang}.png"))
        assert story.shown()[0].startswith(f"1. {said[0][:20]}")
        assert button(k, key="earlier").style == "off"
        read: list[str] = []
        places = {b.key: tuple(b.rect) for b in story.buttons()}
        while True:
            read += story.shown()
            assert {b.key: tuple(b.rect) for b in story.buttons()} == places  # the controls keep their places
            if button(k, key="later").style == "off":
                break
            touch(k, key="later")
        pygame.image.save(k.surface, str(shots_dir / f"story-last-{lang}.png"))
        text_read = " ".join(read)
        assert f"124. {said[-1][:12]}" in text_read and said[-1].split()[-1] in text_read
        for n in range(1, 125):  # every announcement once, in order
            assert f"{n}. " in text_read
        for p in public["players"]:  # names, never ids
            assert f" {p['id']} " not in f" {text_read} "
        record = text.record or []
        assert not text_problems(record) and not text.missing
        assert min(d.size for d in record if d.widget.startswith("story")) >= 14
        assert all(b.rect.height >= 48 and b.rect.width >= 48 for b in story.buttons())
        touch(k, key="back")
        assert isinstance(k.top, RevealScreen)
    finally:
        scene.close()
