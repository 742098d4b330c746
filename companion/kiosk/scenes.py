"""Scenes for screenshots and tests: a real toolkit game on an in-memory log, a table with a settable
clock, and a kiosk on any surface, brought to each screen.

The scene plays the Table's part on the calling thread (`Table.handle`), so a screenshot is
deterministic; `companion run` runs the same Table loop on its own thread.
"""

from __future__ import annotations

import json
import queue
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

import pygame

from companion import scripting
from companion.core.contract import Game
from companion.core.eventlog import EventLog
from companion.drawing.text import TextCache
from companion.games import registry
from companion.kiosk.engine import build
from companion.kiosk.host_lock import HostLock, Pin
from companion.kiosk.kiosk import Kiosk, Settings
from companion.kiosk.scenes_newgame import NEW_GAME_SCREENS, show_new_game_screen
from companion.kiosk.screens.attract import DEMO_STEP_MS, AttractScreen
from companion.kiosk.screens.reveal import RevealScreen
from companion.kiosk.seats import PhoneSeats
from companion.kiosk.sound import Sound
from companion.status import DeviceStatus, StatusBoard
from companion.table.loop import Call, Submission, Table
from companion.taps.registry import Registry

PLAYERS = [{"id": "ana", "name": "Ana"}, {"id": "ben", "name": "Ben"}, {"id": "chai", "name": "ชัย"},
           {"id": "dao", "name": "道"}]
SCREENS = ("attract", "setup", "play", "booth", "reveal", "story", "menu", "phones", "enroll", "enroll_choose",
           "enroll_mode", "confirm", "pin", "booth_pick", "attract_choice", *NEW_GAME_SCREENS)
NEW_TAG = "04C0FFEE123456"  # the unknown tag of the enrollment screens


class SetClock:
    """A table clock that moves only when told (screenshots and tests)."""

    def __init__(self, now: int = 0) -> None:
        self.now = now

    def now_ms(self) -> int:
        return self.now


def opening(hp: int = 10, seed: int = 7) -> list[dict[str, Any]]:
    """The first inputs of an evening: roles dealt, hidden HP, a day timer with warnings."""
    return [
        {"by": "host", "move": "roles.deal",
         "args": {"name": "roles", "roles": ["werewolf", "villager", "villager", "seer"]}},
        {"by": "host", "move": "counter.create", "args": {"name": "hp", "initial": hp, "low": 0, "high": 9999}},
        {"by": "host", "move": "timer.create", "args": {"name": "day", "seconds": 90, "warnings": [30, 10]}},
        {"by": "host", "move": "timer.start", "args": {"name": "day"}},
        {"by": "host", "move": "ballot.open",
         "args": {"name": "exile", "options": ["ana", "ben", "chai", "dao"], "tie": "host_decides"}},
    ]


@dataclass
class Scene:
    kiosk: Kiosk
    table: Table
    clock: SetClock
    log: EventLog
    tokens: Registry

    def play(self, raw: dict[str, Any]) -> None:
        """One input through the table (stamped with the scene's clock), then the kiosk catches up."""
        outcome = self.table.handle(raw)
        assert outcome.accepted, (raw, outcome.reason)
        self.kiosk.process()

    def at(self, ms: int) -> None:
        """Move the table's clock; deadlines due fire, and the kiosk redraws."""
        self.clock.now = ms
        self.table.tick()
        self.kiosk.process()

    def pump(self) -> None:
        """Handle what the kiosk sent the table (a booth form, a host action), as the Table's loop would."""
        while True:
            try:
                item = self.table.inbox.get_nowait()
            except queue.Empty:
                break
            if isinstance(item, Call):  # work the kiosk handed the table's loop (a booth opened by PIN)
                item.work()
                continue
            assert isinstance(item, Submission)
            outcome = self.table.handle(item.raw)
            if item.reply is not None:
                item.reply(outcome)
        self.kiosk.process()

    def tap_token(self, player: str) -> None:
        """What the tap router does with a player's own figure (on the Table's loop)."""
        assert self.kiosk.feed is not None
        self.kiosk.feed.player_tapped(player)
        self.kiosk.process()

    def show(self, name: str) -> None:
        show_screen(self, name)

    def tap_unknown(self, uid: str = NEW_TAG, reader: str = "board0") -> None:
        """What the tap router does with a tag the registry does not know (on the Table's loop)."""
        assert self.kiosk.feed is not None
        self.kiosk.feed.unknown_tag(uid, reader)
        self.kiosk.process()

    def close(self) -> None:
        self.kiosk.close()
        self.tokens.close()
        self.log.close()


def make_scene(surface: pygame.Surface, text: TextCache, lang: str = "en", seed: int = 7,
               games: Mapping[str, Game] | None = None, seats: PhoneSeats | None = None,
               sound: Sound | None = None, players: list[dict[str, str]] | None = None,
               script: list[str] | None = None) -> Scene:
    """A kiosk on a toolkit table of `players` (default `PLAYERS`; their ids must be PLAYERS' ids), or on
    the game a `script` (a demo game's lines) played."""
    games = games or registry()
    log = EventLog(":memory:")
    setup = json.dumps({"game": "toolkit", "players": players or PLAYERS, "seed": seed})
    referee = scripting.run(games, log, script or [setup])
    clock = SetClock(1_000)
    table = Table(referee, clock=clock)
    status = StatusBoard()
    status.set(DeviceStatus("reader", "board0", "ok"))
    status.set(DeviceStatus("broker", "mosquitto", "ok"))
    status.set(DeviceStatus("phones", "web", "ok", count=2))
    settings = Settings(lang=lang, seats=seats)
    kiosk = build(surface, table, games, settings, status, text=text, sound=sound)
    tokens = Registry(":memory:")  # what the readers' starter lends the kiosk (companion/taps/starter.py)
    assert kiosk.feed is not None
    kiosk.feed.use_registry(tokens)
    kiosk.process()
    return Scene(kiosk, table, clock, log, tokens)


def show_screen(scene: Scene, name: str, hp: int = 10) -> None:
    """Bring a fresh scene to screen `name` with a game in a typical state."""
    k = scene.kiosk
    if name == "attract":
        assert isinstance(k.top, AttractScreen)
        for _ in range(6):  # the loop's own pace, on the table's clock
            scene.at(scene.clock.now + DEMO_STEP_MS)
        return
    if name in NEW_GAME_SCREENS:
        show_new_game_screen(scene, name)
        return
    if name == "setup":
        k.top.tap(k.layout.rect(400, 300, 1, 1).topleft)  # a touch on the demo: the game list
        k.top.back()  # and Back: the table's own game's setup screen
        k.process()
        return
    for step in opening(hp=hp):
        scene.play(step)
    scene.play({"by": "player:chai", "move": "dice.roll", "args": {"count": 2}})
    scene.play({"by": "host", "move": "counter.adjust", "args": {"name": "hp", "player": "ben", "delta": -4}})
    scene.play({"by": "player:ana", "move": "ballot.vote", "args": {"name": "exile", "option": "ben"}})
    scene.at(1_000 + 62_000)  # 28 s left: past the 30 s warning
    if name == "play":
        return
    if name == "booth":
        scene.tap_token("ana")
        return
    if name == "menu":
        k.open_menu()
        k.process()
        return
    if name == "confirm":  # End the game's second step
        k.open_menu()
        k.process()
        end = next(b for b in k.top.buttons() if str(b.key).startswith("end:"))
        k.top.tap(end.rect.center)
        k.process()
        return
    if name == "pin":  # a locked host menu: the PIN pad, two digits typed and a wrong PIN said
        k.settings.host_lock = HostLock("pin", Pin.of("2468"))
        k.open_menu()
        k.process()
        for key in ("1", "1", "1", "1", "ok", "2", "4"):
            pressed = next(b for b in k.top.buttons() if b.key in (("digit", key), key))
            k.top.tap(pressed.rect.center)
        k.process()
        return
    if name == "booth_pick":  # "My booth": whose booth, Ana's PIN already chosen
        k.settings.host_lock.set_booth_pin("ana", "Ana", "4321")
        pick = next(b for b in k.top.buttons() if b.key == "my_booth")
        k.top.tap(pick.rect.center)
        k.process()
        return
    if name == "phones":  # the host menu's "Phones and seats" (only when phones are served)
        k.open_menu()
        k.process()
        phones = next(b for b in k.top.buttons() if b.key == "s")
        k.top.tap(phones.rect.center)
        k.process()
        return
    if name == "attract_choice":  # the host menu's "Demo loop": which games the attract loop shows
        k.open_menu()
        k.process()
        k.top.tap(next(b for b in k.top.buttons() if b.key == "a").rect.center)
        k.process()
        return
    if name == "enroll":
        scene.tap_unknown()
        return
    if name == "enroll_choose":
        scene.tap_unknown()
        k.press("select")  # "enroll it" has the focus
        k.process()
        return
    if name == "enroll_mode":
        k.open_menu()
        k.process()
        enroll = next(b for b in k.top.buttons() if b.key == "t")
        k.top.tap(enroll.rect.center)
        k.process()
        for uid, steps in (("04C0FFEE000001", 0), ("04C0FFEE000002", 5)):  # Ana's figure, then 2d6
            scene.tap_unknown(uid)
            for _ in range(steps):
                k.press("next")
            k.press("select")
            k.process()
        return
    if name in ("reveal", "story"):
        for pid, option in (("ben", "ana"), ("chai", "ben"), ("dao", "ben")):
            scene.play({"by": f"player:{pid}", "move": "ballot.vote", "args": {"name": "exile", "option": option}})
        scene.play({"by": "host", "move": "ballot.close", "args": {"name": "exile"}})
        scene.play({"by": "host", "move": "roles.reveal", "args": {"name": "roles", "player": "ben"}})
        scene.play({"by": "host", "move": "game.end", "args": {"rank_by": "hp"}})
        reveal = k.top
        assert isinstance(reveal, RevealScreen)
        for _ in range(8):
            reveal.advance()
        k.process()
        if name == "story":  # the whole story, from the results (issue 31)
            reveal.story()
            k.process()
        return
    raise ValueError(f"no screen {name!r}; screens are {', '.join(SCREENS)}")


def all_screens(surface: pygame.Surface, text: TextCache, lang: str,
                **kw: Any) -> Iterator[tuple[str, Scene]]:
    """Each screen in a scene of its own (closed after the caller is done with it)."""
    for name in SCREENS:
        scene = make_scene(surface, text, lang, **kw)
        try:
            show_screen(scene, name)
            yield name, scene
        finally:
            scene.close()
