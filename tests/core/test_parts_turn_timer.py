"""The shared host-run timers of the turn-based games (companion/parts/turn_timer.py), through the games
that use them: the moves they get, the refusals, and that every message they say is in each game's catalog.
One timer per game (Room 25, Jailbreak, Escape the Lab, Betrayal) or one per phase (Lockdown)."""

from __future__ import annotations

import pytest

from companion import i18n
from companion.core.contract import Ctx, Deadline
from companion.core.rejection import Rejected
from companion.games import registry
from companion.parts import timers
from companion.parts.turn_timer import NamedExtend, PhaseTimers, TimerExtend, TimerName, TimerSet, TimerTick, TurnTimer

USERS = {"room25": "programming", "jailbreak": "turn", "lab_escape": "turn", "betrayal": "turn"}
SAID = ("timer_set", "timer_started", "timer_paused", "timer_resumed", "timer_extended", "timer_warning")


def ctx(timer: dict | None = None, at: int = 0) -> Ctx:
    return Ctx(state={"timer": timer, "timer_seconds": 0, "announcements": [], "announced": 0}, by="host",
               role="host", player=None, at=at)


@pytest.mark.parametrize("game_id", sorted(USERS))
def test_each_game_has_the_timer_moves_and_every_message_it_says(game_id: str) -> None:
    moves = registry()[game_id].moves
    assert {"timer.set", "timer.pause", "timer.resume", "timer.extend", "timer.warn", "timer.expire"} <= set(moves)
    ids = {f"{game_id}.{said}" for said in SAID if said != "timer_started" or "timer.start" in moves}
    ids.add(f"reject.{game_id}_no_timer")
    for lang in i18n.LANGUAGES:
        assert ids <= i18n.msgids(lang), (lang, sorted(ids - i18n.msgids(lang)))


def test_set_start_pause_resume_extend_and_the_refusals() -> None:
    t = TurnTimer("room25", "programming")
    c = ctx()
    with pytest.raises(Rejected) as no_timer:
        t.pause(c, None)  # type: ignore[arg-type]
    assert no_timer.value.code == "reject.room25_no_timer"
    t.set(c, TimerSet(seconds=60))
    t.start(c, None)  # type: ignore[arg-type]
    with pytest.raises(Rejected) as running:
        t.start(c, None)  # type: ignore[arg-type]
    assert running.value.code == "reject.timer_running"
    c.at = 20_000
    t.pause(c, None)  # type: ignore[arg-type]
    t.extend(c, TimerExtend(seconds=30))
    assert timers.remaining(c.state["timer"], 20_000) == 70_000  # 60 s - 20 s + 30 s
    with pytest.raises(Rejected) as other:
        t.warn(c, TimerTick(name="turn", at_seconds=10))  # a clock input for a timer this game does not have
    assert other.value.code == "reject.bad_argument"
    t.set(c, TimerSet(seconds=0))
    assert c.state["timer"] is None
    said = [a["msg"] for a in c.state["announcements"]]
    assert said == ["room25.timer_set", "room25.timer_started", "room25.timer_paused", "room25.timer_extended",
                    "room25.timer_set"]


def test_lockdown_has_the_phase_timer_moves_and_every_message_they_say() -> None:
    moves = registry()["lockdown"].moves
    assert {f"lockdown.timer_{verb}" for verb in ("pause", "resume", "extend", "warn", "expire")} <= set(moves)
    ids = {f"lockdown.{said}" for said in SAID if said not in ("timer_set", "timer_started")}
    ids |= {"reject.lockdown_no_timer", "kind.lockdown_timer_free", "kind.lockdown_timer_turn"}
    for lang in i18n.LANGUAGES:
        assert ids <= i18n.msgids(lang), (lang, sorted(ids - i18n.msgids(lang)))


def test_phase_timers_are_named_in_their_inputs_refusals_and_announcements() -> None:
    free, turn = TurnTimer("lockdown", "free", named=True), TurnTimer("lockdown", "turn", named=True)
    both = PhaseTimers((free, turn))
    c = Ctx(state={"timers": {"free": timers.new(60, [10])}, "announcements": [], "announced": 0}, by="host",
            role="host", player=None, at=0)
    free.restart(c)  # the flow starts it (a free phase begins); a phase without a timer is untimed
    turn.restart(c)
    assert both.deadlines(c.state) == [Deadline(50_000, "lockdown.timer_warn", {"name": "free", "at_seconds": 10}),
                                       Deadline(60_000, "lockdown.timer_expire", {"name": "free"})]
    assert both.on_resume(c.state) == [("lockdown.timer_pause", {"name": "free"})]
    c.at = 20_000
    both.pause(c, TimerName(name="free"))
    both.extend(c, NamedExtend(name="free", seconds=30))
    assert timers.remaining(c.state["timers"]["free"], 20_000) == 70_000
    for absent in ("turn", "night"):  # left out by the options, or no such timer
        with pytest.raises(Rejected) as refused:
            both.resume(c, TimerName(name=absent))
        assert (refused.value.code, dict(refused.value.params)) == ("reject.lockdown_no_timer", {"name": absent})
    both.resume(c, TimerName(name="free"))
    free.reset(c.state)  # the phase is over: stopped, back to its full time, nothing left to fire
    assert both.deadlines(c.state) == [] and timers.remaining(c.state["timers"]["free"], 99_000) == 60_000
    said = [(a["msg"], a["params"]) for a in c.state["announcements"]]
    which = {"name": "kind.lockdown_timer_free"}
    assert said == [("lockdown.timer_paused", which), ("lockdown.timer_extended", {**which, "seconds": 30}),
                    ("lockdown.timer_resumed", which)]
