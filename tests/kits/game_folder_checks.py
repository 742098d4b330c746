"""Run in a process whose path holds a game folder from outside the source tree (tests/kits/one_folder_game):
what the kiosk, the booth, the enroll screen, the phones and the demos find of that game. Prints JSON."""

from __future__ import annotations

import json
import os
import sys
import tempfile
from pathlib import Path

import pygame

from companion import i18n
from companion.games import demo_script, registry
from companion.kiosk import board_scenes
from companion.kiosk.engine import fonts, open_display
from companion.table.views import with_lines
from tests.kits.board_checks import board_rect, redraw, texts_in


def main(game_id: str, lang: str) -> dict[str, object]:
    os.environ["SDL_VIDEODRIVER"] = "dummy"
    os.environ["SDL_AUDIODRIVER"] = "dummy"
    pygame.display.init()
    text = fonts(Path(tempfile.mkdtemp()))
    text.record = []
    found: dict[str, object] = {"games": list(registry()), "title": i18n.translate(lang, f"game.{game_id}.title")}
    scene = board_scenes.moment_scene(open_display("800x480", False, "dummy"), text, lang, game_id)
    try:
        drawn = redraw(scene)
        found["screen"] = scene.kiosk.top.name
        found["board"] = texts_in(drawn, board_rect(scene))
        ref = scene.table.referee
        player = ref.state["players"][0]["id"]
        found["player_view"] = with_lines(ref.view(f"player:{player}"), ref.view("public"))
        found["public_view"] = with_lines(ref.view("public"), ref.view("public"))
        scene.tap_token(player)
        found["booth_screen"] = scene.kiosk.top.name
        found["booth"] = [d.text for d in redraw(scene) if d.audience == f"player:{player}"]
        scene.tap_token(player)
        scene.tap_unknown()
        found["enroll_screen"] = scene.kiosk.top.name
        start = [b for b in scene.kiosk.top.buttons() if b.key == "start"]
        start[0].action()  # "enroll it": the list of what the tag can be
        scene.kiosk.process()
        found["enroll"] = [d.text for d in redraw(scene)]
    finally:
        scene.close()
    found["demo"] = demo_script(game_id) is not None
    return found


if __name__ == "__main__":
    print(json.dumps(main(sys.argv[1], sys.argv[2]), ensure_ascii=False))
