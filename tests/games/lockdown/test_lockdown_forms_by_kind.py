"""Lockdown's drop, declare and discard forms list the held cards by kind (issue 31), never a line per card
id: a kind held twice is one choice saying how many are left ("Pill ×2"), on the booth and on the phone
page (its own forms.js, in headless Chromium), and what the form sends (kinds) is what the referee takes:
cards of one kind are interchangeable (ruling L3, docs/games/lockdown.md "physical cards"), so it picks
the card. Dropping a kind keeps a declared card of it when another can go (L7.4: the declaration stands).
The choices property over whole games is tests/games/lockdown/test_lockdown_choices.py."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pygame
import pytest
from playwright.sync_api import Browser, Page

from companion.kiosk.layout import Layout
from companion.kiosk.screens.form_layout import lay_out
from companion.kiosk.screens.forms import FormState
from tests.games.lockdown.test_lockdown_physical_held import at_the_pharmacy, held, kinds, send
from tests.kits.kiosk_fixtures import shots_dir
from tests.kits.phone_page_kit import draw_form, form_tab

__all__ = ["shots_dir"]


def prompt_of(ref: Any, me: str, move: str) -> dict[str, Any]:
    return next(p for p in ref.view(f"player:{me}")["prompts"] if p["move"] == move)


def holding(tmp_path: Path) -> tuple[Any, str]:
    """At the pharmacy with two pills, then a draw of adrenaline: pill, pill, adrenaline held."""
    ref, me = at_the_pharmacy(tmp_path, pills=2)
    assert send(ref, me, "lockdown.draw", cards=["adrenaline"]).accepted
    return ref, me


def booth_labels(prompt: dict[str, Any], picks: list[str]) -> list[str]:
    form = FormState(prompt)
    for value in picks:
        form.choose("cards", value)
    laid = lay_out(form, pygame.Rect(0, 0, 560, 300), Layout(800, 480), "en", lambda: None)
    return [b.label for b in laid.buttons if isinstance(b.key, tuple) and b.key[0] == "choice"]


@pytest.mark.parametrize("move", ["lockdown.drop", "lockdown.declare"])
def test_the_form_offers_kinds_with_their_count_and_no_card_id(tmp_path: Path, move: str) -> None:
    ref, me = holding(tmp_path)
    prompt = prompt_of(ref, me, move)
    field = prompt["fields"][0]
    assert [c["value"] for c in field["choices"]] == ["pill", "pill", "adrenaline"] and field["distinct"]
    for card in held(ref, me)["items"]:
        assert card not in json.dumps(prompt)  # no card id is shown or sent
    assert booth_labels(prompt, []) == ["Pill ×2", "Adrenaline"]
    assert booth_labels(prompt, ["pill"]) == ["Pill ×1", "Adrenaline"]
    assert booth_labels(prompt, ["pill", "pill"]) == ["Adrenaline"]
    form = FormState(prompt)
    for _ in range(3):  # a third pill is not offered: two are held
        form.choose("cards", "pill")
    assert form.input(f"player:{me}")["args"] == {"cards": ["pill", "pill"]}
    assert send(ref, me, move, cards=["pill", "pill"]).accepted


def test_a_drop_by_kind_keeps_the_declared_card(tmp_path: Path) -> None:
    """L7.4: Ana declared one of her two pills; dropping "pill" drops the other, her declaration stands."""
    ref, me = at_the_pharmacy(tmp_path, pills=2)
    assert send(ref, me, "lockdown.declare", cards=["pill"]).accepted
    declared = list(held(ref, me)["declared"])
    assert send(ref, me, "lockdown.drop", cards=["pill"]).accepted
    assert held(ref, me)["items"] == declared and held(ref, me)["declared"] == declared


@pytest.fixture(scope="module")
def page(browser: Browser) -> Iterator[Page]:
    with form_tab(browser) as tab:
        yield tab


def test_the_phone_shows_one_button_per_kind_with_what_is_left(tmp_path: Path, page: Page, shots_dir: Path) -> None:
    ref, me = holding(tmp_path)
    draw_form(page, prompt_of(ref, me, "lockdown.drop"))
    form = page.locator("form.prompt")
    buttons = form.locator(".picks button:not([hidden])")
    assert buttons.all_inner_texts() == ["Pill ×2", "Adrenaline"]
    pill = buttons.first
    pill.click()
    assert pill.inner_text() == "Pill ×1"
    page.screenshot(path=str(shots_dir / "phone-lockdown-drop-by-kind.png"), full_page=True)
    pill.click()
    assert pill.inner_text() == "Pill ×0" and pill.is_disabled()
    form.locator("button.send").click()
    sent = page.evaluate("window.sent")
    assert sent == [["lockdown.drop", {"cards": ["pill", "pill"]}]]
    assert send(ref, me, *sent[0][:1], **sent[0][1]).accepted
    assert kinds(held(ref, me)["items"]) == ["adrenaline"]
