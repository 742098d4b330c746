"""The host runs every game's timer and ends the game from the kiosk's host menu, by touch (issue 21).

The real kiosk on the dummy SDL driver: the host taps the play screen's Menu button and then the menu's
buttons, found by the words a person reads on them, at their positions on the screen (SDL mouse events).
What the game needs before that (a timer created in the toolkit, Lockdown's secret setup, a Betrayal turn
or two) is played by the game's bot through the table, as the players' phones would. For every game:
start the timer if the host starts it, pause it, +30 s, resume it, and "End the game"; the labels are
always the game's own timer name and say what the button sends (the host menu comes from the game's
contract: `companion/core/host_controls.py`). Screenshots go to KIOSK_SHOTS (or a temporary folder).
"""

from __future__ import annotations

import importlib
import random
from pathlib import Path
from typing import Any

import pygame
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion import i18n
from companion.core.contract import Player, Setup
from companion.core.eventlog import EventLog
from companion.core.host_controls import EXTEND_S, now
from companion.core.referee import Referee
from companion.drawing.text import TextCache
from companion.games import registry
from companion.kiosk.engine import build
from companion.kiosk.kiosk import Kiosk, Settings
from companion.kiosk.scenes import Scene, SetClock
from companion.kiosk.widgets import BG
from companion.status import StatusBoard
from companion.table.loop import Table
from companion.taps.registry import Registry
from tests.kits.kiosk_fixtures import shots_dir, surface, text, text_cache, text_problems
from tests.kits.kiosk_touch import tap_at

__all__ = ["shots_dir", "text", "text_cache"]

NAMES = ("ana", "ben", "chai", "dao")
#: Each game with its timer on: the options, and the name its public view gives the timer.
TIMED: dict[str, tuple[dict[str, Any], str]] = {
    "toolkit": ({}, "day"),
    "lockdown": ({"free_seconds": 300, "turn_seconds": 120}, "free"),
    "room25": ({"program_seconds": 60}, "programming"),
    "jailbreak": ({"turn_seconds": 60}, "turn"),
    "betrayal": ({"turn_seconds": 60}, "turn"),
    "lab_escape": ({"turn_seconds": 60}, "turn"),
}


def table_of(tmp_path: Path, game: str, text: TextCache, size: str = "800x480", lang: str = "en") -> Scene:
    options, _ = TIMED[game]
    log = EventLog(tmp_path / f"{game}.sqlite3")
    setup = Setup(game, tuple(Player(p, p.title()) for p in NAMES), options, seed=5)
    referee = Referee.start(registry(), log, setup, created_at=0)
    clock = SetClock(1_000)
    table = Table(referee, clock=clock)
    kiosk = build(surface(size), table, registry(), Settings(lang=lang), StatusBoard(), text=text)
    kiosk.process()
    return Scene(kiosk, table, clock, log, Registry(":memory:"))


def timer(scene: Scene, name: str) -> dict[str, Any]:
    found: dict[str, Any] = scene.kiosk.public["table"]["timers"][name]
    return found


def players_play_until(scene: Scene, game: str, done: Any, most: int = 400) -> None:
    """The game's bot plays through the table (as the seats' phones would) until `done(public)`."""
    bot = importlib.import_module(f"companion.games.{game}.bot").BOT
    rnd = random.Random(3)
    for _ in range(most):
        if done(scene.kiosk.public):
            return
        inp = bot(scene.table.referee.state, rnd, scene.clock.now + 1_000)
        assert inp is not None
        if inp.by == "clock":
            scene.at(inp.at)
            continue
        scene.clock.now = inp.at
        scene.play({"by": inp.by, "move": inp.move, "args": inp.args})
    raise AssertionError(f"{game}: not there after {most} inputs")


def touch(k: Kiosk, pos: tuple[int, int]) -> None:
    """A finger on the touchscreen, as SDL reports it."""
    tap_at(k, pos)


def draw(k: Kiosk, text: TextCache) -> None:
    """The screen drawn afresh, every region (a region that fails to draw fails the test here; the
    kiosk's own redraw keeps the table's screen alive instead)."""
    text.record = []
    k.surface.fill(BG)
    for region in k.regions():
        region.draw(k.surface, region.rect)


def labels(k: Kiosk) -> list[str]:
    return [b.label for b in k.top.buttons()]


def press(scene: Scene, words: str) -> None:
    """The host taps the button that reads `words` (on the screen on top), and the table handles it."""
    k = scene.kiosk
    found = [b for b in k.top.buttons() if b.label == words]
    assert found, f"no button {words!r} on {k.top.name}: {labels(k)}"
    touch(k, found[0].rect.center)
    scene.pump()


def to_play(scene: Scene) -> None:
    """From the attract loop (a game nobody has played yet), as the host does: the game's title in the
    picker, then Start on the setup screen."""
    k = scene.kiosk
    if k.top.name == "attract":
        press(scene, say(k, "kiosk.attract.touch"))  # "Touch to play": the game list
    if k.top.name == "games":
        title = say(k, f"game.{k.public['game']}.title")
        while title not in labels(k) and say(k, "kiosk.form.more") in labels(k):  # the list is paged
            press(scene, say(k, "kiosk.form.more"))
        press(scene, title)
    if k.top.name == "setup":
        press(scene, say(k, "kiosk.setup.start"))


def open_menu(scene: Scene) -> None:
    k = scene.kiosk
    to_play(scene)
    assert k.top.name == "play", k.top.name
    press(scene, i18n.translate(k.lang, "kiosk.button.menu"))
    assert k.top.name == "menu"


def say(k: Kiosk, msgid: str, **params: Any) -> str:
    return i18n.translate(k.lang, msgid, params)


def to_running_timer(scene: Scene, game: str, name: str) -> None:
    """The state where `name` runs: the host starts it from the menu where the host starts it."""
    k = scene.kiosk
    if game == "toolkit":  # the toolkit's timers are the host's own: one is made, then started here
        scene.play({"by": "host", "move": "timer.create", "args": {"name": name, "seconds": 90, "warnings": []}})
    elif game in ("lockdown", "betrayal"):  # the game's flow starts the timer: its players play to it
        players_play_until(scene, game, lambda public: public["table"]["timers"][name]["running"])
    if not timer(scene, name)["running"]:
        scene.kiosk.touched()
        if k.top.name != "play":
            k.stack[1:] = []
        open_menu(scene)
        press(scene, say(k, "host.menu.start", timer=timer_words(k, game, name)))
    assert timer(scene, name)["running"]


def timer_words(k: Kiosk, game: str, name: str) -> str:
    said = say(k, f"timer.{game}.{name}")
    return name if said == f"timer.{game}.{name}" else said


@pytest.mark.parametrize("game", sorted(TIMED))
def test_the_host_pauses_extends_resumes_and_ends_every_game_by_touch(
        tmp_path: Path, game: str, text: TextCache, shots_dir: Path) -> None:
    scene = table_of(tmp_path, game, text)
    k = scene.kiosk
    _, name = TIMED[game]
    to_running_timer(scene, game, name)
    while k.top.name != "play":  # a booth or a notice's screen the bot's play opened: back to the table
        k.pop()
    shown = timer_words(k, game, name)
    assert shown != f"timer.{game}.{name}"  # every game's timer has words of its own, never its id
    scene.at(scene.clock.now + 5_000)  # the timer has run a while

    open_menu(scene)
    draw(k, text)
    pygame.image.save(k.surface, str(shots_dir / f"host-menu-{game}-running.png"))
    assert not text_problems(text.record)
    on_menu = labels(k)
    assert say(k, "host.menu.pause", timer=shown) in on_menu
    assert say(k, "host.menu.resume", timer=shown) not in on_menu  # it runs: no resume
    assert say(k, "host.menu.end") in on_menu
    press(scene, say(k, "host.menu.pause", timer=shown))
    assert not timer(scene, name)["running"]
    assert k.notice is not None and k.notice[0] == say(k, "kiosk.notice.done")
    left = int(timer(scene, name)["remaining"])

    open_menu(scene)
    assert say(k, "host.menu.pause", timer=shown) not in labels(k)  # paused: its button says resume now
    press(scene, say(k, "host.menu.extend", timer=shown, seconds=EXTEND_S))
    assert int(timer(scene, name)["remaining"]) == left + EXTEND_S * 1000
    assert not timer(scene, name)["running"]

    open_menu(scene)
    press(scene, say(k, "host.menu.resume", timer=shown))
    assert timer(scene, name)["running"]

    open_menu(scene)
    end_at = next(b for b in k.top.buttons() if b.label == say(k, "host.menu.end")).rect
    press(scene, say(k, "host.menu.end"))
    assert k.top.name == "confirm" and not k.public["ended"]  # the second step, in the reader's words
    draw(k, text)
    pygame.image.save(k.surface, str(shots_dir / f"host-menu-{game}-confirm-end.png"))
    assert not text_problems(text.record)
    body = say(k, "kiosk.confirm.end.body", game=say(k, f"game.{game}.title"))
    shown = "".join(d.text for d in text.record if d.text not in labels(k)).replace(" ", "")
    assert say(k, "kiosk.confirm.end.title").replace(" ", "") + body.replace(" ", "") in shown
    confirm = next(b for b in k.top.buttons() if b.key == "confirm")
    assert not confirm.rect.colliderect(end_at), "a double tap on End cannot confirm"
    press(scene, say(k, "kiosk.confirm.end.yes"))
    assert k.public["ended"]
    assert k.top.name == "reveal"
    draw(k, text)
    pygame.image.save(k.surface, str(shots_dir / f"host-menu-{game}-ended.png"))
    assert not text_problems(text.record)
    assert k.public["result"]["ranking"] == []  # nobody wins a game the host stopped
    if game == "toolkit":  # the toolkit's own end (unranked from the menu)
        assert k.public["announcements"][-1]["msg"] == "toolkit.game_ended"
    else:  # "The host ended the game: nobody wins."
        assert k.public["announcements"][-1]["msg"] == "game.stopped" and k.public["result"]["stopped"]

    press(scene, say(k, "kiosk.button.menu"))  # the host takes the end back: Undo, where it always is
    assert labels(k)[0] == say(k, "host.menu.undo")
    press(scene, say(k, "host.menu.undo"))
    assert not k.public["ended"] and k.top.name == "play"
    assert k.notice is not None and k.notice[0] == say(k, "kiosk.notice.end_undone")
    assert timer(scene, name)["running"]  # the timer the end paused runs again


@pytest.mark.parametrize(("size", "lang"), [("800x480", "zh"), ("800x480", "th"), ("1920x1080", "en"),
                                            ("1920x1080", "th")])
def test_lockdowns_host_menu_reads_its_own_timer_in_every_language(
        tmp_path: Path, size: str, lang: str, text: TextCache, shots_dir: Path) -> None:
    scene = table_of(tmp_path, "lockdown", text, size, lang)
    k = scene.kiosk
    to_running_timer(scene, "lockdown", "free")
    while k.top.name != "play":
        k.pop()
    open_menu(scene)
    shown = timer_words(k, "lockdown", "free")
    draw(k, text)
    pygame.image.save(k.surface, str(shots_dir / f"host-menu-lockdown-{size}-{lang}.png"))
    assert not text_problems(text.record) and not text.missing
    drawn = [d.text for d in text.record]
    assert say(k, "host.menu.pause", timer=shown) in drawn
    assert say(k, "host.menu.extend", timer=shown, seconds=EXTEND_S) in drawn
    assert say(k, "host.menu.end") in drawn
    # the action turn's timer waits for its phase: no button starts, pauses or extends it now
    turn = timer_words(k, "lockdown", "turn")
    assert not [b for b in labels(k) if f"“{turn}”" in b or turn in b.split()]


@pytest.mark.parametrize("game", sorted(TIMED))
def test_every_game_declares_host_controls_it_has_and_only_the_host_sends(game: str) -> None:
    """Each input a game's host menu can send is one of the game's moves, and one the host may send."""
    g = registry()[game]
    declared = g.host_controls
    assert declared.ends, f"{game}: the host can end it"
    named = [m for m in (declared.timers.start, declared.timers.pause, declared.timers.resume,
                         declared.timers.extend) if m is not None] if declared.timers else []
    for move in [*named, *(e.move for e in declared.ends)]:
        assert move in g.moves, (game, move)
        assert "host" in g.moves[move].who, (game, move)


timer_states = st.builds(
    lambda running, expired, duration, used: {"duration": duration, "running": running and not expired,
                                              "deadline": 10**6 if running and not expired else None,
                                              "remaining": 0 if expired else duration - used,
                                              "expired": expired, "warnings": []},
    st.booleans(), st.booleans(), st.integers(1, 600).map(lambda s: s * 1000),
    st.integers(0, 5).map(lambda s: s * 1000))


@settings(deadline=None)  # the first example loads every game's data
@given(free=timer_states, turn=timer_states, phase=st.sampled_from(["setup", "free", "action", "settlement"]))
def test_lockdowns_host_menu_says_what_each_timer_allows_now(free: dict[str, Any], turn: dict[str, Any],
                                                             phase: str) -> None:
    """Pause only a running timer, resume only a paused one, start one that waits, each only in the phase
    it times; every control sends the input its words say, naming its timer."""
    for t in (free, turn):
        t["remaining"] = min(t["remaining"], t["duration"])
    g = registry()["lockdown"]
    public = {"ended": False, "phase": phase, "table": {"timers": {"free": free, "turn": turn}}}
    controls = now(g.host_controls, g.moves, public)
    live = {"free": "free", "action": "turn"}.get(phase)
    for c in controls:
        if c.timer is None:
            continue
        assert c.timer == live  # never a timer waiting for its phase
        t = public["table"]["timers"][c.timer]
        verb = c.label.removeprefix("host.menu.")
        assert c.move == {"start": "lockdown.timer_resume"}.get(verb, f"lockdown.timer_{verb}")
        assert c.args["name"] == c.timer
        full = not t["running"] and not t["expired"] and t["remaining"] == t["duration"]
        if verb == "pause":
            assert t["running"]
        if verb == "resume":
            assert not t["running"] and not t["expired"] and not full
        if verb == "start":
            assert full
    if live is not None:  # the timer of this phase: paused or resumed or started, and extended, always
        verbs = {c.label for c in controls if c.timer == live}
        assert "host.menu.extend" in verbs  # an expired one gets only that (it comes back paused)
        assert len(verbs) == (1 if public["table"]["timers"][live]["expired"] else 2)
        assert ("host.menu.pause" in verbs) == bool(public["table"]["timers"][live]["running"])
    assert [c.key for c in controls if c.key.startswith("end:")] == ["end:0"]
    ended = now(g.host_controls, g.moves, {**public, "ended": True})
    assert [c.key for c in ended] == ["undo"]  # an ended game: Undo alone, which takes the end back
