"""The shared host-run timer of the turn-based games (companion/parts/turn_timer.py), through the games
that use it: the moves they get, the refusals, and that every message it says is in each game's catalog."""

from __future__ import annotations

import pytest

from companion import i18n
from companion.core.contract import Ctx
from companion.core.rejection import Rejected
from companion.games import registry
from companion.parts import timers
from companion.parts.turn_timer import TimerExtend, TimerSet, TimerTick, TurnTimer

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
