"""Jailbreak fuzzing: whatever a phone, a tapped card or a script sends, in whatever state a random legal
game reached, the referee accepts it or answers with a specific, translated rejection; a rejection
changes nothing, and an accepted input keeps the table whole (scenes 1..6, hands >= 0, deck counted)."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from companion import i18n
from companion.core.fold import copy_state, initial, step
from companion.core.inputs import Input
from companion.core.rejection import Rejected
from companion.games.jailbreak import bot, data
from tests.kits.jailbreak_table import GAME, setup

SENDERS = ["host", "table", "clock", "player:ana", "player:ben", "player:chai", "player:dao", "player:eli",
           "player:zed"]
VALUES = st.none() | st.booleans() | st.integers(-5, 4000) | st.sampled_from(
    [*data.CARDS, *data.EQUIPMENT, "ana", "ben", "chai", "dao", "eli", "zed", "turn", ""]) | st.text(max_size=8)
ARGS = st.dictionaries(st.sampled_from(["card", "target", "seconds", "name", "at_seconds", "extra"]), VALUES,
                       max_size=3)


@settings(max_examples=300, deadline=None)
@given(seed=st.integers(0, 10_000), moves=st.integers(0, 150), move=st.sampled_from([*GAME.moves, "nope"]),
       by=st.sampled_from(SENDERS), args=ARGS, timer=st.sampled_from([0, 30]))
def test_any_input_is_accepted_or_refused_with_a_reason_and_a_refusal_changes_nothing(
    seed: int, moves: int, move: str, by: str, args: dict[str, Any], timer: int
) -> None:
    rnd = random.Random(seed)
    state = initial(GAME, setup(5, seed, turn_seconds=timer))
    for n in range(moves):
        inp = bot.BOT(state, rnd, 1000 * (n + 1))
        if inp is None:
            break
        state = step(GAME, state, inp)
    before = copy_state(state)
    try:
        after = step(GAME, state, Input(move, by, args, 10_000_000))
    except Rejected as reason:
        assert reason.code in i18n.msgids("en"), reason.code
        assert state == before
        return
    assert state == before  # the caller's state is never touched
    for p in after["people"].values():
        assert 1 <= p["scene"] <= data.SCENES and p["hand"] >= 0
    assert after["deck"] + after["drawn"] == data.deck().size


@settings(max_examples=200, deadline=None)
@given(seed=st.integers(0, 10_000), moves=st.integers(0, 150), kind=st.sampled_from(["card", "room", "player"]),
       token=st.sampled_from([*data.CARDS, *data.EQUIPMENT, "x"]), actor=st.sampled_from([*SENDERS[3:], "table"]))
def test_a_tapped_token_means_an_input_the_referee_accepts_or_nothing(
    seed: int, moves: int, kind: str, token: str, actor: str
) -> None:
    rnd = random.Random(seed)
    state = initial(GAME, setup(5, seed))
    for n in range(moves):
        inp = bot.BOT(state, rnd, 1000 * (n + 1))
        if inp is None:
            break
        state = step(GAME, state, inp)
    if state["ended"]:
        return
    meant = GAME.on_token(state, kind, token, actor)
    if meant is None:
        return
    by = actor if actor.startswith("player:") and actor != "player:zed" else None
    assert by is not None
    move, args = meant
    try:
        step(GAME, state, Input(move, by, args, 10_000_000))
    except Rejected as reason:  # only an empty hand may refuse what a tapped card means
        assert reason.code in ("reject.jailbreak_empty_hand", "reject.jailbreak_key_limit",
                               "reject.jailbreak_last_scene", "reject.jailbreak_bible_already"), reason.code
