"""Results as the hall gets them: built by the table's `result_payload` and read back by the hall's
`parse_result` (companion/hall/protocol.py), so league tests use exactly what crosses the bridge."""

from __future__ import annotations

import hashlib
from typing import Any

from companion.hall.protocol import parse_result, result_payload


def result(table: str, number: int, game: str, ranking: list[list[str]], *, points: dict[str, int] | None = None,
           stopped: bool = False, players: list[str] | None = None, key: str | None = None) -> dict[str, Any]:
    """A parsed result of game `number` at `table`; players default to those ranked, named by id."""
    ids = players if players is not None else [pid for group in ranking for pid in group]
    key = key or hashlib.sha256(f"{table}/{number}".encode()).hexdigest()[:16]
    payload = result_payload(table=table, key=key, number=number, game=game,
                             players=[{"id": pid, "name": pid.title()} for pid in ids], ranking=ranking,
                             points=points, stopped=stopped, finished_ms=1_700_000_000_000 + number)
    return parse_result(payload, table)
