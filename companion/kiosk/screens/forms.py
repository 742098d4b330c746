"""Prompts as touch forms: a game's `prompts` (companion/core/prompts.py) drawn as buttons.

``choice``: a button per choice; ``choices``/``path``: tap choices in order (up to `max`), each step
offering only what the field allows after the steps so far (`prompts.next_steps`), with "take back the
last step"; ``subset``: each choice a toggle (a vote's candidates); ``number``: minus and plus around
the value (and bigger steps for a wide range); ``confirm``: the send button alone; ``text``: its
suggested values by touch, else not typed on a touch screen (the form says to type it on the host's
phone), as a ``texts`` list always is. Submitting sends the prompt's move with its
`fixed` args and the chosen values. How a form is laid out in pages on the booth: form_layout.py.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from companion import i18n
from companion.core.prompts import offered_choices, path_ready, running_sum


@dataclass
class FormState:
    prompt: dict[str, Any]
    values: dict[str, Any] = field(default_factory=dict)
    opened: str | None = None  # the field whose list fills the form (when the form has several fields)
    group: str | None = None  # the group of choices opened in that list (a floor), if any
    page: int = 0  # the page of that list
    rows_page: int = 0  # the page of the form's rows, when they do not fit in one

    def __post_init__(self) -> None:
        for f in self.prompt.get("fields", []):
            if f["kind"] in ("choices", "path", "subset", "texts"):
                self.values[f["name"]] = list(f.get("default") or [])
            elif f["kind"] == "number":
                self.values[f["name"]] = f.get("default") if f.get("default") is not None else (f.get("min") or 0)
            elif f.get("default") is not None:
                self.values[f["name"]] = f["default"]

    def fields(self) -> list[dict[str, Any]]:
        return list(self.prompt.get("fields", []))

    def field_named(self, field_name: str) -> dict[str, Any]:
        return next(f for f in self.fields() if f["name"] == field_name)

    def offered(self, field_name: str) -> list[dict[str, Any]]:
        """The choices a tap may pick now: for a sequence, only the steps allowed after those so far."""
        f = self.field_named(field_name)
        if f["kind"] not in ("choices", "path"):
            return list(f.get("choices", []))
        choices = f.get("choices", [])
        return [choices[i] for i in offered_choices(f, list(self.values.get(field_name) or []))]

    def choose(self, field_name: str, value: Any) -> None:
        f = self.field_named(field_name)
        if f["kind"] in ("choices", "path"):
            if any(ch["value"] == value for ch in self.offered(field_name)):
                self.values.setdefault(field_name, []).append(value)
        elif f["kind"] == "subset":  # a toggle; the list stays open for the next one
            chosen = self.values.setdefault(field_name, [])
            if value in chosen:
                chosen.remove(value)
            else:
                order = [ch["value"] for ch in f.get("choices", [])]
                chosen[:] = [v for v in order if v in chosen or v == value]
            return
        else:
            self.values[field_name] = value
            self.opened = None
        self.group, self.page = None, 0

    def take_back(self, field_name: str) -> None:
        """Undo the last step of a sequence."""
        chosen = self.values.get(field_name) or []
        if chosen:
            chosen.pop()
        self.group, self.page = None, 0

    def clear(self, field_name: str) -> None:
        self.values[field_name] = []

    def bump(self, field_name: str, delta: int) -> None:
        f = next(f for f in self.fields() if f["name"] == field_name)
        value = int(self.values.get(field_name) or 0) + delta
        if f.get("min") is not None:
            value = max(int(f["min"]), value)
        if f.get("max") is not None:
            value = min(int(f["max"]), value)
        self.values[field_name] = value

    def complete(self) -> bool:
        for f in self.fields():
            value = self.values.get(f["name"])
            if f["kind"] == "choice" and f["name"] not in self.values:  # a choice worth None is a choice
                return False
            if f["kind"] in ("choices", "path") and not path_ready(f, list(value or [])):
                return False
            if f["kind"] == "text" and not (isinstance(value, str) and value.strip()):
                return False
            if f["kind"] in ("subset", "texts") and not within(f, len(value or [])):
                return False
        adds = running_sum(self.prompt, self.values)
        return adds is None or adds[0] == adds[1]

    def input(self, by: str) -> dict[str, Any]:
        args = {**self.prompt.get("fixed", {})}
        for f in self.fields():
            if f["kind"] != "confirm":
                args[f["name"]] = self.values.get(f["name"])
        return {"by": by, "move": self.prompt["move"], "args": args}


def within(f: dict[str, Any], n: int) -> bool:
    """Whether `n` items fit a ``subset``/``texts`` field's bounds."""
    return (f.get("min") is None or n >= int(f["min"])) and (f.get("max") is None or n <= int(f["max"]))


def label(lang: str, item: dict[str, Any]) -> str:
    """A prompt's, field's or choice's words: a proper name as it is, else its message id translated
    (a param given in every language, such as a deal's roles, in `lang`)."""
    if item.get("plain"):
        return str(item["label"])
    return i18n.translate_line(lang, str(item["label"]), item.get("params") or {})


#: What `value_text` is handed for a field nothing was chosen for yet (None may be a choice's value:
#: "no ranking", "everyone").
UNCHOSEN = object()


def value_text(lang: str, f: dict[str, Any], value: Any) -> str:
    """How a chosen value reads: the label of its choice when it has one; "—" for `UNCHOSEN`."""
    by_value = {repr(ch["value"]): ch for ch in f.get("choices", [])}

    def one(v: Any) -> str:
        ch = by_value.get(repr(v))
        return label(lang, ch) if ch is not None else str(v)

    if f["kind"] in ("choices", "path", "subset", "texts"):
        joined = ", " if f["kind"] in ("subset", "texts") else " → "
        return joined.join(one(v) for v in value) if value and value is not UNCHOSEN else "—"
    return "—" if value is UNCHOSEN or (value is None and repr(None) not in by_value) else one(value)


def sum_text(lang: str, form: FormState) -> str | None:
    """The running sum of a form whose numbers must add up (genes), and what is left or too many; None
    when the form has no such sum. Until they add up the words say that Send waits for it."""
    adds = running_sum(form.prompt, form.values)
    if adds is None:
        return None
    got, total = adds
    if got == total:
        return i18n.translate(lang, "kiosk.form.sum_ok", {"sum": got, "total": total})
    if got < total:
        return i18n.translate(lang, "kiosk.form.sum_short", {"sum": got, "total": total, "left": total - got})
    return i18n.translate(lang, "kiosk.form.sum_over", {"sum": got, "total": total, "over": got - total})


Pick = Callable[[], None]
