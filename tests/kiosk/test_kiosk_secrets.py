"""Secrets stay secret on the screen: the public screens draw the same pixels and the same words
whatever the secrets are, and a booth shows its own player's secrets and nobody else's."""

from __future__ import annotations

from typing import Any

import pygame

from companion import i18n
from companion.drawing.text import TextCache
from companion.kiosk.scenes import Scene, make_scene, opening
from companion.kiosk.screens.booth import BoothScreen
from tests.kits.kiosk_fixtures import surface, text, text_cache

__all__ = ["text", "text_cache"]

# Two evenings that differ only in secrets: hidden HP, the role deal (seed), who voted for whom (the
# tally is the same: one vote each for ben and dao) and a hidden adjustment.
SECRETS = {
    "a": {"hp": 4242, "seed": 11, "votes": {"ana": "ben", "ben": "dao"}, "delta": -4},
    "b": {"hp": 7171, "seed": 12, "votes": {"ana": "dao", "ben": "ben"}, "delta": -9},
}
SECRET_NUMBERS = ("4242", "4238", "7171", "7162")


def evening(scene: Scene, secrets: dict[str, Any]) -> list[tuple[str, str, list[str], bytes]]:
    """Play the evening, and after each step look at every public screen: (step, screen, texts, pixels)."""
    k = scene.kiosk
    seen: list[tuple[str, str, list[str], bytes]] = []

    def look(step: str) -> None:
        for open_menu in (False, True):
            if open_menu:
                k.open_menu()
            k._drawn = None  # a full redraw, so every text on the screen is recorded
            assert k.text.record is not None
            k.text.record.clear()
            k.process()
            texts = [d.text for d in k.text.record if d.audience == "public"]
            seen.append((step, k.top.name, texts, pygame.image.tobytes(k.surface, "RGB")))
            if open_menu:
                k.pop()

    look("start")
    k.stack[0].tap(k.layout.rect(400, 300, 1, 1).topleft)  # leave the attract loop for the game list
    k.top.back()  # and its Back: the setup screen
    look("setup")
    for step in opening(hp=secrets["hp"]):
        scene.play(step)
    look("opened")
    scene.play({"by": "host", "move": "counter.adjust", "args": {"name": "hp", "player": "ben",
                                                                 "delta": secrets["delta"]}})
    for pid, option in secrets["votes"].items():
        scene.play({"by": f"player:{pid}", "move": "ballot.vote", "args": {"name": "exile", "option": option}})
        look(f"{pid} voted")
    scene.at(60_000)
    look("a minute later")
    scene.play({"by": "host", "move": "ballot.close", "args": {"name": "exile"}})
    look("closed")
    scene.play({"by": "host", "move": "game.end", "args": {}})
    for _ in range(8):
        look("reveal")
        k.top.action("select")
    while k.top.name != "reveal":
        k.pop()
    k.top.tap(next(b for b in k.top.buttons() if b.key == "story").rect.center)  # the whole story (issue 31)
    look("story")
    return seen


def test_public_screens_are_the_same_whatever_the_secrets(text: TextCache) -> None:
    looks = {}
    for name, secrets in SECRETS.items():
        scene = make_scene(surface("800x480"), text, "en", seed=secrets["seed"])
        looks[name] = evening(scene, secrets)
        scene.close()
    assert {screen for _, screen, _, _ in looks["a"]} >= {"attract", "setup", "play", "menu", "reveal", "story"}
    for (step, screen, texts_a, pixels_a), (_, _, texts_b, pixels_b) in zip(looks["a"], looks["b"], strict=True):
        assert texts_a == texts_b, f"{screen} after {step}: the words depend on a secret"
        assert pixels_a == pixels_b, f"{screen} after {step}: the pixels depend on a secret"
        assert not [t for t in texts_a if any(n in t for n in SECRET_NUMBERS)], (screen, step)


def test_a_booth_shows_its_player_secrets_and_no_one_elses(text: TextCache) -> None:
    scene = make_scene(surface("800x480"), text, "en")
    for step in opening(hp=4242):
        scene.play(step)
    scene.play({"by": "host", "move": "counter.adjust", "args": {"name": "hp", "player": "ben", "delta": -4}})
    scene.play({"by": "player:ben", "move": "ballot.vote", "args": {"name": "exile", "option": "dao"}})
    scene.tap_token("ana")
    booth = scene.kiosk.top
    assert isinstance(booth, BoothScreen) and booth.player == "ana"
    mine = [d.text for d in text.record or [] if d.audience == "player:ana"]
    assert any("4242" in t for t in mine), mine  # her own HP: the recording does see secrets
    assert not any("4238" in t or "dao" in t for t in mine), mine  # ben's HP and vote: never
    roles = scene.table.referee.state["deals"]["roles"]["assigned"]
    assert any(i18n.translate("en", f"toolkit.role.{roles['ana']}") in t for t in mine)  # her role, in words
    public = [d.text for d in text.record or [] if d.audience == "public"]
    assert not any("4242" in t for t in public), "the status bar or notice drew a booth secret"
    scene.close()


def test_the_booth_hides_on_a_second_tap_and_forgets_the_view(text: TextCache) -> None:
    scene = make_scene(surface("800x480"), text, "en")
    scene.tap_token("ben")
    booth = scene.kiosk.top
    assert isinstance(booth, BoothScreen)
    scene.tap_token("ben")
    assert not isinstance(scene.kiosk.top, BoothScreen)
    assert booth.view == {} and scene.kiosk.feed is not None and scene.kiosk.feed.booth is None
    scene.close()


def test_the_booth_hides_after_its_timeout_and_on_done(text: TextCache) -> None:
    scene = make_scene(surface("800x480"), text, "en")
    scene.tap_token("ana")
    assert isinstance(scene.kiosk.top, BoothScreen)
    scene.clock.now += 29_000
    scene.kiosk.process()
    assert isinstance(scene.kiosk.top, BoothScreen)  # untouched for 29 s: still open
    scene.clock.now += 1_000
    scene.kiosk.process()
    assert not isinstance(scene.kiosk.top, BoothScreen)  # 30 s: hidden
    assert scene.kiosk.feed is not None and scene.kiosk.feed.booth is None
    scene.tap_token("ana")
    booth = scene.kiosk.top
    assert isinstance(booth, BoothScreen)
    done = next(b for b in booth.buttons() if b.key == "done")
    scene.kiosk.top.tap(done.rect.center)
    scene.kiosk.process()
    assert not isinstance(scene.kiosk.top, BoothScreen) and booth.view == {}
    scene.close()
