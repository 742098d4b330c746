"""The code of a part's refusal, for the table tests of companion/parts (tests/test_parts_*.py)."""

from __future__ import annotations

from typing import Any

import pytest

from companion.core.rejection import Rejected


def code_of(fn: Any, *args: Any) -> str:
    with pytest.raises(Rejected) as err:
        fn(*args)
    return err.value.code
