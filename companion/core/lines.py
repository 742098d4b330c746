"""What a view says in words: message ids with their params, as the booth and the phones show them.

A game turns its views into lines (`Game.public_lines`, `Game.private_lines`); a param that is itself a
``kind.*`` id is shown translated (`companion.i18n.translate_line`, the phone page's `t`).
"""

from __future__ import annotations

from typing import Any

Lines = list[tuple[str, dict[str, Any]]]


def clock_text(ms: int) -> str:
    """Remaining time as m:ss (h:mm:ss past an hour), rounded up so 0:00 means "ran out"."""
    seconds = -(-max(0, ms) // 1000)
    h, rest = divmod(seconds, 3600)
    m, s = divmod(rest, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"


def as_json(lines: Lines) -> list[dict[str, Any]]:
    """Lines as the phones get them: ``[{"msg": id, "params": {...}}]``."""
    return [{"msg": msgid, "params": params} for msgid, params in lines]
