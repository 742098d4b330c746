"""What a player sent from a booth form, and the referee's answer to it (issue 28).

After Send the booth's form panel shows, in words, what went to the referee (the form's title and each
field's value as the form said it) and, once the answer is back, "accepted" or the refusal in words. The
form is kept: a refused form can be changed and sent again with its values as they were. The booth
itself stays up; "Back to the list" and "Close my booth" (Done) are the player's ways on.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pygame

from companion import i18n
from companion.kiosk.layout import Layout
from companion.kiosk.screens.forms import UNCHOSEN, FormState, label, value_text
from companion.kiosk.widgets import DANGER, DIM, FG, GOOD, Canvas, draw_label, draw_lines, label_height


@dataclass
class Sent:
    """One Send from a booth form: the form as it was sent and, once back, the referee's answer."""

    form: FormState
    answer: tuple[str, bool] | None = None  # (the answer in words, accepted); None while on its way

    def what(self, lang: str) -> list[str]:
        """Each field's name and value as the form showed them ("Vote: Ben"); none for a plain confirm."""
        out = []
        for f in self.form.fields():
            if f["kind"] == "confirm":
                continue
            out.append(f"{label(lang, f)}: {value_text(lang, f, self.form.values.get(f['name'], UNCHOSEN))}")
        return out

    def state(self) -> bool | None:
        """None while on its way, then whether the referee accepted it."""
        return None if self.answer is None else self.answer[1]

    def same_prompt(self, prompts: list[dict[str, Any]]) -> dict[str, Any] | None:
        """The prompt now offered that this form answers (the same move with the same fixed args, under
        the same title: the host's "vote among the players" and "vote on typed options" are one move)."""
        mine = self.form.prompt
        return next((p for p in prompts if p.get("move") == mine.get("move") and p.get("label") == mine.get("label")
                     and (p.get("fixed") or {}) == (mine.get("fixed") or {})), None)


def status_words(lang: str, sent: Sent) -> tuple[str, tuple[int, int, int]]:
    """The answer's line and its colour: on its way, accepted, or refused with the reason in words."""
    if sent.answer is None:
        return i18n.translate(lang, "kiosk.booth.sending"), DIM
    text, accepted = sent.answer
    if accepted:
        return text, GOOD
    return i18n.translate(lang, "kiosk.booth.refused", {"reason": text}), DANGER


def draw_receipt(surface: pygame.Surface, c: Canvas, L: Layout, lang: str, sent: Sent, inner: pygame.Rect,
                 closing: str = "") -> None:
    """The receipt inside the form panel's `inner` rectangle: "You sent: <title>", each field's value,
    then the answer (and `closing`, when the booth will hide by itself soon)."""
    you_sent = i18n.translate(lang, "kiosk.booth.you_sent", {"what": label(lang, sent.form.prompt)})
    head = pygame.Rect(inner.left, inner.top, inner.width, label_height(c, you_sent, inner.width, 20, L.px(40)))
    draw_label(surface, c, you_sent, head, 20)
    body = pygame.Rect(inner.left, head.bottom + L.px(4), inner.width, inner.bottom - head.bottom - L.px(4))
    said, colour = status_words(lang, sent)
    closing_h = L.px(26) if closing else 0
    answer_h = L.px(92)  # three lines of a refusal's words at 17
    what = pygame.Rect(body.left, body.top, body.width, body.height - answer_h - closing_h - L.px(8))
    lines = sent.what(lang)
    drawn = draw_lines(surface, c, lines, what, 17, FG, whole=True)
    top = what.top + _height(c, lines, what.width, drawn) + (L.px(10) if drawn else 0)  # right under them
    answer = pygame.Rect(body.left, top, body.width, answer_h)
    draw_lines(surface, c, [said], answer, 17, colour)
    if closing:
        draw_lines(surface, c, [closing], pygame.Rect(body.left, body.bottom - closing_h, body.width, closing_h),
                   15, DIM)


def _height(c: Canvas, lines: list[str], width: int, parts: int, size: float = 17, gap: float = 6) -> int:
    """How tall the first `parts` wrapped parts of `lines` are when `draw_lines` draws them."""
    heights = [c.text.render(part, c.font(size), FG).get_height()
               for line in lines for part in c.text.wrap(line, c.font(size), width)][:parts]
    return sum(heights) + c.px(gap) * max(0, len(heights) - 1)
