"""The small picture of each game's board on its box (the game list's cards, issue 30), made from the game's
own board picture (`Game.board()`) at its main moment (`Game.moments`, the one named after the game; a game
without one: its first recorded game, whole), in each language, and kept in the game's package as
``box/board-<lang>.png``.

    python -m companion.kiosk.box_pictures            # every game, every language
    python -m companion.kiosk.box_pictures lockdown   # one game

The game list reads the files (`companion.games.Games.box_picture`), so choosing a game still imports none
of the games' rules (docs/perf/rss.md). Made again when a game's board picture changes.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pygame

from companion import i18n, scripting
from companion.core.eventlog import EventLog
from companion.drawing.canvas import Canvas
from companion.drawing.text import TextCache
from companion.games import folder, registry
from companion.kiosk.board_scenes import last_at, part_way, script_lines
from companion.kiosk.layout import Layout
from companion.kiosk.reel import stretch
from companion.kiosk.screens.game_list import PICTURE_KEPT
from companion.kiosk.widgets import PANEL

DRAWN = (456, 332)  # drawn at the attract loop's board size on the 7" panel, in its pixels


def moment_lines(game_id: str) -> list[str]:
    """The setup line and the inputs up to the game's main moment (or its first recorded game, whole)."""
    moment = registry()[game_id].moments.get(game_id)
    if moment is not None:
        return part_way(script_lines(folder(game_id) / "demo_games" / moment[0]), moment[1])
    part = stretch(registry(), game_id)  # the attract loop's: the toolkit's recorded game, whole
    lines = [line for line in part.lines if line.strip() and not line.lstrip().startswith("#")]
    return part_way(lines, part.skip + part.shown)


def picture(game_id: str, lang: str, text: TextCache) -> pygame.Surface:
    """The game's board at its moment, drawn in `lang` and made small."""
    lines = moment_lines(game_id)
    log = EventLog(":memory:")
    try:
        public = scripting.run(registry(), log, lines).view("public")
    finally:
        log.close()
    layout = Layout(800, 480)
    c = Canvas(text, layout.px, layout.font)
    big = pygame.Surface(DRAWN)
    rect = big.get_rect()
    big.fill(PANEL)
    draw = registry()[game_id].board()
    inner = rect.inflate(-16, -16)
    if draw is not None:
        draw(big, inner, c, lang, public, last_at(lines[1:]))
    else:
        c.text.draw(big, i18n.translate(lang, f"game.{game_id}.title"), inner, c.font(40), (200, 200, 200),
                    bold=True, align="center")
    return pygame.transform.smoothscale(big, PICTURE_KEPT)


def main(argv: list[str] | None = None) -> int:
    ids = (argv if argv is not None else sys.argv[1:]) or list(registry())
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    from companion.kiosk.engine import fonts, open_display

    open_display("800x480", False)
    text = fonts()
    for game_id in ids:
        out = folder(game_id) / "box"
        out.mkdir(exist_ok=True)
        for lang in i18n.LANGUAGES:
            path: Path = out / f"board-{lang}.png"
            pygame.image.save(picture(game_id, lang, text), str(path))
            print(path)
    pygame.quit()
    return 0


if __name__ == "__main__":
    sys.exit(main())
