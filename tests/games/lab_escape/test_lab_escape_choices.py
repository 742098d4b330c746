"""Escape the Lab offers only what its referee accepts, and everything it accepts can be picked (issue 21).
The property, and how a state is reached: tests/kits/picker_property.py."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings

from companion.games import registry
from tests.kits.picker_checks import evenings, phone_prompts, refusal
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
    check_a_reached_state("lab_escape", which, where, seed, more, fresh)


# Issue 33: the states real games reach (the demo scripts, long seeded games): a sample, and every state (slow)
test_along_the_demo_scripts_and_long_games_a_sample, test_along_the_demo_scripts_and_long_games_every_state = (
    walk_tests("lab_escape"))


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
