"""What a view says, as message-id lines: pure functions, no pygame, shared by the kiosk and the phones.

`private_lines(game, private)` turns ONE player's private view into lines; `public_lines(game, public)`
turns the public view into a short summary of the table. A line is ``(msgid, params)``; a param that is
itself a ``kind.*`` id is shown translated (`companion.i18n.translate`, the page's `t`). Each function
reads only the view it is given, so a seat's lines can hold nothing but that seat's own view.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from companion import i18n
from companion.summaries import betrayal, jailbreak, lab_escape, lockdown, room25, toolkit
from companion.summaries.lines import Lines

PrivateFn = Callable[[dict[str, Any]], Lines]
PublicFn = Callable[[dict[str, Any]], Lines]

PRIVATE: dict[str, PrivateFn] = {
    "toolkit": toolkit.private_lines, "room25": room25.private_lines, "lockdown": lockdown.private_lines,
    "jailbreak": jailbreak.private_lines, "betrayal": betrayal.private_lines,
    "lab_escape": lab_escape.private_lines,
}
#: The games' public summaries for the phones (the toolkit's table the page draws section by section).
PUBLIC: dict[str, PublicFn] = {
    "room25": room25.public_lines, "lockdown": lockdown.public_lines, "jailbreak": jailbreak.public_lines,
    "betrayal": betrayal.public_lines, "lab_escape": lab_escape.public_lines,
}
#: Games whose private view the phone page draws itself, part by part (docs/phones.md).
PAGE_DRAWS_PRIVATE = frozenset({"toolkit"})

__all__ = ["PRIVATE", "PUBLIC", "Lines", "as_json", "private_lines", "public_lines", "translate"]


def private_lines(game: str, private: dict[str, Any] | None) -> Lines:
    fn = PRIVATE.get(game)
    return fn(private) if fn is not None and private else []


def public_lines(game: str, public: dict[str, Any]) -> Lines:
    fn = PUBLIC.get(game)
    return fn(public) if fn is not None else []


def as_json(lines: Lines) -> list[dict[str, Any]]:
    """Lines as the phones get them: ``[{"msg": id, "params": {...}}]``."""
    return [{"msg": msgid, "params": params} for msgid, params in lines]


def translate(lang: str, msgid: str, params: dict[str, Any]) -> str:
    """A line's text in `lang`: like `i18n.translate`, and a param that a game's data file gives in every
    language (``{"en": ..., "zh": ..., "th": ...}``, a Betrayal side's goals) shows `lang`'s text, as
    the phone page's `t` does."""
    shown = {key: (value.get(lang) or value.get(i18n.FALLBACK, "")) if isinstance(value, dict) else value
             for key, value in params.items()}
    return i18n.translate(lang, msgid, shown)
