"""Jailbreak offers only what its referee accepts, and everything it accepts can be picked (issue 21).
The property, and how a state is reached: tests/kits/picker_property.py."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings

from companion.core.fold import step
from companion.core.inputs import HOST, Input
from companion.games import registry
from tests.kits.picker_checks import evenings, findings, phone_prompts
from tests.kits.picker_property import (
    DRAWS,
    SAMPLE_SEEDS,
    SAMPLE_STRIDE,
    WHOLE_SEEDS,
    check_a_reached_state,
    check_a_real_game,
    walk_id,
    walks,
)
from tests.kits.picker_walks import Walk, scripts_folder


@settings(max_examples=40, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(**DRAWS)
def test_every_offered_form_is_accepted_and_every_accepted_input_is_offered(which: int, where: float, seed: int,
                                                                            more: int, fresh: bool) -> None:
    check_a_reached_state("jailbreak", which, where, seed, more, fresh)


@pytest.mark.parametrize("walk", walks("jailbreak", SAMPLE_SEEDS), ids=walk_id)
def test_along_the_demo_scripts_and_long_games_a_sample(walk: Walk | None) -> None:
    """Issue 33: every SAMPLE_STRIDE-th state of the demo scripts and of a long game per script."""
    check_a_real_game("jailbreak", walk, SAMPLE_STRIDE)


@pytest.mark.slow
@pytest.mark.parametrize("walk", walks("jailbreak", WHOLE_SEEDS), ids=walk_id)
def test_along_the_demo_scripts_and_long_games_every_state(walk: Walk | None) -> None:
    """Issue 33: every state of the demo scripts and of WHOLE_SEEDS long games per script."""
    check_a_real_game("jailbreak", walk, 1)


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
