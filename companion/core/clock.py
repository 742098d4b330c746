"""Turning time into inputs: before any input stamped `at`, every deadline up to `at` fires first.

The live loop and the script runner both call `advance`, so a recording replays in the same order it
was played: a vote that arrives after a timer ran out is always applied after that timer's expiry.
"""

from __future__ import annotations

from companion.core.referee import Outcome, Referee

MAX_FIRINGS = 1000  # a game whose deadlines keep re-arming in the past must not hang the loop


def advance(referee: Referee, now: int) -> list[Outcome]:
    """Submit every clock input due at or before `now`, earliest first."""
    outcomes: list[Outcome] = []
    for _ in range(MAX_FIRINGS):
        due = referee.due(now)
        if not due:
            break
        outcome = referee.submit(due[0])
        outcomes.append(outcome)
        if not outcome.accepted:  # a game bug: the deadline it declared was refused; stop, do not spin
            break
    return outcomes
