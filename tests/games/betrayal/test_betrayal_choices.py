"""Betrayal offers only what its referee accepts, and everything it accepts can be picked (issue 21).
The property, and how a state is reached: tests/kits/picker_property.py."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings

from tests.kits.picker_property import (
    DRAWS,
    check_a_reached_state,
    walk_tests,
)


@settings(max_examples=25, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(**DRAWS)
def test_every_offered_form_is_accepted_and_every_accepted_input_is_offered(which: int, where: float, seed: int,
                                                                            more: int, fresh: bool) -> None:
    check_a_reached_state("betrayal", which, where, seed, more, fresh)


# Issue 33: the states real games reach (the demo scripts, long seeded games): a sample, and every state (slow)
test_along_the_demo_scripts_and_long_games_a_sample, test_along_the_demo_scripts_and_long_games_every_state = (
    walk_tests("betrayal"))
