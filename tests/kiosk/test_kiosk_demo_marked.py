"""The demo never stands in for a game that has started, and the demo is marked as one (issue 21).

A Lockdown table on a real SQLite log and the real kiosk (dummy SDL driver). Before anyone plays, the
attract screen runs the recorded demo: its banner reads "Demo: a recorded game of <title>" and
each of its lines starts "Demo ·", dimmed, so no one takes "Ben, it is your turn..." for the table's
game. Then Ana sends her secret setup (genes and spawn room) from her phone: Lockdown announces nothing
for it, yet the kiosk leaves the demo for the game and never shows the demo again: not as the demo steps
on, not on Back, not after the companion restarts on the same log.
"""

from __future__ import annotations

from pathlib import Path

import pygame

from companion import i18n
from companion.core.contract import Player, Setup
from companion.core.eventlog import EventLog
from companion.core.referee import Referee
from companion.drawing.text import TextCache
from companion.games import registry
from companion.kiosk.engine import build
from companion.kiosk.kiosk import Kiosk, Settings
from companion.kiosk.scenes import Scene, SetClock
from companion.kiosk.screens.attract import DEMO_STEP_MS
from companion.kiosk.widgets import BG, DIM
from companion.status import StatusBoard
from companion.table.loop import Table
from companion.taps.registry import Registry
from tests.kits.kiosk_fixtures import shots_dir, surface, text, text_cache, text_problems
from tests.kits.kiosk_touch import tap_at

__all__ = ["shots_dir", "text", "text_cache"]

OPTIONS = {"free_seconds": 300, "turn_seconds": 120}
ANA_SETUP = {"by": "player:ana", "move": "lockdown.prepare",
             "args": {"force": 4, "speed": 3, "load": 3, "spawn": "B102"}}


def kiosk_on(log: EventLog, referee: Referee, text: TextCache, size: str = "800x480", lang: str = "en") -> Scene:
    clock = SetClock(1_000)
    table = Table(referee, clock=clock)
    kiosk = build(surface(size), table, registry(), Settings(lang=lang), StatusBoard(), text=text)
    kiosk.process()
    return Scene(kiosk, table, clock, log, Registry(":memory:"))


def new_table(tmp_path: Path) -> tuple[EventLog, Referee]:
    log = EventLog(tmp_path / "night.sqlite3")
    setup = Setup("lockdown", (Player("ana", "Ana"), Player("ben", "Ben")), OPTIONS, seed=3)
    return log, Referee.start(registry(), log, setup, created_at=0)


def draw(k: Kiosk, text: TextCache) -> list[str]:
    """The screen drawn afresh (a failing region fails here); the texts drawn."""
    text.record = []
    k.surface.fill(BG)
    for region in k.regions():
        region.draw(k.surface, region.rect)
    return [d.text for d in text.record]


def ink(rendered: pygame.Surface) -> tuple[int, int, int]:
    """The colour of a drawn text: its most opaque pixel's."""
    w, h = rendered.get_size()
    best = max((rendered.get_at((x, y)).a, x, y) for x in range(w) for y in range(h))
    c = rendered.get_at((best[1], best[2]))
    return (c.r, c.g, c.b)


def touch(k: Kiosk, pos: tuple[int, int]) -> None:
    tap_at(k, pos)


def test_the_attract_screens_demo_says_it_is_a_recorded_game(tmp_path: Path, text: TextCache,
                                                              shots_dir: Path) -> None:
    for size, lang in (("800x480", "en"), ("800x480", "zh"), ("1920x1080", "th")):
        (tmp_path / f"{size}-{lang}").mkdir()
        log, referee = new_table(tmp_path / f"{size}-{lang}")
        scene = kiosk_on(log, referee, text, size, lang)
        k = scene.kiosk
        assert k.top.name == "attract"
        for _ in range(4):  # the demo plays a few of its lines
            scene.at(scene.clock.now + DEMO_STEP_MS)
        drawn = draw(k, text)
        pygame.image.save(k.surface, str(shots_dir / f"attract-demo-marked-{size}-{lang}.png"))
        assert not text_problems(text.record) and not text.missing
        demo = k.top.demo.public()
        assert demo["announced"] > 0  # the recorded game has said things by now
        banner = i18n.translate(lang, "kiosk.attract.demo_banner",
                                {"title": i18n.translate(lang, f"game.{demo['game']}.title")})
        assert banner in drawn
        panel = next(r.rect for r in k.regions() if r.name == "attract.demo")
        lines = [d for d in text.record if panel.contains(d.rect) and d.text != banner]
        prefix = i18n.translate(lang, "kiosk.attract.demo_line", {"line": ""}).strip()
        assert [d for d in lines if d.text.startswith(prefix)], "each of the demo's lines starts 'Demo ·'"
        assert all(ink(d.surface) == DIM for d in lines)  # dimmed, never the table's own white
        log.close()
        k.close()


def test_after_a_secret_setup_input_the_kiosk_never_shows_the_demo_again(tmp_path: Path, text: TextCache,
                                                                          shots_dir: Path) -> None:
    log, referee = new_table(tmp_path)
    scene = kiosk_on(log, referee, text)
    k = scene.kiosk
    assert k.top.name == "attract"
    touch(k, k.layout.rect(600, 300, 1, 1).center)  # someone touched the screen: the game list (issue 30)
    assert k.top.name == "games"
    k.press("back")  # Back: this table's own game's setup screen
    k.process()
    assert k.top.name == "setup"

    assert scene.table.handle(ANA_SETUP).accepted  # Ana's genes and spawn room, from her phone
    k.process()
    assert k.public["announced"] == 0 and k.public["corrections"] == 0  # Lockdown said nothing of it
    assert k.public["begun"]
    assert k.top.name == "play"  # the game has begun: no setup screen, no demo

    seen = {k.top.name}
    for _ in range(6):  # time passes: the demo's steps never bring it back
        scene.at(scene.clock.now + DEMO_STEP_MS)
        seen.add(k.top.name)
    k.press("back")
    k.process()
    seen.add(k.top.name)
    drawn = draw(k, text)
    pygame.image.save(k.surface, str(shots_dir / "lockdown-after-a-secret-setup.png"))
    assert seen == {"play"}
    demo_words = i18n.translate("en", "kiosk.attract.demo_banner", {"title": ""}).split(":")[0]
    assert not [t for t in drawn if t.startswith(demo_words)]
    assert not [t for t in drawn if "it is your turn in the action room" in t]  # the recorded game's words
    k.close()

    again = Referee.resume(registry(), log)  # the companion restarts on the same log
    assert again is not None
    scene = kiosk_on(log, again, text)
    assert scene.kiosk.public["begun"]
    assert scene.kiosk.top.name == "play"
    scene.at(scene.clock.now + 3 * DEMO_STEP_MS)
    assert scene.kiosk.top.name == "play"
    pygame.image.save(scene.kiosk.surface, str(shots_dir / "lockdown-after-a-restart.png"))
    scene.kiosk.close()
    log.close()
