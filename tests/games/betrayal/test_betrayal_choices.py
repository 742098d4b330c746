"""Betrayal offers only what its referee accepts, and everything it accepts can be picked (issue 21).
The property, and how a state is reached: tests/kits/picker_property.py."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings

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
from tests.kits.picker_walks import Walk


@settings(max_examples=25, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(**DRAWS)
def test_every_offered_form_is_accepted_and_every_accepted_input_is_offered(which: int, where: float, seed: int,
                                                                            more: int, fresh: bool) -> None:
    check_a_reached_state("betrayal", which, where, seed, more, fresh)


@pytest.mark.parametrize("walk", walks("betrayal", SAMPLE_SEEDS), ids=walk_id)
def test_along_the_demo_scripts_and_long_games_a_sample(walk: Walk | None) -> None:
    """Issue 33: every SAMPLE_STRIDE-th state of the demo scripts and of a long game per script."""
    check_a_real_game("betrayal", walk, SAMPLE_STRIDE)


@pytest.mark.slow
@pytest.mark.parametrize("walk", walks("betrayal", WHOLE_SEEDS), ids=walk_id)
def test_along_the_demo_scripts_and_long_games_every_state(walk: Walk | None) -> None:
    """Issue 33: every state of the demo scripts and of WHOLE_SEEDS long games per script."""
    check_a_real_game("betrayal", walk, 1)
