"""Coin toss as lines: the scores for everyone, a player's own lucky side for that player alone."""

from __future__ import annotations

from typing import Any

from companion.core.lines import Lines


def public_lines(public: dict[str, Any]) -> Lines:
    table = public.get("table") or {}
    return [("summary.coin_toss.tosses", {"count": table.get("tosses", 0)})]


def private_lines(private: dict[str, Any]) -> Lines:
    return [("summary.coin_toss.lucky", {"side": f"kind.coin_toss.side.{private['lucky']}"})]
