"""Betrayal as lines: a player's explorer, and once the haunt starts their side and its goals, which
each side sees alone (B3.3). The goals come in the haunt file's three languages; the line's `goals` param
carries all three and the reader shows its own language (`i18n.translate_line`, the page's `t`)."""

from __future__ import annotations

from typing import Any

from companion.core.lines import Lines


def private_lines(private: dict[str, Any]) -> Lines:
    out: Lines = []
    if private.get("character") is not None:
        out.append(("summary.betrayal.your_character",
                    {"character": f"kind.betrayal.character.{private['character']}"}))
    if private.get("side") is not None:
        out.append(("summary.betrayal.your_side", {"side": f"kind.betrayal.side.{private['side']}"}))
    goals = private.get("goals")
    if goals:
        out.append(("summary.betrayal.your_goals", {"goals": dict(goals)}))
    return out


def public_lines(public: dict[str, Any]) -> Lines:
    """The haunt, once it has begun (its title is public; the goals are not)."""
    haunt = (public.get("table") or {}).get("haunt")
    if not haunt:
        return [("summary.betrayal.no_haunt", {})] if public.get("table") else []
    return [("summary.betrayal.haunt", {"title": haunt["title"]})]
