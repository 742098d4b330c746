"""The names closest to a mistyped one, for "did you mean ...?"."""

from __future__ import annotations

import difflib
from collections.abc import Iterable

CUTOFF = 0.6  # difflib's ratio: one slip of the finger in a name of four letters or more stays above it
MOST = 3


def nearest(word: str, names: Iterable[str]) -> list[str]:
    """The `names` closest to `word`, closest first, case ignored; none when nothing is close."""
    by_key: dict[str, str] = {}
    for name in names:
        by_key.setdefault(name.casefold(), name)
    found = difflib.get_close_matches(word.casefold(), list(by_key), n=MOST, cutoff=CUTOFF)
    return [by_key[key] for key in found]
