"""The haunt as a moment on Betrayal's board: the omen count, then the haunt roll, the haunt revealed
and the traitor named, one after another on a track of three steps (B3.1-B3.2).

Each step is read from the public view (companion/games/betrayal/views.py) as the announcements give
it: the roll from `pending` (due) and `moment` (made), the haunt's number and title and the traitor
from `haunt`, which the public view holds only once the roll has started the haunt. Before then the
traitor row says only that no one is named yet: the referee itself does not know who it will be.
Each step a row of 24 px at 14 px (issue 28: a Thai line's height).
"""

from __future__ import annotations

from typing import Any

import pygame

from companion import i18n
from companion.drawing.canvas import DANGER, DIM, FG, Canvas
from companion.drawing.marks import READABLE, fitted_name, names
from companion.drawing.text import Color

OMEN: Color = (190, 150, 255)
BOX: Color = (24, 28, 38)
STEPS = ("roll", "haunt", "traitor")


def step_reached(table: dict[str, Any]) -> int:
    """How far the haunt has come: 0 no roll yet, 1 the roll due or made, 3 the haunt revealed and the
    traitor named (the referee announces both with the roll that starts the haunt: B3.1, B3.2)."""
    if table.get("haunt"):
        return 3
    if (table.get("pending") or {}).get("kind") == "haunt_roll" or table.get("moment"):
        return 1
    return 0


def step_texts(lang: str, public: dict[str, Any]) -> list[tuple[str, str | None, str]]:
    """Each step's (title, player named in it, words with `{name}` where the name goes)."""
    table = public.get("table") or {}
    tr = lambda msgid, **p: i18n.translate(lang, msgid, p)  # noqa: E731
    pending = table.get("pending") or {}
    moment = table.get("moment")
    haunt = table.get("haunt")
    if pending.get("kind") == "haunt_roll" and not haunt:
        roll: tuple[str | None, str] = (pending.get("player"), tr("gameboards.betrayal.roll.due", player="{name}"))
    elif moment:
        verdict = "begins" if moment.get("haunt") else "not_yet"
        roll = (moment.get("player"), tr(f"gameboards.betrayal.roll.{verdict}", player="{name}",
                                          total=moment.get("total"), omens=moment.get("omens")))
    else:
        roll = (None, tr("gameboards.betrayal.roll.later"))
    if haunt:
        title = tr("gameboards.betrayal.haunt.title", number=haunt.get("number"), title=haunt.get("title", ""))
        traitor = haunt.get("traitor")
        named = (traitor, "{name}") if traitor else (None, tr("gameboards.betrayal.traitor.none"))
    else:
        title = tr("gameboards.betrayal.haunt.hidden")
        named = (None, tr("gameboards.betrayal.traitor.hidden"))
    return [(tr(f"gameboards.betrayal.step.{s}"), who, words)
            for s, (who, words) in zip(STEPS, (roll, (None, title), named), strict=True)]


def fit_line(c: Canvas, words: str, name: str | None, size: int, width: int) -> str:
    """`words` with `name` in its place, short enough for `width`: the name cut first, then the line."""
    if name is None:
        return fitted_name(c, words, size, width)
    rest = words.replace("{name}", "")
    room = width - c.text.render(rest, c.text.fit(rest, size, width), FG).get_width()
    line = words.replace("{name}", fitted_name(c, name, size, max(room, c.px(12))))
    return fitted_name(c, line, size, width)


def draw_haunt(surface: pygame.Surface, area: pygame.Rect, c: Canvas, lang: str, public: dict[str, Any],
               row: int) -> None:
    """The omen count in a box on the left; the three steps of the haunt beside it, top-down."""
    table = public.get("table") or {}
    size = c.font(READABLE)
    box = pygame.Rect(area.left, area.top, c.px(60), area.height)
    pygame.draw.rect(surface, BOX, box, border_radius=c.px(4))
    title = pygame.Rect(box.left + c.px(2), box.top, box.width - c.px(4), c.px(24))
    omens = i18n.translate(lang, "gameboards.betrayal.omens")
    c.text.draw(surface, fitted_name(c, omens, size, title.width), title, size, DIM, align="center")
    count = pygame.Rect(box.left, title.bottom, box.width, box.bottom - title.bottom)
    c.text.draw(surface, str(table.get("omens", 0)), count, c.font(20), OMEN, bold=True, align="center")
    reached = step_reached(table)
    shown = names(public)
    left = box.right + c.px(8)
    radius = max(2, c.px(4))
    steps = step_texts(lang, public)
    centers = [(left + radius, area.top + i * row + row // 2) for i in range(len(steps))]
    pygame.draw.line(surface, DIM, centers[0], centers[-1], max(1, c.px(1)))
    for i, ((name, who, words), center) in enumerate(zip(steps, centers, strict=True)):
        done = i < reached
        pygame.draw.circle(surface, BOX, center, radius + max(1, c.px(1)))
        pygame.draw.circle(surface, OMEN if done else DIM, center, radius, width=0 if done else max(1, c.px(1)))
        head = pygame.Rect(left + 2 * radius + c.px(5), area.top + i * row, c.px(96), row)
        c.text.draw(surface, fitted_name(c, name, size, head.width), head, size, FG if done else DIM)
        body = pygame.Rect(head.right + c.px(6), head.top, area.right - head.right - c.px(6), row)
        player = shown.get(who, who) if who else None
        text = fit_line(c, words, player, size, body.width)
        traitor = i == len(STEPS) - 1 and player is not None  # the traitor named stands out in red
        c.text.draw(surface, text, body, size, DANGER if traitor else FG if done else DIM)


__all__ = ["draw_haunt", "fit_line", "step_reached", "step_texts"]
