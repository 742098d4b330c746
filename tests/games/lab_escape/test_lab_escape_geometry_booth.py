"""Escape the Lab's placing by touch in the kiosk's booth (issue 31, ruling E1.1): Ana's token opens the
booth; she picks "place the card at a spot", taps a spot and a blocked door, and sends; the referee then
judges her steps by it (only the rooms that touch are offered). Every button and line stays inside the
form panel, in en, zh and th at 800x480. Screenshots are saved (KIOSK_SHOTS to keep them)."""

from __future__ import annotations

import json
from pathlib import Path

import pygame
import pytest

from companion import i18n
from companion.drawing.text import TextCache
from companion.games.lab_escape import data
from companion.kiosk.board_scenes import replay_scene
from companion.kiosk.kiosk import Kiosk
from companion.kiosk.presses import post_tap
from companion.kiosk.screens.booth import BoothScreen
from tests.kits.kiosk_fixtures import shots_dir, surface, text, text_cache, text_problems

__all__ = ["shots_dir", "text", "text_cache"]
SETUP = {"game": "lab_escape", "players": [{"id": "ana", "name": "Ana"}, {"id": "ben", "name": "Ben"}], "seed": 3}


def touch(k: Kiosk, key: object) -> None:
    rect = next(b for b in k.top.buttons() if b.key == key).rect
    k.presses.wait_out(k.top)  # she reads the new screen before touching it (a tap acts once: issue 28)
    post_tap(rect.center)
    k.process()


def booth(k: Kiosk) -> BoothScreen:
    assert isinstance(k.top, BoothScreen)
    return k.top


def fits(k: Kiosk) -> None:
    """Every button and line of the form inside the form panel, no two overlapping."""
    b = booth(k)
    panel = next(r for r in k.regions() if r.name == "booth.form").rect
    boxes = [x.rect for x in b.buttons() if panel.colliderect(x.rect)] + [r for r, _ in b._lines]
    for i, box in enumerate(boxes):
        assert panel.contains(box), box
        assert not any(box.colliderect(other) for other in boxes[i + 1:]), box


def shot(k: Kiosk, where: Path, name: str) -> None:
    k.process()
    pygame.image.save(k.surface, str(where / f"lab-place-{name}-{k.lang}.png"))


@pytest.mark.parametrize("lang", ["en", "zh", "th"])
def test_a_card_is_placed_at_a_spot_with_a_blocked_door_by_touch(lang: str, text: TextCache,
                                                                  shots_dir: Path) -> None:
    scene = replay_scene(surface("800x480"), text, lang, [json.dumps(SETUP)])
    k = scene.kiosk
    card = scene.table.referee.state["display"][0]
    scene.tap_token("ana")
    labels = {b.key: b.label for b in booth(k).buttons() if isinstance(b.key, tuple) and b.key[0] == "prompt"}
    words = i18n.translate(lang, "lab_escape.prompt.place_at", {"card": f"kind.lab_escape.card.{card}"})
    touch(k, next(key for key, label in labels.items() if label == words))
    form = booth(k).form
    assert form is not None and form.prompt["fixed"] == {"card": card}
    touch(k, ("open", "at"))
    fits(k)
    shot(k, shots_dir, "spots")
    spots = [c["value"] for c in form.field_named("at")["choices"]]
    touch(k, ("choice", "at", 0))
    assert form.values["at"] == spots[0] == {"x": 0, "y": -1, "rotation": 0}  # north of the Hall, nearest first
    touch(k, ("open", "blocked"))
    touch(k, ("choice", "blocked", 0))  # the card's first room's north door
    fits(k)
    shot(k, shots_dir, "doors")
    if ("close", "blocked") in [b.key for b in booth(k).buttons()]:
        touch(k, ("close", "blocked"))
    assert text.record is None or not text_problems(list(text.record))
    touch(k, "send")
    scene.pump()
    assert booth(k).answer == (i18n.translate(lang, "kiosk.booth.accepted"), True)
    first = scene.table.referee.state["geometry"][card]
    assert first["at"] == {"x": 0, "y": -1, "rotation": 0}
    assert first["blocked"] == [[data.rooms_of_card()[card][0], "n"]]
    shot(k, shots_dir, "sent")
