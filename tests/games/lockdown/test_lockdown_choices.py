"""Lockdown offers only what its referee accepts, and everything it accepts can be picked (issue 21).
The property, and how a state is reached: tests/kits/picker_property.py."""

from __future__ import annotations

from hypothesis import HealthCheck, Phase, given, settings

from tests.kits.picker_checks import assert_prompts_match_the_referee
from tests.kits.picker_property import (
    DRAWS,
    check_a_reached_state,
    walk_tests,
)

#: Declaring no consumables with none held and none declared (L7.4) is accepted and changes nothing; the form
#: is offered only when there is something to declare or to take back, so this no-op is not offered.
#: Extending a paused timer is accepted (parts.timers.extend) but offered only while it runs: a paused timer's
#: host view offers its resume (test_lockdown_table); the form's range is the referee's (1..3600 s), checked
#: on running timers.
KNOWN = frozenset({("lockdown.declare", "phone"), ("lockdown.timer_extend", "phone"),
                   # the physical draw offers every kind: the stock is face down and secret, so a form that
                   # offered only its kinds would show a player what it holds (a real draw is in it; the player
                   # taps the real cards drawn). A gold bar's pick is not blind (issue 33): it offers the kinds
                   # the bar showed, so it is not listed here.
                   ("lockdown.draw", "reject.lockdown_not_in_stock")})


@settings(max_examples=40, deadline=None, derandomize=True, phases=(Phase.explicit, Phase.generate),
          suppress_health_check=[HealthCheck.too_slow])  # no shrinking: a failing 9-seat state takes minutes to shrink
@given(**DRAWS)
def test_every_offered_form_is_accepted_and_every_accepted_input_is_offered(which: int, where: float, seed: int,
                                                                            more: int, fresh: bool) -> None:
    check_a_reached_state("lockdown", which, where, seed, more, fresh, KNOWN)


def test_the_offer_for_a_tapped_held_card_matches_the_referee(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """The bot never taps, so the states above never hold an offer (issue 31): at the pharmacy with draws
    left, with them spent, and back in an ordinary room, the use_tapped form offers exactly what it accepts."""
    from companion.core.inputs import Input
    from companion.games.lockdown import GAME
    from tests.games.lockdown.test_lockdown_physical_held import at_the_pharmacy
    from tests.kits.picker_universe import Universe

    ref, me = at_the_pharmacy(tmp_path, pills=2)
    assert ref.submit(Input("lockdown.tap", f"player:{me}", {"card": "pill"})).accepted
    assert_prompts_match_the_referee(GAME, ref.setup, ref.state, Universe(), 0, KNOWN)
    for kind in ("pill", "adrenaline"):
        assert ref.submit(Input("lockdown.draw", f"player:{me}", {"cards": [kind]})).accepted
    assert_prompts_match_the_referee(GAME, ref.setup, ref.state, Universe(), 1, KNOWN)
    ref.state["people"][me]["room"] = "B302"  # only using it is left: the offer shows that alone
    assert_prompts_match_the_referee(GAME, ref.setup, ref.state, Universe(), 2, KNOWN)


# Issue 33: the states real games reach (the demo scripts, long seeded games): a sample, and every state (slow)
test_along_the_demo_scripts_and_long_games_a_sample, test_along_the_demo_scripts_and_long_games_every_state = (
    walk_tests("lockdown", KNOWN))
