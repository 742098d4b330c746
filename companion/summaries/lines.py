"""The shape of a summary: message ids with their params."""

from __future__ import annotations

from typing import Any

Lines = list[tuple[str, dict[str, Any]]]


def clock_text(ms: int) -> str:
    """Remaining time as m:ss (h:mm:ss past an hour), rounded up so 0:00 means "ran out"."""
    seconds = -(-max(0, ms) // 1000)
    h, rest = divmod(seconds, 3600)
    m, s = divmod(rest, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"
