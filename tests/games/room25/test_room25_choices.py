"""Room 25 offers only what its referee accepts, and everything it accepts can be picked (issue 21).
The property, and how a state is reached: tests/kits/picker_property.py."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings

from companion.core.contract import State
from companion.core.prompts import Prompt
from companion.games import registry
from companion.games.room25 import actions
from companion.games.room25.game import Room25
from tests.kits.picker_checks import evenings, findings
from tests.kits.picker_property import (
    DRAWS,
    check_a_reached_state,
    walk_tests,
)

GAME = registry()["room25"]
SCRIPTS = Path(__file__).resolve().parents[3] / "companion" / "games" / "room25" / "demo_games"


@settings(max_examples=40, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(**DRAWS)
def test_every_offered_form_is_accepted_and_every_accepted_input_is_offered(which: int, where: float, seed: int,
                                                                            more: int, fresh: bool) -> None:
    check_a_reached_state("room25", which, where, seed, more, fresh)


def test_the_check_catches_a_form_that_offers_too_much_or_too_little() -> None:
    """Not vacuous: the plan form as it was (the second step offering the first action again, R2.1) is
    caught as offered but refused, and a plan form that leaves out "control" as accepted but not offered."""
    setup, states, universe = evenings("room25", SCRIPTS)[0]
    state = next(s for s in states if GAME.phase(s) == "programming")

    def plan_with(offered: tuple[str, ...], **narrowed: Any) -> type[Room25]:
        class Changed(Room25):
            def prompts(self, s: State, actor: str) -> Sequence[Prompt]:
                out = list(super().prompts(s, actor))
                for i, p in enumerate(out):
                    if p.move == "plan":
                        f = replace(p.fields[0], choices=tuple(c for c in p.fields[0].choices if c.value in offered),
                                    **narrowed)
                        out[i] = replace(p, fields=(f,))
                return out
        return Changed

    twice = plan_with(actions.ACTIONS, first=None, after={})()
    assert any(f[1] == "plan" and f[3] == "reject.room25_plan_twice"
               for f in findings(twice, setup, state, universe, 0))
    short = plan_with(("look", "move", "push"))()
    assert any(f[1] == "plan" and "control" in f[2]["actions"] and f[3] == "phone"
               for f in findings(short, setup, state, universe, 0))


# Issue 33: the states real games reach (the demo scripts, long seeded games): a sample, and every state (slow)
test_along_the_demo_scripts_and_long_games_a_sample, test_along_the_demo_scripts_and_long_games_every_state = (
    walk_tests("room25"))
