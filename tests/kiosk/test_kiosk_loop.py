"""The kiosk's loop: woken by a self-pipe (an input from another thread reaches the screen without
polling), redraws only what changed, sleeps long when idle, plays the timer cues, takes GPIO actions,
and sends the host's and a booth's inputs to the referee."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Any

from companion.core.contract import State
from companion.core.prompts import Choice, Field, Prompt
from companion.drawing.text import TextCache
from companion.games import registry
from companion.games.toolkit.game import Toolkit
from companion.kiosk.kiosk import POLL_IDLE_S
from companion.kiosk.scenes import make_scene, opening
from companion.kiosk.screens.booth import FINISHED_MS, BoothScreen
from companion.kiosk.screens.host_menu import HostMenuScreen
from companion.kiosk.screens.play import PlayScreen
from companion.kiosk.sound import Sound
from companion.kiosk.wake import Waker
from tests.kits.kiosk_fixtures import surface, text, text_cache

__all__ = ["text", "text_cache"]
GUARD_S = 30  # only a guard against a hang; no timing is asserted


def playing(text: TextCache, **kw: object):  # type: ignore[no-untyped-def]
    scene = make_scene(surface("800x480"), text, "en", **kw)  # type: ignore[arg-type]
    for step in opening():
        scene.play(step)
    assert isinstance(scene.kiosk.top, PlayScreen)
    return scene


def test_the_waker_wakes_a_sleeping_wait_from_another_thread() -> None:
    waker = Waker()
    threading.Thread(target=waker.wake).start()
    assert waker.wait(GUARD_S) is True
    assert waker.wait(0) is False  # drained: the next wait sleeps again
    waker.close()


def test_an_input_from_another_thread_reaches_the_screen_after_idle(text: TextCache) -> None:
    """The Table's loop on its own thread, the kiosk asleep: a roll wakes it and is drawn."""
    scene = playing(text)
    k = scene.kiosk
    k.waker.wait(0)  # what earlier inputs left in the pipe
    k.process()
    assert k.render() == []  # idle: nothing to redraw
    assert k.waker.wait(0) is False  # asleep: nothing to wake it
    table_thread = threading.Thread(target=scene.table.run, daemon=True)
    table_thread.start()
    scene.table.put({"by": "player:ana", "move": "dice.roll", "args": {"count": 1, "sides": 2}})
    assert k.waker.wait(GUARD_S), "the kiosk was not woken"
    assert text.record is not None
    text.record.clear()
    k.process()
    assert any("rolled" in d.text for d in text.record), [d.text for d in text.record]
    scene.table.stop()
    table_thread.join(GUARD_S)
    scene.close()


def test_only_the_timer_is_redrawn_when_a_second_passes(text: TextCache) -> None:
    scene = playing(text)
    k = scene.kiosk
    k.process()
    scene.clock.now += 1000
    regions = {r.name: r.rect for r in k.regions()}
    assert k.render() == [regions["play.timer"]]
    assert k.render() == []


def test_the_loop_sleeps_until_the_timer_next_second_or_the_idle_poll(text: TextCache) -> None:
    scene = make_scene(surface("800x480"), text, "en")
    k = scene.kiosk
    k._active_until = 0
    for step in opening()[:3]:  # a timer created, not started
        scene.play(step)
    assert k.timeout(scene.clock.now) == POLL_IDLE_S
    scene.play(opening()[3])  # started: wake at its next second
    scene.clock.now += 250
    assert k.top.next_change_ms(scene.clock.now) == scene.clock.now + 750
    assert k.timeout(scene.clock.now) == POLL_IDLE_S  # the input poll comes first
    scene.clock.now += 700
    assert abs(k.timeout(scene.clock.now) - 0.050) < 1e-9  # the timer's next second comes first


def test_the_warning_cue_at_ten_seconds_and_the_expiry_cue_once(text: TextCache) -> None:
    sound = Sound()
    scene = playing(text, sound=sound)
    start = scene.clock.now
    scene.at(start + 79_000)  # 11 s left
    assert sound.played == []
    scene.at(start + 80_500)  # 9.5 s left
    assert sound.played == ["warning"]
    scene.at(start + 90_000)  # ran out: the referee expires it
    scene.at(start + 95_000)
    assert sound.played == ["warning", "expired"]


def test_gpio_actions_move_the_focus_and_open_the_menu_from_another_thread(text: TextCache) -> None:
    scene = playing(text)
    k = scene.kiosk
    presser = threading.Thread(target=k.press, args=("menu",))
    presser.start()
    presser.join(GUARD_S)
    assert k.waker.wait(GUARD_S)
    k.process()
    assert isinstance(k.top, HostMenuScreen)
    keys = [b.key for b in k.top.buttons()]
    for _ in range(keys.index("extend:day")):  # the focus moves a button at a time, to "+30 s"
        k.press("next")
    k.press("select")  # extend the timer
    k.process()
    scene.pump()
    timer = scene.table.referee.view("public")["table"]["timers"]["day"]
    assert timer["deadline"] == 1_000 + 90_000 + 30_000
    assert k.notice is not None and "Done" in k.notice[0]


def test_a_refused_host_action_says_why(text: TextCache) -> None:
    scene = make_scene(surface("800x480"), text, "en")
    k = scene.kiosk
    k.open_menu()
    undo = next(b for b in k.top.buttons() if b.key == "undo")
    k.top.tap(undo.rect.center)
    scene.pump()
    assert k.notice is not None and "undo" in k.notice[0].lower()
    assert scene.table.referee.events == []  # refused: nothing changed


class VotingToolkit(Toolkit):
    """The toolkit with a vote prompt for each open ballot a player may vote in (for the booth)."""

    def prompts(self, state: State, actor: str) -> Sequence[Prompt]:
        pid = actor.removeprefix("player:")
        return [
            Prompt("ballot.vote", "toolkit.ballot_opened", params={"name": name}, fixed={"name": name},
                   fields=(Field("option", "choice", "kind.ballot",
                                 choices=tuple(Choice(o, o.upper(), plain=True) for o in b["options"])),))
            for name, b in state["ballots"].items()
            if b["open"] and pid in b["voters"] and pid not in b["votes"]
        ]


def test_a_player_votes_in_the_booth(text: TextCache) -> None:
    games = {**registry(), "toolkit": VotingToolkit()}
    scene = playing(text, games=games)
    scene.tap_token("dao")
    booth = scene.kiosk.top
    assert isinstance(booth, BoothScreen) and booth.form is not None
    choice = next(b for b in booth.buttons() if b.label == "CHAI")
    assert text.record is not None
    text.record.clear()
    booth.tap(choice.rect.center)
    scene.kiosk.process()
    assert [d.text for d in text.record if d.text.endswith(": CHAI")], "the choice is not shown"
    assert {d.audience for d in text.record} == {"player:dao"}
    send = next(b for b in booth.buttons() if b.key == "send")
    booth.tap(send.rect.center)
    scene.pump()
    assert scene.table.referee.state["ballots"]["exile"]["votes"] == {"dao": "chai"}
    assert booth.answer is not None and booth.answer[1] is True
    assert booth.view["private"]["ballots"]["exile"]["my_vote"] == "chai"
    assert booth.prompts() == []  # voted: nothing left to do, so the booth hides a moment later
    assert booth.sent is not None and booth.sent.what("en") == ["ballot: CHAI"]  # the receipt says it
    scene.clock.now += FINISHED_MS - 1
    scene.kiosk.process()
    assert scene.kiosk.top is booth
    scene.clock.now += 1
    scene.kiosk.process()
    assert isinstance(scene.kiosk.top, PlayScreen) and booth.view == {}


class TurnToolkit(Toolkit):
    """The toolkit with a phase and a turn (the play screen shows the public view's `phase` and `turn`)."""

    def phase(self, state: State) -> str | None:
        return "night" if state["timers"] else "day"

    def current_player(self, state: State) -> str | None:
        return "ben"


def test_the_play_screen_shows_the_phase_and_whose_turn(text: TextCache) -> None:
    scene = playing(text, games={**registry(), "toolkit": TurnToolkit()})
    header = next(r for r in scene.kiosk.regions() if r.name == "play.header")
    assert text.record is not None
    text.record.clear()
    scene.kiosk._drawn = None
    scene.kiosk.render()
    drawn = [d.text for d in text.record if d.region == header.rect]
    assert drawn == ["Phase: night   ·   Ben's turn"]


class OddViewToolkit(Toolkit):
    """A toolkit whose public table has a ballot its board cannot read (a game and its board out of step)."""

    def view_public(self, state: State) -> dict[str, Any]:
        return {**super().view_public(state), "ballots": {"odd": {"open": True}}}


def test_a_failing_board_leaves_the_rest_of_the_screen_and_keeps_running(text: TextCache, caplog) -> None:
    """The board's drawing error is logged; the timer and the rest of the screen are still drawn."""
    scene = playing(text, games={**registry(), "toolkit": OddViewToolkit()})
    assert text.record is not None
    text.record.clear()
    scene.kiosk._drawn = None
    scene.kiosk.render()
    assert "drawing play.board failed" in caplog.text
    assert any(d.text == "1:30" for d in text.record)
    scene.play({"by": "player:ana", "move": "dice.roll", "args": {"count": 1}})  # and it goes on
    assert any("rolled" in d.text for d in text.record)
