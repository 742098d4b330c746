"""The organiser's seating request, checked field by field: whatever the body, the answer is either a
request every field of which is right, or a refusal with a message id the catalogs translate."""

from __future__ import annotations

import json
import math
import re

from hypothesis import given
from hypothesis import strategies as st

from companion import i18n
from companion.hall.pages.seating_request import Refused, parse

GAMES = {"lockdown": {"low": 2, "high": 9}, "room25": {"low": 4, "high": 6}}
ROSTER = {"ana-1a", "ben-2b", "cai-3c", "dao-4d", "eli-5e"}
TABLES = {"t1", "t2"}
names = st.sampled_from(sorted(ROSTER | TABLES | {"zed", "", "t9"}))
json_values = st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=8),
                           lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner,
                                                                                        max_size=4), max_leaves=12)
bodies = st.one_of(
    st.binary(max_size=64),
    json_values.map(lambda v: json.dumps(v).encode()),
    st.fixed_dictionaries({"game": st.sampled_from(["lockdown", "room25", "chess", 3]),
                           "present": st.lists(names, max_size=7) | json_values,
                           "tables": st.lists(names, max_size=3) | json_values},
                          optional={"table_games": json_values | st.dictionaries(
                              names, st.sampled_from(["lockdown", "room25", "chess"]), max_size=2)}
                          ).map(lambda v: json.dumps(v).encode()),
)


@given(bodies)
def test_a_request_is_right_in_every_field_or_refused_in_words(body: bytes) -> None:
    try:
        request = parse(body, GAMES, ROSTER, TABLES)
    except Refused as refused:
        assert all(refused.code in i18n.msgids(lang) for lang in i18n.LANGUAGES)
        for lang in i18n.LANGUAGES:  # every placeholder of its message is filled
            assert set(re.findall(r"\{(\w+)\}", i18n.translate(lang, refused.code))) == set(refused.params)
        return
    assert set(request.table_games) <= set(request.tables) and request.game not in request.table_games.values()
    played = [GAMES[g] for g in {request.game, *request.table_games.values()}]  # pods fit every game played
    low, high = max(g["low"] for g in played), min(g["high"] for g in played)
    assert set(request.present) <= ROSTER and len(set(request.present)) == len(request.present)
    assert set(request.tables) <= TABLES and len(set(request.tables)) == len(request.tables)
    assert len(request.present) >= low
    assert len(request.tables) >= math.ceil(len(request.present) / high)


def test_a_table_of_the_round_may_play_another_game() -> None:
    """Lockdown at t1, Room 25 at t2: tables of 4 to 6 (what both games take); a game the hall does not
    know, or a table not in the round, is refused."""
    body = {"game": "lockdown", "present": ["ana-1a", "ben-2b", "cai-3c", "dao-4d"],
            "tables": ["t1", "t2"], "table_games": {"t2": "room25", "t1": "lockdown"}}
    request = parse(json.dumps(body).encode(), GAMES, ROSTER, TABLES)
    assert (request.game, request.table_games) == ("lockdown", {"t2": "room25"})
    for pods, ok in (([4, 6], True), ([2, 6], False), ([4, 9], False)):
        try:
            assert parse(json.dumps({**body, "pods": pods}).encode(), GAMES, ROSTER, TABLES).pods == tuple(pods)
            assert ok
        except Refused as refused:
            assert not ok and refused.code == "hall.reject.bad_pods" and refused.params == {"low": 4, "high": 6}
    for wrong, code in (({"t2": "chess"}, "hall.reject.unknown_game"), ({"t9": "room25"}, "hall.reject.bad_request"),
                        (["t2"], "hall.reject.bad_request")):
        try:
            parse(json.dumps({**body, "table_games": wrong}).encode(), GAMES, ROSTER, TABLES)
            raise AssertionError(f"{wrong} was taken")
        except Refused as refused:
            assert refused.code == code
