"""Betrayal's new inputs by touch in the kiosk's booth (issue 31): on her turn Ana's token opens the booth;
every page of her list of things to do reads whole (no label cut or overflowing, 800x480, en, zh, th); she
falls into a new room of the basement ("explorer.place" with a floor), the table lays the crypt facing the
cellar steps' doorway ("room.reveal" with joins, one form a tile), and the crypt's omen is then drawn.
Screenshots are saved (KIOSK_SHOTS to keep them)."""

from __future__ import annotations

import json
from pathlib import Path

import pygame
import pytest

from companion import i18n
from companion.drawing.text import TextCache
from companion.kiosk.board_scenes import replay_scene
from companion.kiosk.kiosk import Kiosk
from companion.kiosk.presses import post_tap
from companion.kiosk.screens.booth import BoothScreen
from tests.kits.kiosk_fixtures import shots_dir, surface, text, text_cache, text_problems

__all__ = ["shots_dir", "text", "text_cache"]
SETUP = {"game": "betrayal", "players": [{"id": "ana", "name": "Ana"}, {"id": "ben", "name": "Ben"},
                                         {"id": "chai", "name": "Chai"}],
         "options": {"today": "03-01", "explorers": {"ana": "vera", "ben": "mina", "chai": "tobias"}}, "seed": 7}


def touch(k: Kiosk, key: object) -> None:
    rect = next(b for b in k.top.buttons() if b.key == key).rect
    k.presses.wait_out(k.top)  # she reads the new page before touching it (a tap acts once: issue 28)
    post_tap(rect.center)
    k.process()


def booth(k: Kiosk) -> BoothScreen:
    assert isinstance(k.top, BoothScreen)
    return k.top


def keys(k: Kiosk) -> list[object]:
    return [b.key for b in k.top.buttons()]



def open_prompt(k: Kiosk, words: str) -> None:
    """Turn the list's pages until the button that says `words` shows, and tap it."""
    for _ in range(10):
        found = [b.key for b in k.top.buttons() if b.label == words]
        if found:
            touch(k, found[0])
            return
        touch(k, "prompts_more")
    raise AssertionError(f"no button {words!r}")


@pytest.mark.parametrize("lang", ["en", "zh", "th"])
def test_a_fall_into_a_new_room_and_its_joins_by_touch(lang: str, text: TextCache, shots_dir: Path) -> None:
    scene = replay_scene(surface("800x480"), text, lang, [json.dumps(SETUP)])
    k = scene.kiosk
    assert scene.table.referee.state["turn"]["actor"] == "ana"
    scene.tap_token("ana")
    page = 0
    while True:  # every page of the list reads whole
        assert text.record is not None
        text.record.clear()
        k.process()
        pygame.image.save(k.surface, str(shots_dir / f"betrayal-turn-{page}-{lang}.png"))
        assert not text_problems(list(text.record)), page
        if "prompts_more" not in keys(k):
            break
        touch(k, "prompts_more")
        page += 1
    while "prompts_back" in keys(k):
        touch(k, "prompts_back")
    open_prompt(k, i18n.translate(lang, "betrayal.prompt.place_new_room", {"player": "Ana"}))
    form = booth(k).form
    assert form is not None and form.prompt["fixed"] == {"player": "ana"}
    floors = [c["value"] for c in form.field_named("floor")["choices"]]
    if ("open", "floor") in keys(k):
        touch(k, ("open", "floor"))
    touch(k, ("choice", "floor", floors.index("basement")))
    touch(k, "send")
    scene.pump()
    assert scene.table.referee.state["pending"]["kind"] == "room"
    touch(k, "done")
    scene.tap_token("ana")  # the table reports the tile: the form a tile, with the doorways it faces
    open_prompt(k, i18n.translate(lang, "betrayal.prompt.room_laid_joins", {"room": "kind.betrayal.room.crypt"}))
    form = booth(k).form
    assert form is not None and form.prompt["fixed"] == {"room": "crypt"}
    joins = [c["value"] for c in form.field_named("joins")["choices"]]
    if ("open", "joins") in keys(k):
        touch(k, ("open", "joins"))
    touch(k, ("choice", "joins", joins.index("cellar_steps")))
    assert text.record is not None
    text.record.clear()
    k.process()
    pygame.image.save(k.surface, str(shots_dir / f"betrayal-joins-{lang}.png"))
    assert not text_problems(list(text.record))
    if ("close", "joins") in keys(k):
        touch(k, ("close", "joins"))
    touch(k, "send")
    scene.pump()
    state = scene.table.referee.state
    assert state["explorers"]["ana"]["room"] == "crypt" and "cellar_steps" in state["rooms"]["crypt"]["joins"]
    assert state["pending"]["kind"] == "card" and state["pending"]["card"] == "omen"  # the rule text: draw it
