"""`Prompt.to_json`, written out field by field for speed, is exactly what `dataclasses.asdict` gives.

The phones read prompts as this data (docs/phones.md); the explicit version exists because `asdict`
was the largest part of the table's time under load (docs/performance.md, "Pi Zero 2 W budget").
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.core.prompts import Choice, Field, Prompt

atoms = st.one_of(st.none(), st.booleans(), st.integers(-5, 50), st.text(max_size=6))
values: st.SearchStrategy[Any] = st.recursive(
    atoms, lambda inner: st.one_of(st.lists(inner, max_size=3), st.tuples(inner, inner),
                                   st.dictionaries(st.text(max_size=4), inner, max_size=3)), max_leaves=4)
params = st.dictionaries(st.text(max_size=3), values, max_size=2)
choices = st.builds(Choice, value=values, label=st.text(max_size=8), params=params, plain=st.booleans(),
                    group=st.text(max_size=4), group_params=params)
fields = st.builds(
    Field, name=st.text(max_size=6), kind=st.sampled_from(["choice", "choices", "number", "text", "path", "confirm"]),
    label=st.text(max_size=8), choices=st.lists(choices, max_size=2).map(tuple),
    min=st.none() | st.integers(0, 9), max=st.none() | st.integers(0, 9), default=values, start=values,
    first=st.none() | st.lists(values, max_size=3).map(tuple),
    after=st.dictionaries(st.text(max_size=3), st.lists(values, max_size=3).map(tuple), max_size=3))
prompts = st.builds(Prompt, move=st.text(max_size=8), label=st.text(max_size=8),
                    fields=st.lists(fields, max_size=2).map(tuple), params=params, fixed=params,
                    summed=st.lists(st.text(max_size=4), max_size=3).map(tuple), total=st.none() | st.integers(0, 30))


SLOW_TO_DRAW = settings(suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@SLOW_TO_DRAW
@given(prompts)
def test_to_json_is_asdict(prompt: Prompt) -> None:
    got = prompt.to_json()
    assert got == asdict(prompt)
    assert list(got) == list(asdict(prompt))  # same keys, same order


@SLOW_TO_DRAW
@given(prompts)
def test_to_json_is_a_copy(prompt: Prompt) -> None:
    """Changing what `to_json` gave does not change the prompt (views are shared, prompts reused)."""
    before = asdict(prompt)
    got = prompt.to_json()
    got["params"]["x"] = 1
    for f in got["fields"]:
        f["after"]["x"] = ()
    assert asdict(prompt) == before
