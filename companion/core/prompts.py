"""Prompts: the private inputs a game offers one sender right now, declared as data.

A game's `prompts(state, actor)` returns what `actor` (``host`` or ``player:<id>``) may do now, as a
list of `Prompt`. The phone page and the kiosk's booth render them as forms (a vote, a choice, a
number, a path on a map, a programmed action) without knowing the game; submitting a form sends the
prompt's `move` with the fields as its args. Prompts go only into the view of the actor they are for,
so a prompt may name secret things (the player's own items, the choices of a secret vote).

Everything a player reads is a message id (``label``, a choice's ``label``) translated by the
screen, with ``params`` to fill it; values are what the move's args expect.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, Literal

FieldKind = Literal["choice", "choices", "number", "text", "path", "confirm"]


@dataclass(frozen=True)
class Choice:
    value: Any
    label: str  # a message id, or a plain proper name (a player's name) when `plain` is set
    params: dict[str, Any] = field(default_factory=dict)
    plain: bool = False


@dataclass(frozen=True)
class Field:
    """One argument of the move.

    ``choice``: one of `choices`; ``choices``: an ordered list of `count` of them (a programmed pair,
    a path of rooms: `min`/`max` bound the length); ``number``: an int in `min`..`max`; ``text``: a
    short string; ``path``: like ``choices`` but the renderer may draw it on the game's map;
    ``confirm``: no value, the button itself.
    """

    name: str
    kind: FieldKind
    label: str
    choices: tuple[Choice, ...] = ()
    min: int | None = None
    max: int | None = None
    default: Any = None


@dataclass(frozen=True)
class Prompt:
    move: str
    label: str
    fields: tuple[Field, ...] = ()
    params: dict[str, Any] = field(default_factory=dict)
    fixed: dict[str, Any] = field(default_factory=dict)  # args sent as they are (e.g. the ballot's name)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)
