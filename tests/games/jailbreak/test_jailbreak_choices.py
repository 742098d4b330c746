"""Jailbreak offers only what its referee accepts, and everything it accepts can be picked (issue 21).
The property, and how a state is reached: tests/kits/picker_property.py."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings

from companion.core.fold import step
from companion.core.inputs import HOST, Input
from companion.games import registry
from tests.kits.picker_checks import evenings, findings, phone_prompts
from tests.kits.picker_property import (
    DRAWS,
    check_a_reached_state,
    walk_tests,
)
from tests.kits.picker_walks import scripts_folder


@settings(max_examples=40, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(**DRAWS)
def test_every_offered_form_is_accepted_and_every_accepted_input_is_offered(which: int, where: float, seed: int,
                                                                            more: int, fresh: bool) -> None:
    check_a_reached_state("jailbreak", which, where, seed, more, fresh)


# Issue 33: the states real games reach (the demo scripts, long seeded games): a sample, and every state (slow)
test_along_the_demo_scripts_and_long_games_a_sample, test_along_the_demo_scripts_and_long_games_every_state = (
    walk_tests("jailbreak"))


def test_a_paused_turn_timer_can_be_resumed_or_started_again_from_the_host_forms() -> None:
    """Found by the long walks (issue 33): the referee starts a paused timer again from full (timer.start),
    which no host form offered; now the host's forms offer it beside the resume, and both go through."""
    game = registry()["jailbreak"]
    setup, states, universe = evenings("jailbreak", scripts_folder("jailbreak"))[0]
    state = states[len(states) // 2]
    for move, args in (("timer.set", {"seconds": 60}), ("timer.start", {}), ("timer.pause", {})):
        state = step(game, state, Input(move, HOST, args, int(state.get("now", 0))))
    paused = state
    moves = [p["move"] for p in phone_prompts(game, setup, paused, HOST)]
    assert "timer.resume" in moves and "timer.start" in moves
    assert not [f for f in findings(game, setup, paused, universe, 0) if f[1].startswith("timer.")]
