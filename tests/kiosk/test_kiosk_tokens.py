"""The kiosk and the NFC readers together, end to end with real parts: a real `Table` on its own thread
(a real SQLite log), the kiosk on SDL's dummy driver, a simulated PN532 over a real pty started by the
same starter `companion run` uses, and the token registry in its SQLite file.

(a) a player's figure opens their booth and a token then acts for them; (b) an unknown tag -> the
kiosk's prompt -> enrolled on the screen with key presses -> the same tag is now a referee input;
(c) a refused secret move is told in the tapping player's booth only, the public screen says "not now".
"""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pygame
import pytest

from companion.config import Config, ReaderConfig, ReadersConfig, StorageConfig
from companion.core.contract import Player, Setup, State
from companion.core.eventlog import EventLog
from companion.core.inputs import Input
from companion.core.referee import Outcome, Referee
from companion.drawing.text import TextCache
from companion.games import registry as games_registry
from companion.games.toolkit.game import Toolkit
from companion.kiosk.engine import build
from companion.kiosk.kiosk import Kiosk, Settings
from companion.kiosk.presses import post_tap
from companion.kiosk.screens.booth import BoothScreen
from companion.kiosk.screens.enroll import EnrollScreen
from companion.status import StatusBoard
from companion.table.loop import Table
from companion.table.views import Views
from companion.taps.registry import Registry, Token, registry_path
from companion.taps.starter import RunningReaders, start_readers
from hardware.events import DeviceEvent, ReaderStatus, TagRemoved
from hardware.pn532.emulator import Emulator
from tests.kits.kiosk_fixtures import surface, text, text_cache

__all__ = ["text", "text_cache"]
WAIT = 10.0  # only a guard against a hang; no timing is asserted
ANA_FIGURE, DICE, VOTE_BEN, STRANGER = "11223344", "DEADBEEF", "0A0B0C0D", "04C0FFEE123456"


class SecretVoteToolkit(Toolkit):
    """The toolkit with ballot tokens: a tapped "vote <option>" token is a secret vote (`ballot.vote`)
    by the player whose booth is open. Its refusals tell that player's secrets (that they voted)."""

    def on_token(self, state: State, kind: str, token_id: str, actor: str) -> tuple[str, dict[str, Any]] | None:
        if kind == "vote":
            return "ballot.vote", {"name": "exile", "option": token_id}
        return super().on_token(state, kind, token_id, actor)

    def tokens(self, state: State) -> dict[str, list[str]]:
        return {**super().tokens(state), "vote": ["ana", "ben"]}


@dataclass
class Evening:
    kiosk: Kiosk
    table: Table
    registry: Registry
    emu: Emulator
    inputs: queue.Queue[Input]
    devices: queue.Queue[DeviceEvent]
    text: TextCache
    readers: RunningReaders

    def until(self, what: Callable[[], bool], why: str) -> None:
        """Turn the kiosk's own loop (it sleeps on its self-pipe) until `what` holds."""
        guard = time.monotonic() + WAIT
        while not what():
            assert time.monotonic() < guard, f"gave up waiting: {why}"
            self.kiosk.step()

    def next_input(self) -> Input:
        return self.inputs.get(timeout=WAIT)

    def host(self, move: str, **args: object) -> None:
        done: queue.Queue[Outcome] = queue.Queue()
        self.table.put({"by": "host", "move": move, "args": args}, done.put)
        assert done.get(timeout=WAIT).accepted
        self.next_input()

    def lift(self, uid: str) -> None:
        """Take the tag off the reader and wait until the driver saw it go (the next place is a new tap)."""
        self.emu.remove()
        while True:
            event = self.devices.get(timeout=WAIT)
            if isinstance(event, TagRemoved) and event.uid == uid:
                return

    def drawn(self, audience: str) -> list[str]:
        return [d.text for d in self.text.record or [] if d.audience == audience]


class Recorder:
    """An output of the table: each accepted input, on a queue (called on the Table's thread)."""

    def __init__(self, table: Table) -> None:
        self.table = table  # its log says which input was accepted
        self.inputs: queue.Queue[Input] = queue.Queue()

    def changed(self, views: Views, outcomes: Sequence[Outcome]) -> None:
        for outcome in outcomes:
            if outcome.accepted and outcome.seq is not None:
                self.inputs.put(self.table.referee.events[outcome.seq - 1].input)


@pytest.fixture
def evening(tmp_path: Path, text: TextCache) -> Iterator[Evening]:
    log_path = tmp_path / "companion.sqlite3"
    with Registry(registry_path(log_path)) as box:  # the box's tags, enrolled before the evening
        box.enroll(Token(ANA_FIGURE, "toolkit", "player", "ana", "Ana's meeple"))
        box.enroll(Token(DICE, "toolkit", "dice", "2d6", "Two dice"))
        box.enroll(Token(VOTE_BEN, "toolkit", "vote", "ben", "Vote Ben"))
    games = {**games_registry(), "toolkit": SecretVoteToolkit()}
    setup = Setup("toolkit", (Player("ana", "Ana"), Player("ben", "Ben")), {}, seed=5)
    table = Table(Referee.start(games, EventLog(log_path), setup, created_at=0))
    recorder = Recorder(table)
    table.outputs.append(recorder)
    devices: queue.Queue[DeviceEvent] = queue.Queue()
    table.device_handlers.append(devices.put)
    status = StatusBoard()
    with Emulator(tmp_path / "pn532") as emu:
        # what `companion run` does (companion/wiring.py): the kiosk becomes an output, then
        # `on_ready` starts the readers, handed the kiosk's feed, then the Table's loop runs on its own thread
        kiosk = build(surface("800x480"), table, games, Settings(lang="en", attract=False), status, text=text)
        cfg = Config(storage=StorageConfig(path=log_path),
                     readers=ReadersConfig(devices=(ReaderConfig(name="pn532", driver="pn532", port=str(emu.link)),),
                                           simulate="never"))  # type: ignore[arg-type]
        readers: RunningReaders | None = start_readers(table, cfg, status, kiosk.feed)
        assert readers is not None
        loop = threading.Thread(target=table.run, name="table", daemon=True)
        loop.start()
        night = Evening(kiosk, table, readers.registry, emu, recorder.inputs, devices, text, readers)
        try:
            while not isinstance(devices.get(timeout=WAIT), ReaderStatus):
                pass
            yield night
        finally:
            if kiosk.feed is not None and kiosk.feed.can_enroll:
                readers.stop()
            table.stop()
            loop.join(WAIT)
            kiosk.close()
            table.referee.log.close()


def test_a_figure_opens_the_booth_and_a_token_then_acts_for_that_player(evening: Evening) -> None:
    k = evening.kiosk
    evening.emu.place(ANA_FIGURE)
    evening.until(lambda: isinstance(k.top, BoothScreen), "Ana's booth")
    assert isinstance(k.top, BoothScreen) and k.top.player == "ana"
    assert evening.inputs.empty()  # a figure opens the booth; it is no input
    evening.emu.place(DICE)  # replaces the figure on the reader
    roll = evening.next_input()
    assert (roll.move, roll.by, dict(roll.args)) == ("dice.roll", "player:ana", {"count": 2, "sides": 6})
    evening.until(lambda: [r["by"] for r in k.public["table"]["rolls"]] == ["player:ana"],
                  "the roll in the kiosk's public view")
    assert isinstance(k.top, BoothScreen) and k.top.player == "ana"  # her booth stays open


def test_an_unknown_tag_is_enrolled_on_the_screen_and_then_acts(evening: Evening) -> None:
    k = evening.kiosk
    evening.emu.place(STRANGER)
    evening.until(lambda: isinstance(k.top, EnrollScreen), "the enrollment prompt")
    prompt = ("The table does not know this one yet. Whose figure is it, or which of the game's pieces? "
              "Say it once, and tapping it works from then on.")
    evening.until(lambda: prompt in " ".join(evening.drawn("public")), "the prompt drawn (wrapped in lines)")
    detail = "Tag …EE123456 on reader pn532"  # the tag's id: in a small detail line only
    assert {line for line in evening.drawn("public") if "EE123456" in line or "pn532" in line} == {detail}
    assert evening.inputs.empty() and evening.registry.lookup(STRANGER) is None  # a prompt, no error, no input
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN))  # "Say what it is" has the focus
    evening.until(lambda: k.top.name == "enroll_choose", "the choices")
    labels = [b.label for b in k.top.buttons()]
    assert labels[:4] == ["Ana's figure", "Ben's figure", "Dice: d6", "Dice: 2d6"], labels
    assert "vote: ben" in labels  # the game's declared kinds (no catalog word for "vote": its own word)
    for _ in range(3):
        k.press("next")
    k.press("select")  # Dice: 2d6
    evening.until(lambda: not isinstance(k.top, EnrollScreen), "the enrollment screen to close")
    assert evening.registry.lookup(STRANGER) == Token(STRANGER, "toolkit", "dice", "2d6", "2d6")
    evening.until(lambda: "Saved: Dice: 2d6" in evening.drawn("public"), "the saved notice")
    assert evening.inputs.empty()
    evening.lift(STRANGER)
    evening.emu.place(STRANGER)  # the same tag again: now a roll
    roll = evening.next_input()
    assert (roll.move, roll.by, dict(roll.args)) == ("dice.roll", "table", {"count": 2, "sides": 6})


def test_enroll_mode_names_tag_after_tag(evening: Evening) -> None:
    k = evening.kiosk
    k.press("menu")
    evening.until(lambda: k.top.name == "menu", "the host menu")
    enroll = next(b for b in k.top.buttons() if b.key == "t")
    k.presses.wait_out(k.top)
    post_tap(enroll.rect.center)
    evening.until(lambda: k.top.name == "enroll_mode", "enroll mode")
    for uid, steps, token in ((STRANGER, 1, Token(STRANGER, "toolkit", "player", "ben", "Ben")),
                              ("55667788", 2, Token("55667788", "toolkit", "dice", "d6", "d6"))):
        evening.emu.place(uid)
        evening.until(lambda: k.top.name == "enroll_choose", f"the choices for {uid}")
        for _ in range(steps):
            k.press("next")
        k.press("select")
        evening.until(lambda: k.top.name == "enroll_mode", "waiting for the next tag")
        assert evening.registry.lookup(uid) == token
        evening.lift(uid)
    assert evening.inputs.empty()  # enrolling is never a game input
    k.press("back")
    evening.until(lambda: not isinstance(k.top, EnrollScreen), "enroll mode to end")


def test_a_refused_secret_move_shows_in_the_booth_only(evening: Evening) -> None:
    """Ana's secret vote by token, tapped twice: the second is refused ("you've already voted"), which
    tells that she voted; only her booth says so. With no booth open the screen says "not now"."""
    k = evening.kiosk
    evening.host("ballot.open", name="exile", options=["ana", "ben"], change="final")
    evening.emu.place(ANA_FIGURE)
    evening.until(lambda: isinstance(k.top, BoothScreen), "Ana's booth")
    evening.emu.place(VOTE_BEN)
    vote = evening.next_input()
    assert (vote.move, vote.by) == ("ballot.vote", "player:ana")
    evening.lift(VOTE_BEN)
    assert evening.text.record is not None
    evening.text.record.clear()
    evening.emu.place(VOTE_BEN)  # again: refused, the ballot's votes are final
    secret = "Vote Ben: You've already voted, and votes in this one are final."
    evening.until(lambda: secret in evening.drawn("player:ana"), "the refusal in Ana's booth")
    assert not any("already voted" in t for t in evening.drawn("public")), evening.drawn("public")
    assert k.notice is None
    booth = k.top
    assert isinstance(booth, BoothScreen)
    assert booth.form is not None  # the one thing left to do (a roll) opened by itself
    k.press("back")  # Ana goes back from it to her list ...
    k.press("back")  # ... and closes her booth
    evening.until(lambda: not isinstance(k.top, BoothScreen), "the booth closed")
    evening.lift(VOTE_BEN)
    evening.text.record.clear()
    evening.emu.place(VOTE_BEN)  # no booth: the table votes, refused for a reason the screen keeps to itself
    evening.until(lambda: "Vote Ben: not now" in evening.drawn("public"), "the public 'not now'")
    assert all("already voted" not in t and "can't vote" not in t for t in evening.drawn("public"))
    assert evening.inputs.empty()


def test_the_starter_lends_the_registry_to_the_kiosk_while_the_readers_run(evening: Evening) -> None:
    feed = evening.kiosk.feed
    assert feed is not None and feed.can_enroll
    evening.readers.stop()
    assert not feed.can_enroll  # stopped: the registry file is closed and the kiosk no longer writes to it
