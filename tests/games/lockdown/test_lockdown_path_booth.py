"""Lockdown by touch in the kiosk's booth (issue 21, rulings L1.2, L1.3, L2): SDL touches at the widgets'
positions set the genes, choose the spawn room from a visible list (a floor, then a room), and build a
path of 3 steps from B107 one step at a time among the rooms one hop on, with a step taken back; Send
sends it and the referee moves the player. Every button and line stays inside the form panel and the
answer line under it (no overlap), at 800x480 and 1920x1080, in en, zh and th. Screenshots are saved.
The host's "begin the actions" is the host's part, sent as the host's input through the table."""

from __future__ import annotations

import json
from pathlib import Path

import pygame
import pytest

from companion import i18n
from companion.drawing.text import TextCache
from companion.kiosk.board_scenes import replay_scene
from companion.kiosk.kiosk import Kiosk
from companion.kiosk.layout import Layout
from companion.kiosk.scenes import Scene
from companion.kiosk.screens.booth import BoothScreen
from companion.kiosk.screens.form_layout import prompt_list
from tests.kits.kiosk_fixtures import shots_dir, surface, text, text_cache
from tests.kits.kiosk_touch import tap_at

__all__ = ["shots_dir", "text", "text_cache"]
SETUP = {"game": "lockdown", "players": [{"id": "ana", "name": "Ana"}, {"id": "ben", "name": "Ben"}],
         "options": {"items": "digital", "free_seconds": 0, "turn_seconds": 0}, "seed": 11}


def touch(k: Kiosk, key: object) -> None:
    """A finger on the widget that has `key`, as SDL reports it."""
    rect = next(b for b in k.top.buttons() if b.key == key).rect
    tap_at(k, rect.center)


def keys(k: Kiosk) -> list[object]:
    return [b.key for b in k.top.buttons()]


def booth(k: Kiosk) -> BoothScreen:
    assert isinstance(k.top, BoothScreen)
    return k.top


def fits(k: Kiosk) -> None:
    """Every button of the form and every line is inside the form panel, above the answer's line, and
    no two overlap."""
    b = booth(k)
    panel = next(r for r in k.regions() if r.name == "booth.form").rect
    inner = panel.inflate(-k.layout.px(16), -k.layout.px(16))
    answer = pygame.Rect(inner.left, inner.bottom - k.layout.px(28), inner.width, k.layout.px(28))
    boxes = [x.rect for x in b.buttons() if panel.colliderect(x.rect)] + [r for r, _ in b._lines]
    for i, box in enumerate(boxes):
        assert panel.contains(box) and not box.colliderect(answer), box
        assert not any(box.colliderect(other) for other in boxes[i + 1:]), box


def shot(k: Kiosk, where: Path, name: str) -> None:
    k.process()
    pygame.image.save(k.surface, str(where / f"lockdown-path-{name}-{k.lang}-{k.surface.get_width()}.png"))


def prepare(scene: Scene, who: str, genes: dict[str, int], floor: str, room: str, where: Path) -> None:
    """The player's token opens the booth; taps set the genes and pick the spawn room; Send."""
    k = scene.kiosk
    scene.tap_token(who)
    assert booth(k).form is not None and ("choice", "spawn", 0) not in keys(k)  # a row for each field
    for name, value in genes.items():
        for _ in range(value - (1 if name == "speed" else 0)):
            touch(k, ("plus", name))
    assert next(b.style for b in booth(k).buttons() if b.key == "send") == "off"  # no spawn room yet
    touch(k, ("open", "spawn"))
    fits(k)
    shot(k, where, f"{who}-floors")
    groups = [b for b in booth(k).buttons() if isinstance(b.key, tuple) and b.key[0] == "group"]
    assert len(groups) == 9  # A1, A2, B1..B7: one page
    words = i18n.translate(k.lang, "lockdown.group.floor", {"building": floor[0], "floor": floor})
    touch(k, next(b.key for b in groups if b.label == words))
    fits(k)
    shot(k, where, f"{who}-rooms")
    field = booth(k).form.field_named("spawn")  # type: ignore[union-attr]
    touch(k, ("choice", "spawn", [c["value"] for c in field["choices"]].index(room)))
    assert booth(k).form.values["spawn"] == room and booth(k).form.opened is None  # type: ignore[union-attr]
    fits(k)
    shot(k, where, f"{who}-ready")
    touch(k, "send")
    scene.pump()
    assert booth(k).answer == (i18n.translate(k.lang, "kiosk.booth.accepted"), True)
    assert scene.table.referee.state["people"][who]["room"] == room
    touch(k, "done")


@pytest.mark.parametrize(("lang", "size"), [("en", "800x480"), ("zh", "800x480"), ("th", "1920x1080")])
def test_a_player_in_b107_builds_a_3_step_path_by_touch(lang: str, size: str, text: TextCache,
                                                         shots_dir: Path) -> None:
    scene = replay_scene(surface(size), text, lang, [json.dumps(SETUP)])
    k = scene.kiosk
    prepare(scene, "ana", {"force": 3, "speed": 4, "load": 3}, "B1", "B107", shots_dir)
    prepare(scene, "ben", {"force": 2, "speed": 4, "load": 4}, "B1", "B107", shots_dir)
    scene.play({"by": "host", "move": "lockdown.begin_actions", "args": {}})
    state = scene.table.referee.state
    first = state["action_order"][0]
    scene.tap_token(first)
    form = booth(k).form
    assert form is not None and form.prompt["move"] == "lockdown.move"
    field = form.field_named("path")
    index = {c["value"]: i for i, c in enumerate(field["choices"])}

    def offered() -> set[object]:
        return {key[2] for key in keys(k) if isinstance(key, tuple) and key[0] == "choice"}

    assert offered() == {index["B106"]}  # the armory's only door (the map's B1)
    touch(k, ("choice", "path", index["B106"]))
    assert offered() == {index["B105"], index["B107"]}
    touch(k, ("choice", "path", index["B107"]))  # back into B107 ...
    touch(k, ("take_back", "path"))  # ... taken back
    touch(k, ("choice", "path", index["B105"]))
    shot(k, where=shots_dir, name="step-2")
    assert index["B503"] in offered()  # B105: the chute down to B503 (ruling L2.4)
    touch(k, ("choice", "path", index["B503"]))
    assert offered()  # speed 4: a fourth step may come, but three are enough
    fits(k)
    shot(k, shots_dir, "step-3")
    fourth = sorted(offered())[0]
    assert text.record is not None
    text.record.clear()
    touch(k, ("choice", "path", fourth))  # a fourth step: the line shows the last three ...
    line = next(d.text for d in text.record if d.text.startswith(i18n.translate(lang, "lockdown.field.path")))
    last = field["choices"][fourth]
    assert "… → " in line and line.endswith(i18n.translate(lang, last["label"], last["params"])), line
    touch(k, ("take_back", "path"))  # ... and is taken back
    assert booth(k).form.values["path"] == ["B106", "B105", "B503"]  # type: ignore[union-attr]
    touch(k, "send")
    scene.pump()
    shot(k, shots_dir, "sent")
    fits(k)
    assert booth(k).answer == (i18n.translate(lang, "kiosk.booth.accepted"), True)
    assert scene.table.referee.state["people"][first]["room"] == "B503"


@pytest.mark.parametrize("size", [(800, 480), (1920, 1080)])
def test_a_long_list_of_things_to_do_comes_in_pages_inside_the_panel(size: tuple[int, int]) -> None:
    """A turn with eight things to do (the room, draws, items, the vote, the end): four rows would not
    leave room for the answer, so three a page with More and Back, and every one is reached."""
    layout = Layout(*size)
    area = layout.rect(348, 136, 436, 240)
    prompts = [{"move": f"m{i}", "label": "kiosk.booth.send"} for i in range(8)]
    seen: list[object] = []
    page = 0

    def turn(to: int) -> None:
        nonlocal page
        page = to

    for _ in range(3):
        shown = prompt_list(prompts, page, area, layout, "en", lambda _p: None, turn)
        assert all(area.contains(b.rect) for b in shown)
        seen += [b.key for b in shown if isinstance(b.key, tuple)]
        more = [b for b in shown if b.key == "prompts_more"]
        if not more:
            break
        more[0].action()
    assert seen == [("prompt", i) for i in range(8)]
    back = next(b for b in prompt_list(prompts, page, area, layout, "en", lambda _p: None, turn)
                if b.key == "prompts_back")
    back.action()
    assert page == 1
