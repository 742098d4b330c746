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
                           "tables": st.lists(names, max_size=3) | json_values}).map(lambda v: json.dumps(v).encode()),
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
    game = GAMES[request.game]
    assert set(request.present) <= ROSTER and len(set(request.present)) == len(request.present)
    assert set(request.tables) <= TABLES and len(set(request.tables)) == len(request.tables)
    assert len(request.present) >= game["low"]
    assert len(request.tables) >= math.ceil(len(request.present) / game["high"])
