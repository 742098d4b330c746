"""A form with nothing to fill (Betrayal's "Explore", a plain "End the turn") lays out no rows and
no paging: the booth shows its Send alone (found by the night test: the booth crashed on it)."""

from __future__ import annotations

from typing import Any

import pygame

from companion.drawing.text import TextCache
from companion.kiosk.layout import Layout
from companion.kiosk.screens.form_layout import lay_out
from companion.kiosk.screens.forms import FormState
from tests.kits.kiosk_fixtures import text, text_cache

__all__ = ["text", "text_cache"]


def test_a_form_without_fields_has_nothing_to_lay_out_and_is_ready_to_send() -> None:
    form = FormState({"move": "explore", "label": "betrayal.prompt.explore", "fields": (), "params": {},
                      "fixed": {}, "summed": (), "total": None})
    laid = lay_out(form, pygame.Rect(340, 136, 436, 240), Layout(800, 480), "en", lambda: None)
    assert laid.buttons == [] and laid.lines == []
    assert form.complete()


def test_a_booth_opens_a_changed_list_of_what_to_do_at_its_first_page(text: TextCache) -> None:
    """A player turned their booth's list to its second page; then what they may do changes (their
    view brings other prompts): the new list opens at its first page, where its first choices are
    (found by the night test: the booth kept the old page, past the new list's first choices)."""
    from companion.kiosk import feed as msgs
    from companion.kiosk.scenes import make_scene
    from companion.kiosk.screens import on_message
    from tests.kits.kiosk_fixtures import surface

    def prompt(move: str) -> dict[str, Any]:
        return {"move": move, "label": "kiosk.booth.send", "fields": [], "params": {}, "fixed": {},
                "summed": [], "total": None}

    scene = make_scene(surface("800x480"), text)
    k = scene.kiosk
    try:
        many = {**k.public, "me": "ana", "private": {}, "prompts": [prompt(f"m{i}") for i in range(30)]}
        on_message(k, msgs.PlayerView("ana", many, opened=True))
        booth = k.top
        assert booth.name == "booth"
        booth.prompt_page = 1
        on_message(k, msgs.PlayerView("ana", {**many, "prompts": many["prompts"][:]}))
        assert booth.prompt_page == 1  # the same list: the page the player turned to stays
        other = {**many, "prompts": [prompt(f"n{i}") for i in range(30)]}
        on_message(k, msgs.PlayerView("ana", other))
        assert booth.prompt_page == 0 and booth.view is other
    finally:
        scene.close()
