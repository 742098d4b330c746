"""Kiosk scenes of the full games, reached by replaying their demo scripts (docs/games/) part way, for
screenshots and tests.

    python -m companion.kiosk.board_scenes docs/screenshots [--size 800x480] [--lang zh] [--scene room25]

Each file is `board-<scene>-<lang>-<size>.png`: the play screen with the game's board picture; a game's
main moment (named as the game) also gives `booth-<game>-<lang>-<size>.png`, its first player's booth.
With `--attract`, `attract-<game>-<lang>-<size>.png` instead: the attract loop at each game's moment
(docs/kiosk.md, "The attract loop").
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Iterable
from pathlib import Path

import pygame

from companion import i18n, scripting
from companion.core.eventlog import EventLog
from companion.drawing.text import TextCache
from companion.games import folder, registry
from companion.kiosk.engine import build
from companion.kiosk.kiosk import Settings
from companion.kiosk.layout import COMMON_SIZES
from companion.kiosk.scenes import Scene, SetClock
from companion.kiosk.screens.play import PlayScreen
from companion.status import DeviceStatus, StatusBoard
from companion.table.loop import Table
from companion.taps.registry import Registry

DOCS = Path(__file__).resolve().parents[2] / "docs" / "games"


def moments() -> dict[str, tuple[Path, int]]:
    """Every game's moments worth a picture (`Game.moments`): a demo script and how many inputs to play."""
    found: dict[str, tuple[Path, int]] = {}
    for game_id, game in registry().items():
        for name, (script, steps) in game.moments.items():
            found[name] = (folder(game_id) / "demo_games" / script, steps)
    return found


def script_lines(script: str | Path) -> list[str]:
    path = script if isinstance(script, Path) else DOCS / script
    return [line for line in path.read_text(encoding="utf-8").splitlines() if line.strip()
            and not line.lstrip().startswith("#")]


def part_way(lines: list[str], steps: int) -> list[str]:
    """The setup line and the first `steps` inputs of a script."""
    return lines[:1 + steps]


def last_at(lines: Iterable[str]) -> int:
    return max((int(json.loads(line).get("at", 0)) for line in lines), default=0)


def replay_scene(surface: pygame.Surface, text: TextCache, lang: str, lines: list[str]) -> Scene:
    """A kiosk on a table whose game was played from `lines` (a script), on the play screen."""
    games = registry()
    log = EventLog(":memory:")
    referee = scripting.run(games, log, lines)
    clock = SetClock(last_at(lines[1:]))
    table = Table(referee, clock=clock)
    status = StatusBoard()
    status.set(DeviceStatus("reader", "board0", "ok"))
    status.set(DeviceStatus("broker", "mosquitto", "ok"))
    kiosk = build(surface, table, games, Settings(lang=lang), status, text=text)
    tokens = Registry(":memory:")  # what the readers' starter lends the kiosk
    assert kiosk.feed is not None
    kiosk.feed.use_registry(tokens)
    kiosk.process()
    if kiosk.top.name != "play":  # the results of an ended game, or the attract loop before any news
        kiosk.push(PlayScreen(kiosk))
        kiosk.process()
    return Scene(kiosk, table, clock, log, tokens)


def moment_scene(surface: pygame.Surface, text: TextCache, lang: str, moment: str) -> Scene:
    script, steps = moments()[moment]
    return replay_scene(surface, text, lang, part_way(script_lines(script), steps))


def attract_shots(out: Path, surface: pygame.Surface, text: TextCache, lang: str) -> list[Path]:
    """The attract loop of a table nobody set up, on the real kiosk with a stepped clock: each game's
    screen two inputs before the end of its stretch (its main moment, `Game.moments`)."""
    from companion.core.contract import Player, Setup
    from companion.core.referee import Referee
    from companion.kiosk.reel import SHOWN_STEPS
    from companion.kiosk.screens.attract import DEMO_STEP_MS, AttractScreen

    log = EventLog(":memory:")
    setup = Setup("toolkit", (Player("ana", "Ana"), Player("ben", "Ben")), {}, seed=1)
    clock = SetClock(1_000)
    table = Table(Referee.start(registry(), log, setup, 0), clock=clock)
    kiosk = build(surface, table, registry(), Settings(lang=lang, attract="all"), StatusBoard(), text=text)
    kiosk.process()
    screen = kiosk.top
    assert isinstance(screen, AttractScreen)
    saved: list[Path] = []
    w, h = surface.get_size()
    for game in screen.reel.ids:
        assert screen.reel.game == game
        while screen.reel.shown < min(SHOWN_STEPS - 2, screen.reel.limit):
            clock.now += DEMO_STEP_MS
            kiosk.process()
        path = out / f"attract-{game}-{lang}-{w}x{h}.png"
        pygame.image.save(kiosk.surface, str(path))
        saved.append(path)
        while screen.reel.game == game:
            clock.now += DEMO_STEP_MS
            kiosk.process()
    kiosk.close()
    log.close()
    return saved


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--size", action="append", choices=COMMON_SIZES)
    parser.add_argument("--lang", action="append", choices=i18n.LANGUAGES)
    parser.add_argument("--scene", action="append", choices=sorted(moments()))
    parser.add_argument("--attract", action="store_true", help="the attract loop at each game's moment")
    args = parser.parse_args(argv)
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    from companion.kiosk.engine import fonts, open_display

    args.out.mkdir(parents=True, exist_ok=True)
    text = fonts()
    for size in args.size or ["800x480"]:
        surface = open_display(size, False)
        for lang in args.lang or list(i18n.LANGUAGES):
            if args.attract:
                for path in attract_shots(args.out, surface, text, lang):
                    print(path)
                continue
            for moment in args.scene or sorted(moments()):
                scene = moment_scene(surface, text, lang, moment)
                try:
                    path = args.out / f"board-{moment}-{lang}-{size}.png"
                    pygame.image.save(scene.kiosk.surface, str(path))
                    print(path)
                    if moment in registry():  # a game's first moment: its first player's booth too
                        scene.tap_token(scene.table.referee.state["players"][0]["id"])
                        path = args.out / f"booth-{moment}-{lang}-{size}.png"
                        pygame.image.save(scene.kiosk.surface, str(path))
                        print(path)
                finally:
                    scene.close()
    pygame.quit()
    return 0


if __name__ == "__main__":
    sys.exit(main())
