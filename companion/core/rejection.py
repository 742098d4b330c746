"""A rejected input: a typed, translatable reason. Raising it changes nothing."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


class Rejected(Exception):
    """Raised by validation or a move when an input is not allowed.

    `code` is a message id in the catalogs (``reject.<something>``); `params` fill its placeholders.
    Params must never carry a secret: a rejection is shown to the sender and may be logged.
    """

    def __init__(self, code: str, **params: Any) -> None:
        super().__init__(code)
        self.code = code
        self.params: Mapping[str, Any] = params

    def to_json(self) -> dict[str, Any]:
        return {"code": self.code, "params": dict(self.params)}

    def __str__(self) -> str:
        if not self.params:
            return self.code
        inner = ", ".join(f"{k}={v!r}" for k, v in sorted(self.params.items()))
        return f"{self.code} ({inner})"
