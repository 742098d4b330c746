"""The toolkit offers only what its referee accepts, and everything it accepts can be picked (issue 21).

Hypothesis picks a state along the toolkit's demo script (companion/scripts/toolkit-demo.jsonl: timers, a
secret ballot, counters, a role deal); at that state, for the host and every player: every form a prompt
lets be sent is accepted by the referee, and every input the referee accepts for a move the prompts ask
(values from every prompt of the script, numbers beyond their ranges) is in the actor's prompts as the
phone receives them and can be tapped on the booth's pages. The toolkit has no bot: its states are the
script's.

The property found gaps between the toolkit's prompts and its referee; they are fixed on the referee's side
(companion/games/toolkit/checks.py) and KNOWN is empty: list a newly found gap there only with an issue."""

from __future__ import annotations

from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.games import registry
from tests.kits.picker_checks import assert_prompts_match_the_referee, evenings, findings
from tests.kits.picker_property import walk_tests
from tests.kits.picker_states import reached

GAME = registry()["toolkit"]
SCRIPTS = Path(__file__).resolve().parents[3] / "companion" / "scripts"
KNOWN: frozenset[tuple[str, str]] = frozenset()  # the gaps it found are fixed (companion/games/toolkit/checks.py)


@settings(max_examples=20, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(where=st.floats(0, 1), seed=st.integers(0, 2**16))
def test_every_offered_form_is_accepted_and_every_accepted_input_is_offered(where: float, seed: int) -> None:
    setup, states, universe = evenings("toolkit", SCRIPTS)[0]
    state = reached(GAME, None, states, where, seed, 0)
    assert_prompts_match_the_referee(GAME, setup, state, universe, seed, known=KNOWN)


def test_no_gap_is_left_along_the_whole_script() -> None:
    """Every state of the script, not only the ones Hypothesis picks (it found the gaps once listed in KNOWN:
    revealing a role already shown, a player's change beyond their counter's bounds, starting a running timer)."""
    setup, states, universe = evenings("toolkit", SCRIPTS)[0]
    found = sorted({(f[1], f[3]) for state in states for f in findings(GAME, setup, state, universe, 0)})
    assert not found, found


# Issue 33: the states real games reach (the demo scripts, long seeded games): a sample, and every state (slow)
test_along_the_demo_scripts_and_long_games_a_sample, test_along_the_demo_scripts_and_long_games_every_state = (
    walk_tests("toolkit", KNOWN))
