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

from dataclasses import asdict, dataclass, field, is_dataclass
from typing import Any, Literal

FieldKind = Literal["choice", "choices", "subset", "number", "text", "texts", "path", "confirm"]


@dataclass(frozen=True)
class Choice:
    value: Any
    label: str  # a message id, or a plain proper name (a player's name) when `plain` is set
    params: dict[str, Any] = field(default_factory=dict)
    plain: bool = False
    group: str = ""  # a message id heading the choice's group in a long list (a building's floor), or ""
    group_params: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"value": _plain(self.value), "label": self.label, "params": _plain(self.params),
                "plain": self.plain, "group": self.group, "group_params": _plain(self.group_params)}


@dataclass(frozen=True)
class Field:
    """One argument of the move.

    ``choice``: one of `choices`; ``choices``: an ordered list of `count` of them (a programmed pair,
    a path of rooms: `min`/`max` bound the length); ``subset``: some of `choices`, each at most once, in
    their order (`min`..`max` of them: a vote's candidates); ``number``: an int in `min`..`max`; ``text``:
    a short string (its `choices`, if any, are suggested values a touch screen offers instead of typing);
    ``texts``: a list of `min`..`max` short strings, typed; ``path``: like ``choices`` but the renderer
    may draw it on the game's map; ``confirm``: no value, the button itself.

    A ``path`` may narrow each step to what the game accepts: `first` lists the values of the first step,
    `after[v]` the values of a step after `v` (keys are the values as strings); without `first` any
    choice goes. A path must not end at `start` (where it starts) when `start` is set, so its last step
    never offers `start`.

    `distinct`: a ``choices`` field whose choices may each be picked at most once (cards: one card is
    given, dropped or declared once; two choices of one value, two cards of a kind, take two picks); a
    path may pass a room again, so it repeats unless this is set.
    """

    name: str
    kind: FieldKind
    label: str
    choices: tuple[Choice, ...] = ()
    min: int | None = None
    max: int | None = None
    default: Any = None
    start: Any = None
    first: tuple[Any, ...] | None = None
    after: dict[str, tuple[Any, ...]] = field(default_factory=dict)
    distinct: bool = False

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "kind": self.kind, "label": self.label,
                "choices": tuple(c.to_json() for c in self.choices), "min": self.min, "max": self.max,
                "default": _plain(self.default), "start": _plain(self.start), "first": _plain(self.first),
                "after": _plain(self.after), "distinct": self.distinct}


@dataclass(frozen=True)
class Prompt:
    move: str
    label: str
    fields: tuple[Field, ...] = ()
    params: dict[str, Any] = field(default_factory=dict)
    fixed: dict[str, Any] = field(default_factory=dict)  # args sent as they are (e.g. the ballot's name)
    summed: tuple[str, ...] = ()  # number fields that must add up to `total` (genes), shown as a running sum
    total: int | None = None

    def to_json(self) -> dict[str, Any]:
        """The prompt as plain data, equal to `dataclasses.asdict(self)` (tuples stay tuples, values are
        copies), written out field by field: `asdict` was about 40 % of the table's time under load
        (docs/performance.md, "Pi Zero 2 W budget")."""
        return {"move": self.move, "label": self.label, "fields": tuple(f.to_json() for f in self.fields),
                "params": _plain(self.params), "fixed": _plain(self.fixed), "summed": tuple(self.summed),
                "total": self.total}


_ATOMS = (str, int, float, bool, type(None))


def _plain(value: Any) -> Any:
    """A copy of a JSON-like value as `asdict` makes it (containers copied, atoms shared)."""
    kind = type(value)
    if kind in _ATOMS:
        return value
    if kind is dict:
        return {k: _plain(v) for k, v in value.items()} if value else {}
    if kind is tuple:
        return tuple(_plain(v) for v in value) if value else ()
    if kind is list:
        return [_plain(v) for v in value]
    if is_dataclass(value) and not isinstance(value, type):
        return asdict(value)
    return _plain_subclass(value)


def _plain_subclass(value: Any) -> Any:
    """`_plain` of a subclass of a container or an atom (rare): the same copy, by isinstance."""
    if isinstance(value, dict):
        return type(value)((k, _plain(v)) for k, v in value.items())
    if isinstance(value, (list, tuple)) and not hasattr(value, "_fields"):
        return type(value)(_plain(v) for v in value)
    return value


def next_steps(f: dict[str, Any], picks: list[Any]) -> list[Any]:
    """The values a ``choices``/``path`` field (as JSON) offers after `picks`, in the field's order."""
    choices = f.get("choices", [])
    return [choices[i]["value"] for i in offered_choices(f, picks)]


def offered_choices(f: dict[str, Any], picks: list[Any]) -> list[int]:
    """The indices of the choices a ``choices``/``path`` field offers after `picks` (js/steps.js, nextSteps).
    A `distinct` field's choice is used up by a pick of its value, first choices first, so two choices
    worth "food" (two food cards) take two picks of "food"."""
    if f.get("max") is not None and len(picks) >= int(f["max"]):
        return []
    values = [ch["value"] for ch in f.get("choices", [])]
    free = list(range(len(values)))
    if f.get("distinct"):
        left = list(picks)
        free = []
        for i, v in enumerate(values):
            if v in left:
                left.remove(v)
            else:
                free.append(i)
    if f.get("first") is None:
        return free
    allowed = f["first"] if not picks else (f.get("after") or {}).get(str(picks[-1]), [])
    last = f.get("max") is not None and len(picks) + 1 == int(f["max"])
    return [i for i in free if values[i] in allowed and not (last and f.get("start") is not None
                                                             and values[i] == f["start"])]


def path_ready(f: dict[str, Any], picks: list[Any]) -> bool:
    """Whether a ``choices``/``path`` field's picks may be sent: long enough, not ending where it starts."""
    least = f.get("min")
    if len(picks) < (1 if least is None else int(least)):
        return False
    return not (picks and f.get("start") is not None and picks[-1] == f["start"])


def running_sum(prompt: dict[str, Any], values: dict[str, Any]) -> tuple[int, int] | None:
    """A prompt's (as JSON) running sum of its `summed` fields and the total they must reach, or None."""
    if prompt.get("total") is None or not prompt.get("summed"):
        return None
    return sum(int(values.get(name) or 0) for name in prompt["summed"]), int(prompt["total"])
