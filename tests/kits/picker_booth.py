"""The booth's side of the choice checks (tests/kits/picker_checks.py): a prompt's form filled by tapping
the buttons of `companion.kiosk.screens.form_layout` at 800x480, page by page and group by group, as a
player at the booth would, never reaching into the form's state past what a tap does."""

from __future__ import annotations

import json
from typing import Any

import pygame

from companion.kiosk.layout import Layout
from companion.kiosk.screens.form_layout import lay_out
from companion.kiosk.screens.forms import FormState

BOOTH = Layout(800, 480)
BOOTH_AREA = pygame.Rect(340, 136, 420, 272)  # the booth's form panel at 800x480 (screens/booth.py)


def _tap(form: FormState, key: Any) -> bool:
    """Tap the booth's button `key`, turning pages and opening groups until it shows; False if never."""
    todo, seen = [(form.group, form.page)], set()
    while todo:
        where = todo.pop()
        if where in seen:
            continue
        seen.add(where)
        form.group, form.page = where
        buttons = {b.key: b for b in lay_out(form, BOOTH_AREA, BOOTH, "en", lambda: None).buttons}
        assert all(BOOTH_AREA.contains(b.rect) for b in buttons.values()), "a button outside the form panel"
        if key in buttons:
            buttons[key].action()
            return True
        for k, b in buttons.items():
            if isinstance(k, tuple) and k[0] in ("group", "more", "previous", "groups"):
                b.action()  # what this page leads to: another page, a group, the groups
                todo.append((form.group, form.page))
                form.group, form.page = where
    return False


def on_booth(prompt: dict[str, Any], args: dict[str, Any]) -> bool:
    """Whether tapping the booth's buttons fills the prompt's form with these args and lets it be sent."""
    form = FormState(prompt)
    several = len([f for f in prompt["fields"] if f["kind"] != "confirm"]) > 1
    for f in prompt["fields"]:
        name = f["name"]
        value_: Any = args.get(name)
        if f["kind"] == "text":
            return True  # typed on the phone (the booth says so)
        if f["kind"] in ("choice", "choices", "path"):
            index = {json.dumps(c["value"], sort_keys=True): i for i, c in enumerate(f["choices"])}
            for v in (value_ if f["kind"] != "choice" else [value_]):
                if several and form.opened != name and not _tap(form, ("open", name)):
                    return False
                if not _tap(form, ("choice", name, index[json.dumps(v, sort_keys=True)])):
                    return False
            form.opened, form.group, form.page = None, None, 0
        elif f["kind"] == "number":
            form.bump(name, int(value_) - int(form.values[name]))  # its row's + and -, stopped at the range's ends
            if form.values[name] != value_:
                return False
    return form.complete() and form.input("x")["args"] == args


