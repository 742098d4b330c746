"""A touch form laid out to fit the booth's form panel on an 800x480 screen (issue 21).

With one list field (a vote, a path) the list fills the panel. With several fields each has a row: its
name and value, with minus and plus for a number or "Choose" that opens a list. A list shows 9 large
buttons a page, with "more" and "back" when it is longer; a list longer than a page whose choices have
groups (a building's floor) shows the groups first. A sequence (a path) has "take back the last step";
a subset (a vote's candidates) toggles its choices; a ``distinct`` sequence whose choices repeat a value
(two cards of one kind) has one button for it, saying how many are left ("Pill ×2", issue 31). Rows that
do not fit come in pages (More/Back). A
typed field (a ``texts`` list, a ``text`` without suggestions) has its line and "type it on the host's
phone" (an on-screen keyboard is another screen's work).
A list whose choices have long labels (a role preset: "Avalon for 7: Merlin ×1, Assassin ×1, ...") shows
them one a row, the whole width, 3 a page, so each reads at 16 px or more (issue 28). A field's line (its
name and chosen value) wraps in its box at 14 px and is cut with "…" only when even that does not fit
(`draw_line`; the list's own head, whose chosen value is the lit button under it).
Everything stays inside `area`, so the line under it (the booth's answer) never covers a button or label.
"""

from __future__ import annotations

import collections
import functools
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pygame

from companion import i18n
from companion.drawing import breaks
from companion.drawing.canvas import Canvas
from companion.kiosk.layout import Layout
from companion.kiosk.screens.forms import UNCHOSEN, FormState, label, sum_text, value_text
from companion.kiosk.widgets import Button, Color

COLUMNS, ROWS = 3, 3
PAGE = COLUMNS * ROWS
SHOWN = 3  # steps of a sequence shown in its line
LISTS = ("choice", "choices", "path", "subset")
TARGET_H = 48  # a touch target's height (design units): 48 px on the 7" panel (issue 28)
NAV_SPARE = 4  # how far a list's More/Back row may reach under its area (the booth's answer line is 28 of 32)
#: A choice's label longer than this (in Latin letters; a Chinese character counts two) does not fit a
#: third of a row on two lines at 17 px: its list goes one choice a row (a role preset lists its roles).
LONG_LABEL = 36
LINE_SIZE, LINE_SMALLEST = 16, 14  # a field's line: its size, and the smallest it wraps at (design units)


def letters(text: str) -> int:
    """How many Latin letters wide `text` is, roughly: a wide (CJK) character two, a combining mark none."""
    return sum(0 if breaks.attaches(ch) else 2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def listed(f: dict[str, Any]) -> bool:
    """Whether a field is picked from a list on the booth (a text by its suggested values)."""
    return f["kind"] in LISTS or (f["kind"] == "text" and bool(f.get("choices")))


def steps(f: dict[str, Any]) -> tuple[int, ...]:
    """The steps of a number's buttons: 1, and a bigger one for a wide range (a timer's seconds)."""
    span = (f.get("max") or 0) - (f.get("min") or 0) if f.get("max") is not None and f.get("min") is not None else 0
    return (1, 60) if span >= 600 else (1, 10) if span >= 50 else (1,)


@dataclass
class Laid:
    buttons: list[Button]
    lines: list[tuple[pygame.Rect, str]]  # a field's name and value, drawn as text


#: Opens the on-screen keyboard for a typed field: (the field, what to do with the text typed).
Typing = Callable[[dict[str, Any], Callable[[str], None]], None]


def lay_out(form: FormState, area: pygame.Rect, L: Layout, lang: str, changed: Callable[[], None],
            typing: Typing | None = None) -> Laid:
    """The form's buttons and lines inside `area`; `changed` runs after each tap that changes the form.
    With `typing`, a typed field has a button that opens the on-screen keyboard (a ``texts`` list gains
    one line per text typed, "Clear" empties it); without, its line says to type it on the host's phone."""

    def act(fn: Callable[..., None], *args: Any) -> Callable[[], None]:
        def run() -> None:
            fn(*args)
            changed()
        return run

    fields = [f for f in form.fields() if f["kind"] != "confirm"]
    lists = [f for f in fields if listed(f)]
    if len(fields) == 1 and lists:
        return _list(form, lists[0], area, L, lang, act, closable=False)
    if form.opened is not None:
        return _list(form, form.field_named(form.opened), area, L, lang, act, closable=True)
    out = Laid([], [])
    row_h, gap = L.px(TARGET_H), L.px(8)
    fit = max(1, (area.height + gap) // (row_h + gap))
    per = max(1, len(fields)) if len(fields) <= fit else max(1, fit - 1)  # a row for More/Back when paged
    pages = max(1, -(-len(fields) // per))
    page = min(form.rows_page, pages - 1)
    for i, f in enumerate(fields[page * per:(page + 1) * per]):
        row = pygame.Rect(area.left, area.top + i * (row_h + gap), area.width, row_h)
        text, controls = row.inflate(0, 0), row.inflate(0, 0)
        text.width = row.width * 11 // 20
        if f["kind"] == "number":  # each of its buttons at least a touch target wide (a die's ±1 and ±10)
            n = 2 * len(steps(f))
            text.width = min(text.width, row.width - gap - L.px(n * TARGET_H + (n - 1) * 8))
        controls.width, controls.left = row.width - text.width - gap, text.right + gap
        value = form.values.get(f["name"], UNCHOSEN)
        out.lines.append((text, f"{label(lang, f)}: {value_text(lang, f, value)}"))
        if f["kind"] == "number":
            bumps = [-s for s in reversed(steps(f))] + list(steps(f))
            for rect, delta in zip(L.columns(controls, len(bumps), 8), bumps, strict=True):
                words = ("−" if delta < 0 else "+") + ("" if abs(delta) == 1 else str(abs(delta)))
                key = ("minus" if delta < 0 else "plus", f["name"]) + (() if abs(delta) == 1 else (abs(delta),))
                out.buttons.append(Button(rect, words, act(form.bump, f["name"], delta), key=key))
        elif listed(f):
            out.buttons.append(Button(controls, i18n.translate(lang, "kiosk.form.open"),
                                      act(_open, form, f["name"]), key=("open", f["name"])))
        elif typing is not None:  # typed on the on-screen keyboard
            out.buttons.extend(_typed(form, f, controls, L, lang, act, typing))
        else:  # typed: on the host's phone
            out.lines.append((controls, i18n.translate(lang, "kiosk.form.type_on_phone")))
    if pages > 1:
        nav = L.columns(pygame.Rect(area.left, area.top + per * (row_h + gap), area.width, row_h), 2, 8)
        if page > 0:
            out.buttons.append(Button(nav[0], i18n.translate(lang, "kiosk.form.back"),
                                      act(_rows, form, page - 1), key="rows_back"))
        if page + 1 < pages:
            out.buttons.append(Button(nav[1], i18n.translate(lang, "kiosk.form.more"),
                                      act(_rows, form, page + 1), key="rows_more"))
    adds = sum_text(lang, form)
    if adds is not None:  # under the rows: the running sum, and why Send waits
        top = area.top + min(len(fields), per) * (row_h + gap) - gap + L.px(6)
        out.lines.append((pygame.Rect(area.left, top, area.width, min(L.px(26), area.bottom - top)), adds))
    return out


def _typed(form: FormState, f: dict[str, Any], controls: pygame.Rect, L: Layout, lang: str,
           act: Callable[..., Callable[[], None]], typing: Typing) -> list[Button]:
    """A typed field's buttons: Type (the keyboard), and for a ``texts`` list, Clear."""
    name = f["name"]

    def typed(text: str) -> None:
        if f["kind"] == "texts":
            form.values[name] = [*(form.values.get(name) or []), text][: f.get("max") or None]
        else:
            form.values[name] = text

    def open_keyboard() -> None:
        typing(f, typed)

    if f["kind"] != "texts":
        return [Button(controls, i18n.translate(lang, "kiosk.form.type"), act(open_keyboard), key=("type", name))]
    left, right = L.columns(controls, 2, 8)
    return [Button(left, i18n.translate(lang, "kiosk.form.type_more"), act(open_keyboard), key=("type", name)),
            Button(right, i18n.translate(lang, "kiosk.form.clear"), act(_clear, form, name), key=("clear", name))]


def _clear(form: FormState, name: str) -> None:
    form.values[name] = []


def _rows(form: FormState, page: int) -> None:
    form.rows_page = page


def _open(form: FormState, name: str) -> None:
    form.opened, form.group, form.page = name, None, 0


def _close(form: FormState) -> None:
    form.opened, form.group, form.page = None, None, 0


def _set(form: FormState, group: str | None, page: int) -> None:
    form.group, form.page = group, page


def group_of(lang: str, choice: dict[str, Any]) -> str:
    return i18n.translate(lang, choice["group"], choice.get("group_params") or {}) if choice.get("group") else ""


def _list(form: FormState, f: dict[str, Any], area: pygame.Rect, L: Layout, lang: str,
          act: Callable[..., Callable[[], None]], closable: bool) -> Laid:
    name, sequence = f["name"], f["kind"] in ("choices", "path")
    toggles = f["kind"] == "subset"
    offered = form.offered(name)
    chosen = form.values.get(name)
    head = pygame.Rect(area.left, area.top, area.width, L.px(26))
    shown = value_text(lang, f, chosen[-SHOWN:] if sequence and chosen else form.values.get(name, UNCHOSEN))
    if sequence and chosen and len(chosen) > SHOWN:
        shown = f"… → {shown}"  # the last steps of a long path, big enough to read
    out = Laid([], [(head, f"{label(lang, f)}: {shown}")])
    groups = list(dict.fromkeys(group_of(lang, ch) for ch in offered))
    by_group = len(offered) > PAGE and len(groups) > 1 and form.group is None
    if form.group is not None:
        offered = [ch for ch in offered if group_of(lang, ch) == form.group]
    entries: list[tuple[str, Callable[[], None], str, Any]] = []
    if by_group:
        for i, g in enumerate(groups):
            entries.append((g, act(_set, form, g, 0), "normal", ("group", name, i)))
    else:
        index = {repr(ch["value"]): i for i, ch in enumerate(f.get("choices", []))}
        left = collections.Counter(repr(ch["value"]) for ch in offered)
        held = collections.Counter(repr(ch["value"]) for ch in f.get("choices", []))
        for ch in offered:
            key = repr(ch["value"])
            if f.get("distinct") and sequence:  # two cards of a kind: one button, saying how many are left
                if left[key] == 0:
                    continue
                words = (i18n.translate(lang, "kiosk.form.choice_left", {"choice": label(lang, ch), "count": left[key]})
                         if held[key] > 1 else label(lang, ch))
                left[key] = 0
            else:
                words = label(lang, ch)
            on = ch["value"] in (chosen or []) if toggles else not sequence and ch["value"] == chosen
            entries.append((words, act(form.choose, name, ch["value"]), "primary" if on else "normal",
                            ("choice", name, index[key])))
    columns = 1 if any(letters(words) > LONG_LABEL for words, _, _, _ in entries) else COLUMNS
    row_h, gap = L.px(TARGET_H), L.px(8)
    top = head.bottom + L.px(2)
    # ROWS rows and the More/Back row under them; fewer rows when they would not fit above the area's
    # bottom (a form's title on two lines, issue 28). The booth leaves 4 px spare under its area.
    rows = max(1, min(ROWS, (area.bottom + L.px(NAV_SPARE) - top - row_h) // (row_h + gap)))
    per = columns * rows
    pages = max(1, -(-len(entries) // per))
    page = min(form.page, pages - 1)
    cols = L.columns(pygame.Rect(area.left, top, area.width, row_h), columns, 8)
    for i, (text, fn, style, key) in enumerate(entries[page * per:(page + 1) * per]):
        col = cols[i % columns]
        rect = pygame.Rect(col.left, top + (i // columns) * (row_h + gap), col.width, row_h)
        out.buttons.append(Button(rect, text, fn, style, key))
    nav = L.columns(pygame.Rect(area.left, top + rows * (row_h + gap), area.width, row_h), 4, 8)
    if page > 0:
        out.buttons.append(Button(nav[0], i18n.translate(lang, "kiosk.form.back"),
                                  act(_set, form, form.group, page - 1), key=("previous", name)))
    elif form.group is not None:
        out.buttons.append(Button(nav[0], i18n.translate(lang, "kiosk.form.back"),
                                  act(_set, form, None, 0), key=("groups", name)))
    if page + 1 < pages:
        out.buttons.append(Button(nav[1], i18n.translate(lang, "kiosk.form.more"),
                                  act(_set, form, form.group, page + 1), key=("more", name)))
    if sequence and chosen:
        out.buttons.append(Button(nav[2], i18n.translate(lang, "kiosk.form.take_back"),
                                  act(form.take_back, name), key=("take_back", name)))
    if closable:
        out.buttons.append(Button(nav[3], i18n.translate(lang, "kiosk.form.close"), act(_close, form),
                                  key=("close", name)))
    return out


def prompt_list(prompts: list[dict[str, Any]], page: int, area: pygame.Rect, L: Layout, lang: str,
                open_: Callable[[dict[str, Any]], None], turn: Callable[[int], None]) -> list[Button]:
    """What a player may do, a button a row; when more rows are needed than fit, pages with More/Back."""
    row_h, gap = L.px(TARGET_H), L.px(8)
    fit = max(1, (area.height + gap) // (row_h + gap))
    per = fit if len(prompts) <= fit else fit - 1
    pages = max(1, -(-len(prompts) // per))
    page = min(page, pages - 1)
    out: list[Button] = []
    for i, prompt in enumerate(prompts[page * per:(page + 1) * per]):
        rect = pygame.Rect(area.left, area.top + i * (row_h + gap), area.width, row_h)
        out.append(Button(rect, label(lang, prompt), functools.partial(open_, prompt), key=("prompt", page * per + i)))
    if pages > 1:
        nav = L.columns(pygame.Rect(area.left, area.top + per * (row_h + gap), area.width, row_h), 2, 8)
        if page > 0:
            out.append(Button(nav[0], i18n.translate(lang, "kiosk.form.back"), functools.partial(turn, page - 1),
                              key="prompts_back"))
        if page + 1 < pages:
            out.append(Button(nav[1], i18n.translate(lang, "kiosk.form.more"), functools.partial(turn, page + 1),
                              key="prompts_more"))
    return out


def draw_line(surface: pygame.Surface, c: Canvas, text: str, rect: pygame.Rect, color: Color) -> None:
    """A field's line in `rect`: at 16 px on one line, else wrapped at 14 px onto the lines the box holds
    (centred in it), the last cut with "…" only if the words still do not fit; a path's line ("Rooms:
    A → B → C") loses its first steps first, so its latest step stays in view."""
    size, smallest = c.font(LINE_SIZE), c.font(LINE_SMALLEST)
    if c.text.fit(text, size, rect.width, height=rect.height, smallest=smallest - 1) >= smallest:
        c.text.draw(surface, text, rect, size, color)
        return
    lines = c.text.wrap(text, smallest, rect.width)
    high = max(c.text.render(line, smallest, color).get_height() for line in lines)  # Thai's marks: taller
    room = max(1, rect.height // high)
    if len(lines) > room and " → " in text:  # a path: its last steps matter, so the first ones go
        name, _, value = text.partition(": ")
        shown = value.removeprefix("… → ").split(" → ")
        while len(shown) > 1 and len(lines) > room:
            shown = shown[1:]
            lines = c.text.wrap(f"{name}: … → {' → '.join(shown)}", smallest, rect.width)
        text = f"{name}: … → {' → '.join(shown)}"
    if len(lines) > room:
        at = 0
        for line in lines[:room - 1]:  # where the last line that fits starts in `text`
            at = text.index(line, at) + len(line)
        lines = [*lines[:room - 1], _shortened(c, text[at:].strip(), smallest, rect.width)]
    y = rect.centery - len(lines) * high // 2
    for line in lines:
        c.text.draw(surface, line, pygame.Rect(rect.left, y, rect.width, high), smallest, color, shrink=False)
        y += high


def _shortened(c: Canvas, text: str, size: int, width: int) -> str:
    """`text` cut between grapheme clusters to fit `width` with "…" after it."""
    kept = ""
    for cluster in breaks.clusters(text):
        if c.text.width(kept + cluster + "…", size, False) > width:
            break
        kept += cluster
    return kept.rstrip(" ,，、:：") + "…"
