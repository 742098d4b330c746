"""A tapped pill the player already holds, in the kiosk's booth (issue 31; rulings L3.3, L7.4): the booth
offers "You tapped a pill you already hold: what does it mean?" with the uses the rules allow there (a new
draw, drop it here, use it at settlement), by SDL touches at the widgets' places; the player picks "use it
at settlement", Send, and the referee declares the held pill instead of drawing another. Everything fits the
form panel at 800x480 in en, zh and th; screenshots are saved."""

from __future__ import annotations

import json
from pathlib import Path

import pygame
import pytest

from companion import i18n
from companion.drawing.text import TextCache
from companion.kiosk.board_scenes import replay_scene
from companion.kiosk.kiosk import Kiosk
from tests.games.lockdown.test_lockdown_path_booth import booth, fits, keys, touch
from tests.kits.kiosk_fixtures import shots_dir, surface, text, text_cache

__all__ = ["shots_dir", "text", "text_cache"]
SETUP = {"game": "lockdown", "players": [{"id": "ana", "name": "Ana"}, {"id": "ben", "name": "Ben"}],
         "options": {"items": "physical", "free_seconds": 0, "turn_seconds": 0}, "seed": 11}


def line(pid: str, move: str, **args: object) -> dict[str, object]:
    return {"by": f"player:{pid}", "move": f"lockdown.{move}", "args": args}


@pytest.mark.parametrize("lang", ["en", "zh", "th"])
def test_a_held_pill_tapped_again_is_used_not_drawn(lang: str, text: TextCache, shots_dir: Path) -> None:
    scene = replay_scene(surface("800x480"), text, lang, [json.dumps(SETUP)])
    k = scene.kiosk
    for who in ("ana", "ben"):
        scene.play(line(who, "prepare", force=4, speed=3, load=3, spawn="B302"))
    scene.play({"by": "host", "move": "lockdown.begin_actions", "args": {}})
    first = scene.table.referee.state["action_order"][0]
    scene.play(line(first, "move", path=["B301"]))  # the pharmacy
    scene.play(line(first, "draw", cards=["pill"]))  # the first tap of the pill: a draw
    scene.play(line(first, "tap", card="pill"))  # the same card tapped again (what the router sends)
    scene.pump()
    scene.tap_token(first)
    words = i18n.translate(lang, "lockdown.prompt.use_tapped", {"card": "kind.lockdown_item_pill"})
    assert "kind." not in words and "{" not in words
    entry = next(b.key for b in booth(k).buttons() if b.label == words)
    touch(k, entry)
    form = booth(k).form
    assert form is not None and form.prompt["move"] == "lockdown.use_tapped"
    assert [key for key in keys(k) if isinstance(key, tuple)] == [("choice", "use", i) for i in range(3)]
    labels = [b.label for b in booth(k).buttons() if isinstance(b.key, tuple)]
    assert labels == [i18n.translate(lang, f"kind.lockdown_use_{u}") for u in ("draw", "drop", "declare")]
    assert next(b.style for b in booth(k).buttons() if b.key == "send") == "off"  # nothing picked yet
    fits(k)
    shot(k, shots_dir, f"offer-{lang}")
    touch(k, ("choice", "use", 2))  # use it at settlement
    fits(k)
    touch(k, "send")
    scene.pump()
    shot(k, shots_dir, f"sent-{lang}")
    assert booth(k).answer == (i18n.translate(lang, "kiosk.booth.accepted"), True)
    me = scene.table.referee.state["people"][first]
    assert [c.rsplit("-", 1)[0] for c in me["items"]] == ["pill"]  # still the one pill: nothing drawn
    assert me["declared"] == me["items"]  # used at settlement (L7.4)


def shot(k: Kiosk, where: Path, name: str) -> None:
    k.process()
    pygame.image.save(k.surface, str(where / f"lockdown-tapped-{name}.png"))
