"""The phone page's forms for every kind of prompt field, in real Chromium, without a game: what the
player taps becomes exactly the args the move expects (companion/core/prompts.py)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from companion import i18n
from tests.kits.phone_page_kit import draw_form, form_tab

PROMPT: dict[str, Any] = {
    "move": "plan.program", "label": "toolkit.prompt.vote", "params": {"name": "Night 2"}, "fixed": {"round": 2},
    "fields": [
        {"name": "pair", "kind": "choices", "label": "phone.choose", "min": 2, "max": 2, "default": None,
         "choices": [{"value": "move", "label": "Move", "params": {}, "plain": True},
                     {"value": "look", "label": "kind.timer", "params": {}, "plain": False},
                     {"value": "push", "label": "Push", "params": {}, "plain": True}]},
        {"name": "route", "kind": "path", "label": "phone.choose", "min": 1, "max": 3, "default": None,
         "choices": [{"value": [0, 1], "label": "Hall", "params": {}, "plain": True},
                     {"value": [1, 1], "label": "Lab", "params": {}, "plain": True}]},
        {"name": "note", "kind": "text", "label": "phone.send", "choices": [], "min": None, "max": None,
         "default": None},
        {"name": "delta", "kind": "number", "label": "toolkit.prompt.delta", "choices": [], "min": -2, "max": 3,
         "default": None},
        {"name": "sure", "kind": "confirm", "label": "phone.send", "choices": [], "min": None, "max": None,
         "default": None},
    ],
}


@pytest.fixture(scope="module")
def page(browser: Browser) -> Iterator[Page]:
    with form_tab(browser) as tab:
        yield tab


def test_each_kind_of_field_becomes_the_moves_args(page: Page) -> None:
    draw_form(page, PROMPT)
    form = page.locator("form.prompt")
    send = form.locator("button.send")
    assert form.locator("h3").inner_text() == "Vote: Night 2"
    assert send.is_disabled()  # nothing picked yet
    pair = form.locator("fieldset[data-kind='choices']")
    pair.get_by_role("button", name="Move", exact=True).click()
    pair.get_by_role("button", name="timer", exact=True).click()  # a catalog label, translated
    pair.get_by_role("button", name="Push", exact=True).click()  # a third pick is refused: the pair is full
    assert pair.locator(".chosen").inner_text() == "Your order: Move, timer"
    route = form.locator("fieldset[data-kind='path']")
    for room in ("Lab", "Hall", "Lab", "Hall"):
        route.get_by_role("button", name=room, exact=True).click()
    route.get_by_role("button", name="Remove the last").click()
    assert route.locator(".chosen").inner_text() == "Your order: Lab, Hall"
    assert send.is_disabled()  # the text is still empty
    form.locator("input[type='text']").fill("  behind the door ")
    for _ in range(5):
        form.get_by_role("button", name="+1").click()  # stops at the field's max
    assert form.locator("input[type='number']").input_value() == "3"
    send.click()
    assert page.evaluate("window.sent") == [["plan.program", {
        "round": 2, "pair": ["move", "look"], "route": [[1, 1], [0, 1]], "note": "behind the door", "delta": 3}]]
    assert form.locator(".form-state").inner_text() == "Sending…"


def test_a_number_out_of_bounds_cannot_be_sent(page: Page) -> None:
    only_number = {**PROMPT, "fields": [PROMPT["fields"][3]]}
    draw_form(page, only_number)
    form = page.locator("form.prompt")
    form.locator("input[type='number']").fill("7")
    assert form.locator("button.send").is_disabled()
    form.locator("input[type='number']").fill("-2")
    assert form.locator("button.send").is_enabled()
    form.locator("button.send").click()
    assert page.evaluate("window.sent") == [["plan.program", {"round": 2, "delta": -2}]]


def test_a_confirm_prompt_is_its_button_alone(page: Page) -> None:
    draw_form(page, {**PROMPT, "fields": [PROMPT["fields"][4]]})
    form = page.locator("form.prompt")
    assert form.locator("input").count() == 0
    form.locator("button.send").click()
    assert page.evaluate("window.sent") == [["plan.program", {"round": 2}]]


# -- the page says what the Pi says ------------------------------------------------------------------------

TRICKY = ["Ana", "{name}", "kind.timer", "reject.ballot_closed", "sender.host", 'a "quoted" <b>tag</b>', "ไทย 中文"]


def cases(lang: str) -> list[tuple[str, dict[str, Any]]]:
    """Every message of `lang`, each with its placeholders filled by values of every kind, and one left out."""
    out: list[tuple[str, dict[str, Any]]] = []
    for n, mid in enumerate(sorted(i18n.msgids("en") | i18n.msgids(lang))):
        names = sorted(i18n.placeholders(i18n.translate(lang, mid)))
        values: list[Any] = [TRICKY[n % len(TRICKY)], n, [n, "x"], TRICKY[(n + 3) % len(TRICKY)]]
        out.append((mid, {name: values[(n + i) % len(values)] for i, name in enumerate(names[1:])}))
        out.append((mid, {name: values[(n + i + 1) % len(values)] for i, name in enumerate(names)}))
    return out


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_the_page_fills_every_message_as_the_pi_does(page: Page, lang: str) -> None:
    batch = cases(lang)
    shown = page.evaluate("""async ([lang, batch]) => {
      const i18n = await import("/js/i18n.js");
      await i18n.load(lang);
      return batch.map(([id, params]) => i18n.t(id, params));
    }""", [lang, batch])
    expected = [i18n.translate(lang, mid, params) for mid, params in batch]
    assert len(batch) > 100
    assert [(mid, got) for (mid, _), got in zip(batch, shown, strict=True)] == list(
        zip([mid for mid, _ in batch], expected, strict=True))
