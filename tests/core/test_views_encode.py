"""`encode_sharing` gives the same bytes as `encode`, however views share their values.

Every seat's view is the public view's values plus its own; the phones must get the same JSON as
before the public part was serialized once for all (docs/performance.md, "Pi Zero 2 W budget").
"""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from companion.table.views import encode, encode_sharing

json_values: st.SearchStrategy[Any] = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), st.text(max_size=5)),
    lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=3), inner, max_size=3)),
    max_leaves=10)
views = st.dictionaries(st.text(max_size=6), json_values, max_size=6)


@given(views, st.lists(views, min_size=1, max_size=4))
def test_views_built_on_a_public_view_encode_as_each_alone(public: dict[str, Any],
                                                           own: list[dict[str, Any]]) -> None:
    parts: dict[str, tuple[Any, bytes]] = {}
    assert encode_sharing(public, parts) == encode(public)
    for extra in own:
        view = {**public, **extra}  # shares the public view's value objects, like audience_view
        assert encode_sharing(view, parts) == encode(view)


@given(views)
def test_a_value_changed_under_the_same_key_is_encoded_anew(view: dict[str, Any]) -> None:
    parts: dict[str, tuple[Any, bytes]] = {}
    encode_sharing(view, parts)
    other = {k: [v] for k, v in view.items()}  # new objects under the same keys
    assert encode_sharing(other, parts) == encode(other)


@given(views, st.lists(views, min_size=1, max_size=4))
def test_a_players_own_part_kept_apart_encodes_as_the_view_alone(public: dict[str, Any],
                                                                 own: list[dict[str, Any]]) -> None:
    """A seat's own values encoded in its own `mine` (kept from one change to the next with that part,
    companion/table/views.py), whatever the shared parts hold under the same keys."""
    parts: dict[str, tuple[Any, bytes]] = {}
    encode_sharing(public, parts)
    for extra in own:
        mine: dict[str, tuple[Any, bytes]] = {k: (object(), b"") for k in extra}
        view = {**public, **extra}
        assert encode_sharing(view, parts, mine) == encode(view)
        assert encode_sharing(view, parts, mine) == encode(view)  # again, from what `mine` now holds
