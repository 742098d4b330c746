"""A form with nothing to fill (Betrayal's "Explore", a plain "End the turn") lays out no rows and
no paging: the booth shows its Send alone (found by the night test: the booth crashed on it)."""

from __future__ import annotations

import pygame

from companion.kiosk.layout import Layout
from companion.kiosk.screens.form_layout import lay_out
from companion.kiosk.screens.forms import FormState


def test_a_form_without_fields_has_nothing_to_lay_out_and_is_ready_to_send() -> None:
    form = FormState({"move": "explore", "label": "betrayal.prompt.explore", "fields": (), "params": {},
                      "fixed": {}, "summed": (), "total": None})
    laid = lay_out(form, pygame.Rect(340, 136, 436, 240), Layout(800, 480), "en", lambda: None)
    assert laid.buttons == [] and laid.lines == []
    assert form.complete()
