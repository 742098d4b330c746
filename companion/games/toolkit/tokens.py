"""What the toolkit's NFC tokens mean (the game's `on_token`), and the one move only tokens need.

Enroll a tag as one of these (``companion tokens enroll --game toolkit --kind KIND --id ID``):

- kind ``dice``, id ``NdS`` (e.g. ``2d6``, ``d20``; N 1-20, S 2-100): rolls N S-sided dice for the
  table, as `dice.roll` does, announced to everyone.
- kind ``timer``, id = a timer's name (e.g. ``round``): `timer.tap`, a chess-clock press that starts the
  timer if it never ran, pauses it while it runs, and resumes it when paused. A timer that ran out is
  refused (the host adds time or restarts it); a timer the host has not created is refused by name.

Any other kind, or an id that does not parse, means nothing in the toolkit (the router tells the screen
so). Tokens act for whoever tapped them: the shared table, or a player identified in the booth.
"""

from __future__ import annotations

import re
from typing import Any

from companion.core.contract import Ctx, Move, State
from companion.core.rejection import Rejected
from companion.games.toolkit.moves import ANYONE, MOVES, Named, _get
from companion.parts import timers

DICE = re.compile(r"^([0-9]{0,2})d([0-9]{1,3})$")


def on_token(state: State, kind: str, token_id: str, actor: str) -> tuple[str, dict[str, Any]] | None:
    if kind == "dice":
        found = DICE.match(token_id)
        if found is None:
            return None
        count, sides = int(found.group(1) or 1), int(found.group(2))
        if not (1 <= count <= 20 and 2 <= sides <= 100):
            return None
        return "dice.roll", {"count": count, "sides": sides}
    if kind == "timer":
        return "timer.tap", {"name": token_id}
    return None


#: The dice tokens the enrollment screen offers (any ``NdS`` works from the CLI).
DICE_TOKENS = ("d6", "2d6", "3d6", "d20")


def enrollable(state: State) -> dict[str, list[str]]:
    """What a tag can be enrolled as: the usual dice, and a clock for each timer the host created."""
    return {"dice": list(DICE_TOKENS), "timer": sorted(state["timers"])}


def timer_tap(ctx: Ctx, a: Named) -> None:
    """Start a timer that never ran, pause a running one, resume a paused one."""
    t = _get(ctx, "timers", a.name)
    if t["expired"]:
        raise Rejected("reject.timer_expired")
    if not t.get("started", True):
        timers.start(t, ctx.at)
        ctx.announce("toolkit.timer_started", name=a.name)
    elif t["running"]:
        timers.pause(t, ctx.at)
        ctx.announce("toolkit.timer_paused", name=a.name)
    else:
        timers.resume(t, ctx.at)
        ctx.announce("toolkit.timer_resumed", name=a.name)


TOKEN_MOVES: dict[str, Move] = {"timer.tap": Move("timer.tap", timer_tap, Named, ANYONE)}
#: Every toolkit move: the moves of moves.py and the ones tokens need.
GAME_MOVES: dict[str, Move] = {**MOVES, **TOKEN_MOVES}
