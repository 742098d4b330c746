"""Escape the Lab offers only what its referee accepts, and everything it accepts can be picked (issue 21).

Hypothesis picks a state part way through one of the game's demo scripts and lets the game's bot play on
from there; at that state, for the host and every player: every form a prompt lets be sent (each choice,
each number of a range, combined as the form allows) is accepted by the referee, and every input the
referee accepts for a move the prompts ask (values from every prompt of the script, numbers beyond their
ranges) is in the actor's prompts as the phone receives them and can be tapped on the booth's pages."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings

from tests.kits.picker_property import DRAWS, check_a_reached_state


@settings(max_examples=40, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(**DRAWS)
def test_every_offered_form_is_accepted_and_every_accepted_input_is_offered(which: int, where: float, seed: int,
                                                                            more: int, fresh: bool) -> None:
    check_a_reached_state("lab_escape", which, where, seed, more, fresh)
