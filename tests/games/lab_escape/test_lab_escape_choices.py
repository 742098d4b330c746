"""Escape the Lab offers only what its referee accepts, and everything it accepts can be picked (issue 21).
The property, and how a state is reached: tests/kits/picker_property.py."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings

from companion.games import registry
from tests.kits.picker_checks import evenings, phone_prompts, refusal
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
    check_a_reached_state("lab_escape", which, where, seed, more, fresh)


@pytest.mark.parametrize("walk", walks("lab_escape", SAMPLE_SEEDS), ids=walk_id)
def test_along_the_demo_scripts_and_long_games_a_sample(walk: Walk | None) -> None:
    """Issue 33: every SAMPLE_STRIDE-th state of the demo scripts and of a long game per script."""
    check_a_real_game("lab_escape", walk, SAMPLE_STRIDE)


@pytest.mark.slow
@pytest.mark.parametrize("walk", walks("lab_escape", WHOLE_SEEDS), ids=walk_id)
def test_along_the_demo_scripts_and_long_games_every_state(walk: Walk | None) -> None:
    """Issue 33: every state of the demo scripts and of WHOLE_SEEDS long games per script."""
    check_a_real_game("lab_escape", walk, 1)


def test_an_attack_on_someone_not_at_this_table_is_refused_not_a_crash() -> None:
    """Found by the long walks (issue 33): a name from another table (the 3-player script's) in an attack
    raised KeyError in the referee; now it is refused with the reason, and nothing changes."""
    game = registry()["lab_escape"]
    for setup, states, _ in evenings("lab_escape", scripts_folder("lab_escape")):
        for state in states:
            for p in state["players"]:
                if any(q["move"] == "attack" for q in phone_prompts(game, setup, state, f"player:{p['id']}")):
                    code = refusal(game, state, f"player:{p['id']}", "attack", {"target": "nobody", "take": "key"})
                    assert code == "reject.not_a_player"
                    return
    raise AssertionError("no demo state offers an attack")
