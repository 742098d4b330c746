"""Filling one form, as a person who knows what they want to do: on the kiosk's booth (its buttons)
and on a phone's page (its form controls in Chromium). Given an intention (a move and its args), the
player looks among the forms the screen offers for one that can say it (its move, its fixed args, a
control for every other arg) and taps the controls that make it say exactly that. What is not offered
cannot be said: `Unreachable` names the intention and what the screen offered.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from companion.kiosk.screens.booth import BoothScreen
from companion.kiosk.screens.form_layout import group_of
from companion.kiosk.widgets import Button
from tests.kits.night_kiosk import Finger

MOST_PAGES = 40  # "more" pressed in one list before the choice is called missing


class Unreachable(AssertionError):
    """The screen offers no widget that makes the wanted input."""


def says(prompt: dict[str, Any], move: str, args: dict[str, Any]) -> bool:
    """Whether a form made from `prompt` can send `move` with `args`. A list the script leaves out is
    the form's list left empty (Lockdown's trade asks for nothing in return)."""
    fixed = prompt.get("fixed") or {}
    names = {f["name"] for f in prompt.get("fields", []) if f["kind"] != "confirm"}
    empty = {f["name"] for f in prompt.get("fields", []) if f["kind"] in ("choices", "path")}
    return (prompt["move"] == move and all(args.get(k) == v for k, v in fixed.items())
            and set(fixed) | names - empty <= set(args) <= set(fixed) | names)


def plain(args: dict[str, Any]) -> dict[str, Any]:
    """Args without the empty lists a form sends for what the script left out."""
    return {k: v for k, v in args.items() if v != []}


def fits(f: dict[str, Any], want: Any) -> bool:
    values = [ch["value"] for ch in f.get("choices", [])]
    if f["kind"] == "choice":
        return want in values
    if f["kind"] in ("choices", "path"):  # a list the script left out is empty (as `on_booth` fills it)
        want = [] if want is None else want
        return isinstance(want, list) and all(v in values for v in want)
    return True


# -- the kiosk's booth ----------------------------------------------------------------------------------

def on_booth(finger: Finger, booth: BoothScreen, move: str, args: dict[str, Any],
             reopen: Callable[[], BoothScreen]) -> None:
    """Open the booth's form for `move`, fill it to `args` by touches, and press Send. `reopen`: the
    player's figure tapped again (the booth then shows the list of what they may do)."""
    wanted = {"by": booth.audience, "move": move, "args": args}
    if booth.sent is not None:  # the receipt of the last Send: back to the list, as a person does
        finger.press_key("back")
    if booth.form is not None and not says(booth.form.prompt, move, args):
        if len(booth.prompts()) <= 1:
            raise Unreachable(f"the booth offers only {booth.form.prompt['move']} "
                              f"{booth.form.prompt.get('fixed') or {}}, not {move} {args}")
        finger.press_key("done")
        booth = reopen()
    if booth.form is None:
        _open_prompt(finger, booth, move, args)
    form = booth.form
    assert form is not None
    args = {**{f["name"]: [] for f in form.fields() if f["kind"] in ("choices", "path")}, **args}
    wanted = {"by": booth.audience, "move": move, "args": args}
    for f in form.fields():
        want: Any = args.get(f["name"])
        if f["kind"] == "number":
            for _ in range(abs(int(want) - int(form.values.get(f["name"]) or 0)) + 1):
                have = int(form.values.get(f["name"]) or 0)
                if have == want:
                    break
                finger.press_key(("plus" if want > have else "minus", f["name"]))
        elif f["kind"] == "choice":
            if form.values.get(f["name"]) != want:
                _pick(finger, booth, f, want)
        elif f["kind"] in ("choices", "path"):
            while form.values.get(f["name"]) and form.values[f["name"]] != want[:len(form.values[f["name"]])]:
                _open_list(finger, booth, f)
                finger.press_key(("take_back", f["name"]))
            for value in want[len(form.values.get(f["name"]) or []):]:
                _pick(finger, booth, f, value)
        elif f["kind"] == "text":
            raise Unreachable(f"{move} {args}: the booth cannot type {f['name']!r} (a text field)")
        if form.opened is not None:
            finger.press_key(("close", f["name"]))
    said = form.input(booth.audience)
    if said != wanted:
        raise Unreachable(f"the booth's form says {said}, not {wanted}")
    send = [b for b in finger.buttons() if b.key == "send" and b.style == "primary"]
    if not send:
        raise Unreachable(f"the booth's form for {move} {args} keeps Send off once filled")
    finger.touch(send[0])


def _open_prompt(finger: Finger, booth: BoothScreen, move: str, args: dict[str, Any]) -> None:
    seen: list[str] = []
    for _ in range(MOST_PAGES):  # a person turns back to the list's first page (it may open on a later one)
        back = [b for b in finger.buttons() if b.key == "prompts_back"]
        if not back:
            break
        finger.touch(back[0])
    for _ in range(MOST_PAGES):
        for b in finger.buttons():
            if isinstance(b.key, tuple) and b.key[0] == "prompt":
                prompt = booth.prompts()[b.key[1]]
                seen.append(f"{prompt['move']} {prompt.get('fixed') or {}}")
                if says(prompt, move, args) and all(fits(f, args.get(f["name"])) for f in prompt["fields"]):
                    finger.touch(b)
                    return
        more = [b for b in finger.buttons() if b.key == "prompts_more"]
        if not more:
            break
        finger.touch(more[0])
    raise Unreachable(f"the booth offers no form for {move} {args}: it offers {seen} (the seat's view: "
                      f"{[p['move'] for p in booth.prompts()]}, {booth.view.get('phase')!r})")


def _open_list(finger: Finger, booth: BoothScreen, f: dict[str, Any]) -> None:
    form = booth.form
    assert form is not None
    if form.opened != f["name"] and any(b.key == ("open", f["name"]) for b in finger.buttons()):
        finger.press_key(("open", f["name"]))


def _pick(finger: Finger, booth: BoothScreen, f: dict[str, Any], value: Any) -> None:
    """Tap the choice `value` in `f`'s list: open the list, its group, and turn its pages until it shows."""
    _open_list(finger, booth, f)
    name = f["name"]
    index = next((i for i, ch in enumerate(f["choices"]) if ch["value"] == value), None)
    if index is None:
        raise Unreachable(f"{name}: {value!r} is not among the choices {[ch['value'] for ch in f['choices']]}")
    group = group_of(finger.night.kiosk.lang, f["choices"][index])
    for _ in range(MOST_PAGES):
        buttons = finger.buttons()
        hit = [b for b in buttons if isinstance(b.key, tuple) and b.key[:2] == ("choice", name)
               and f["choices"][b.key[2]]["value"] == value]  # two cards of a kind: either button
        if hit:
            finger.touch(hit[0])
            return
        groups = [b for b in buttons if isinstance(b.key, tuple) and b.key[:2] == ("group", name)]
        if groups:
            finger.touch(_only(groups, lambda b: b.label == group, f"the group {group!r}", buttons))
            continue
        more = [b for b in buttons if b.key == ("more", name)]
        if not more:
            break
        finger.touch(more[0])
    raise Unreachable(f"{name}: the booth does not offer {value!r} now; it offers "
                      f"{[b.label for b in finger.buttons()]}")


def _only(buttons: list[Button], pick: Any, what: str, offered: list[Button]) -> Button:
    found = [b for b in buttons if pick(b)]
    if not found:
        raise Unreachable(f"no {what}: {[b.label for b in offered]}")
    return found[0]


# -- a phone's page -------------------------------------------------------------------------------------

def dom_order(f: dict[str, Any], sequence: bool) -> list[int]:
    """The choices' indices in the order the page draws them (js/steps.js `grouped`)."""
    indices = list(range(len(f["choices"])))
    long = len(f["choices"]) > 9 or f.get("first") is not None
    if not long or not any(ch.get("group") for ch in f["choices"]):
        return indices
    groups: dict[str, list[int]] = {}
    for i, ch in enumerate(f["choices"]):
        groups.setdefault(json.dumps([ch.get("group") or "", ch.get("group_params") or {}]), []).append(i)
    return [i for members in groups.values() for i in members]


def on_phone(page: Any, move: str, args: dict[str, Any]) -> Any:
    """Fill the page's form for `move` to `args` by taps and press Send; the form's state line (where the
    page writes the answer)."""
    forms = page.locator("#forms form.prompt")
    offered: list[str] = []
    for n in range(forms.count()):
        form = forms.nth(n)
        m, fixed, fields = json.loads(form.get_attribute("data-key"))
        prompt = {"move": m, "fixed": fixed, "fields": fields}
        offered.append(f"{m} {fixed or {}}")
        if says(prompt, move, args) and all(fits(f, args.get(f["name"])) for f in fields):
            _fill(form, fields, {**{f["name"]: [] for f in fields if f["kind"] in ("choices", "path")}, **args})
            send = form.locator("button.send")
            if not send.is_enabled():
                raise Unreachable(f"the phone's form for {move} {args} keeps Send disabled once filled")
            state = form.locator(".form-state").element_handle()
            send.click()
            return state
    raise Unreachable(f"the phone offers no form for {move} {args}: it offers {offered}")


def _fill(form: Any, fields: list[dict[str, Any]], args: dict[str, Any]) -> None:
    sets = form.locator(":scope > fieldset")
    for j, f in enumerate(x for x in fields if x["kind"] != "confirm"):
        box, want = sets.nth(j), args[f["name"]]
        if f["kind"] == "choice":
            at = dom_order(f, False).index(next(i for i, ch in enumerate(f["choices"]) if ch["value"] == want))
            row = box.locator("label.choice").nth(at)
            if not row.is_visible():
                row.locator("xpath=ancestor::details[1]/summary").click()
            row.click()
        elif f["kind"] == "number":
            number = box.locator("input[type=number]")
            for _ in range(1000):
                have = int(number.input_value() or 0)
                if have == want:
                    break
                box.locator("button", has_text="+" if want > have else "−").click()
            if int(number.input_value() or 0) != want:
                raise Unreachable(f"{f['name']}: the phone's number stops before {want}")
        elif f["kind"] == "text":
            box.locator("input[type=text]").fill(str(want))
        else:
            order = dom_order(f, True)
            buttons = box.locator(".picks button")
            for value in want:
                same = [i for i, ch in enumerate(f["choices"]) if ch["value"] == value]
                # a `distinct` field's choices of one value (two food cards) share one button, its first
                # choice's, which picks the next one left (js/forms.js)
                at = order.index(same[0])
                button = buttons.nth(at)
                if button.is_hidden() or button.is_disabled():
                    raise Unreachable(f"{f['name']}: the phone does not offer {value!r} after {want}")
                button.click()
