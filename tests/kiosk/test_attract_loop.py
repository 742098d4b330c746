"""The attract loop shows every game (issue 30), watched as a passer-by would for one full cycle.

A toolkit table (the game a table starts on when nobody chose one) on the real kiosk (dummy SDL driver)
with a stepped clock: every frame of the cycle is drawn whole. Each game's board region and its box
(name, players, length, what the companion does for it) are drawn; the demo's mark ("DEMO" and "Demo: a
recorded game of <title>") is on every frame and "Touch to play" too; no text says a player's, a vote's
or a game's id. One touch opens the game list.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pygame
import pytest
import zxingcpp
from pydantic import ValidationError

from companion import i18n, scripting
from companion.config import Config
from companion.core.contract import Player, Setup
from companion.core.eventlog import EventLog
from companion.core.referee import PUBLIC, Referee
from companion.drawing.text import TextCache
from companion.games import folder, registry
from companion.kiosk.engine import build, settings_from
from companion.kiosk.kiosk import Kiosk, Settings
from companion.kiosk.scenes import Scene, SetClock
from companion.kiosk.screens.attract import DEMO_STEP_MS, AttractScreen
from companion.kiosk.widgets import BG
from companion.status import StatusBoard
from companion.table.loop import Table
from companion.taps.registry import Registry
from tests.kits.kiosk_fixtures import ink_fraction, shots_dir, surface, text, text_cache, text_problems
from tests.kits.kiosk_touch import tap_at

__all__ = ["shots_dir", "text", "text_cache"]


def kiosk_on(game: str, text: TextCache, size: str, lang: str, attract: bool | str | list[str] = True) -> Scene:
    log = EventLog(":memory:")
    setup = Setup(game, (Player("ana", "Ana"), Player("ben", "Ben"), Player("chai", "Chai"), Player("dao", "Dao")),
                  {}, seed=3)
    referee = Referee.start(registry(), log, setup, created_at=0)
    clock = SetClock(1_000)
    table = Table(referee, clock=clock)
    kiosk = build(surface(size), table, registry(), Settings(lang=lang, attract=attract), StatusBoard(),
                  text=text)
    kiosk.process()
    return Scene(kiosk, table, clock, log, Registry(":memory:"))


def frame(k: Kiosk, text: TextCache) -> tuple[list[str], dict[str, pygame.Rect]]:
    """The screen drawn whole: the texts drawn and the regions' places."""
    text.record = []
    k.surface.fill(BG)
    regions = k.regions()
    for region in regions:
        region.draw(k.surface, region.rect)
    return [d.text for d in text.record], {r.name: r.rect for r in regions}


def ids_in(texts: list[str], ids: set[str]) -> list[str]:
    """Texts that show an id (as a word, in its own letters: "ana", "lab_escape", "exile" quoted...)."""
    found = []
    for t in texts:
        for word in ids:
            if re.search(rf"(?<![\w]){re.escape(word)}(?![\w])", t):
                found.append(f"{word!r} in {t!r}")
    return found


@pytest.mark.parametrize(("size", "lang"), [("800x480", "en"), ("800x480", "zh"), ("1920x1080", "th")])
def test_one_cycle_of_the_loop_shows_every_game_marked_as_a_demo(size: str, lang: str, text: TextCache,
                                                                 shots_dir: Path) -> None:
    scene = kiosk_on("toolkit", text, size, lang)
    k = scene.kiosk
    screen = k.top
    assert isinstance(screen, AttractScreen)
    assert screen.reel.ids == list(registry())  # a toolkit table: every game, in menu order
    mark = i18n.translate(lang, "kiosk.attract.mark")
    call = i18n.translate(lang, "kiosk.attract.touch")
    titles = " ".join(i18n.translate(lang, f"game.{g}.title") for g in registry())
    game_ids = {g for g in registry() if g not in titles}  # "toolkit" is a word of "Referee toolkit"
    shown: dict[str, set[str]] = {}
    frames = 0
    first = screen.reel.game
    cycled = False
    while not cycled:
        public = screen.demo.public()
        game = str(public["game"])
        title = i18n.translate(lang, f"game.{game}.title")
        drawn, places = frame(k, text)
        frames += 1
        assert mark in drawn and i18n.translate(lang, "kiosk.attract.demo_banner", {"title": title}) in drawn
        assert call in drawn
        assert not text_problems(text.record) and not text.missing
        player_ids = {p["id"] for p in public.get("players", [])}
        assert not ids_in(drawn, player_ids | game_ids), ids_in(drawn, player_ids | game_ids)
        card = [d.text for d in text.record if places["attract.card"].contains(d.rect)]
        assert title in card
        assert i18n.translate(lang, f"game.{game}.companion") != f"game.{game}.companion"
        board = k.surface.subsurface(places["attract.board"])
        assert ink_fraction(board) > 0.2, f"{game}: its board is drawn"
        if len(shown.setdefault(game, set())) == 4:
            pygame.image.save(k.surface, str(shots_dir / f"attract-{game}-{lang}-{size}.png"))
        shown[game].add(str(public.get("announced")) + str(screen.demo.index))
        before = screen.reel.index
        scene.at(scene.clock.now + DEMO_STEP_MS)
        cycled = screen.reel.index < before and screen.reel.game == first
    assert set(shown) == set(registry())  # every game had its turn, on its own board
    assert all(len(steps) > 3 for steps in shown.values())  # and moved on it, step by step
    assert frames < 100  # one cycle is a few minutes at 2.5 s a step
    scene.kiosk.close()
    scene.log.close()


def test_a_touch_during_the_loop_opens_the_game_list(text: TextCache) -> None:
    scene = kiosk_on("lockdown", text, "800x480", "en")
    k = scene.kiosk
    assert k.top.name == "attract"
    assert k.top.reel.ids == ["lockdown"]  # a table set up for Lockdown shows Lockdown
    touch(k, (400, 240))
    assert k.top.name == "games"
    k.press("back")
    k.process()
    assert k.top.name == "setup"  # Back: this table's own game, ready to start
    scene.kiosk.close()
    scene.log.close()


@pytest.mark.parametrize(("attract", "table_game", "shown"), [
    (True, "lockdown", ["lockdown"]),  # a table set up for a game: its loop
    (True, "toolkit", list(registry())),  # a table nobody set up: every game
    ("all", "lockdown", list(registry())),
    ("this game", "room25", ["room25"]),
    (["room25", "lockdown", "chess"], "toolkit", ["lockdown", "room25"]),  # menu order; unknown ids left out
])
def test_the_loop_shows_the_games_the_host_chose(attract: object, table_game: str, shown: list[str],
                                                 text: TextCache) -> None:
    cfg = Config.model_validate({"display": {"attract": attract}})  # as read from companion.toml
    scene = kiosk_on(table_game, text, "800x480", "en", settings_from(cfg).attract)
    screen = scene.kiosk.top
    assert isinstance(screen, AttractScreen)
    assert screen.reel.ids == shown
    seen = []
    for _ in range(200):
        if screen.demo.public()["game"] not in seen:
            seen.append(screen.demo.public()["game"])
        scene.at(scene.clock.now + DEMO_STEP_MS)
    assert seen == shown  # the screen plays those games, in that order, and no other
    scene.kiosk.close()
    scene.log.close()


@pytest.mark.parametrize("bad", ["some", [], ["Lockdown!"], 3])
def test_a_wrong_attract_setting_is_refused_with_its_place(bad: object) -> None:
    with pytest.raises(ValidationError) as err:
        Config.model_validate({"display": {"attract": bad}})
    assert "attract" in str(err.value)


def ended_table(text: TextCache, idle_s: float) -> Scene:
    """Lockdown played to its end (a recorded two-player game) on a real table, the kiosk on its results."""
    log = EventLog(":memory:")
    lines = (folder("lockdown") / "demo_games" / "lockdown-2p.jsonl").read_text(encoding="utf-8").splitlines()
    referee = scripting.run(registry(), log, lines)
    assert referee.view(PUBLIC)["ended"]
    clock = SetClock(max(10_000, referee.state.get("now", 0)))
    table = Table(referee, clock=clock)
    kiosk = build(surface("800x480"), table, registry(), Settings(lang="en", idle_return_s=idle_s), StatusBoard(),
                  text=text)
    kiosk.process()
    return Scene(kiosk, table, clock, log, Registry(":memory:"))


def test_after_a_game_ends_an_idle_table_goes_back_to_the_loop(text: TextCache) -> None:
    scene = ended_table(text, 120)
    k = scene.kiosk
    assert k.top.name == "reveal"
    start = scene.clock.now
    scene.at(start + 100_000)
    assert k.top.name == "reveal"  # the results stay while people read them
    touch(k, k.layout.rect(400, 150, 1, 1).center)  # someone touches the screen at 100 s: idle from now
    scene.at(start + 200_000)
    assert k.top.name == "reveal"
    scene.at(start + 100_000 + 120_000)
    assert k.top.name == "attract"  # 120 s untouched: the loop, by itself
    assert k.top.reel.ids == ["lockdown"]
    touch(k, k.layout.rect(400, 240, 1, 1).center)  # one tap: the game list
    assert k.top.name == "games"
    k.press("back")
    k.process()
    assert k.top.name == "reveal"  # Back: the last game's results, not a setup for a game that ended
    scene.kiosk.close()
    scene.log.close()


def test_never_while_a_game_is_under_way_nor_when_the_host_said_never(text: TextCache) -> None:
    scene = kiosk_on("lockdown", text, "800x480", "en")
    k = scene.kiosk
    scene.play({"by": "player:ana", "move": "lockdown.prepare",
                "args": {"force": 4, "speed": 3, "load": 3, "spawn": "B102"}})
    assert k.top.name == "play"
    for minute in range(1, 31):  # half an hour of nobody touching a game under way
        scene.at(scene.clock.now + 60_000)
        assert k.top.name == "play", minute
    scene.kiosk.close()
    scene.log.close()
    scene = ended_table(text, 0)  # idle_return = 0: the results stay
    for _ in range(10):
        scene.at(scene.clock.now + 600_000)
    assert scene.kiosk.top.name == "reveal"
    scene.kiosk.close()
    scene.log.close()


def touch(k: Kiosk, pos: tuple[int, int]) -> None:
    """A person's touch at `pos`, once the screen has settled (tests/kits/kiosk_touch.py)."""
    tap_at(k, pos)


@pytest.mark.parametrize(("size", "lang"), [("800x480", "zh"), ("1920x1080", "en")])
def test_the_loop_shows_a_qr_code_a_phone_reads(size: str, lang: str, text: TextCache, shots_dir: Path) -> None:
    url = "https://example.org/tabletop?from=kiosk"
    cfg = Config.model_validate({"display": {"attract_url": url}})
    scene = kiosk_on("toolkit", text, size, lang)
    k = scene.kiosk
    k.settings.attract_url = settings_from(cfg).attract_url
    for _ in range(5):
        scene.at(scene.clock.now + DEMO_STEP_MS)
    drawn, places = frame(k, text)
    pygame.image.save(k.surface, str(shots_dir / f"attract-qr-{lang}-{size}.png"))
    caption = i18n.translate(lang, "kiosk.attract.scan")
    assert caption.replace(" ", "") in "".join(drawn).replace(" ", "")  # wrapped, but whole
    assert not text_problems(text.record) and not text.missing
    grey = pygame.surfarray.array3d(k.surface).mean(axis=2).astype(np.uint8).T
    assert {str(found.text) for found in zxingcpp.read_barcodes(np.ascontiguousarray(grey))} == {url}
    code = places["attract.code" if size == "1920x1080" else "attract.demo"].height
    assert code >= 140 * k.layout.scale - 1  # 404 px on a 1080p TV (its own layout): about 25 cm, read from 2 m
    scene.kiosk.close()
    scene.log.close()


@pytest.mark.parametrize("bad", ["ftp://example.org", "example.org", "https://a b", "https://" + "x" * 300])
def test_a_wrong_attract_url_is_refused(bad: str) -> None:
    with pytest.raises(ValidationError) as err:
        Config.model_validate({"display": {"attract_url": bad}})
    assert "attract_url" in str(err.value)
