"""The host stops a game that has no winner yet (the table calls it a night): ``game.end``.

Nobody wins: the ranking is empty and the result says it was stopped (``stopped``), with the keys the
game's own result has (`extra`), so its reveal reads it as it reads any end. Running timers stop. The
game declares it among its host controls (`companion.core.host_controls`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.core.contract import Ctx, Move, NoArgs
from companion.parts import timers


def move(extra: Mapping[str, Any] | None = None) -> Move:
    """The game's ``game.end``: the host stops it; `extra` are the game's own result keys."""

    def stop(ctx: Ctx, a: NoArgs) -> None:
        s = ctx.state
        for t in [s.get("timer"), *(s.get("timers") or {}).values()]:
            if t is not None and t["running"]:
                timers.pause(t, ctx.at)
        s["finished"] = {"ranking": [], "winners": [], **(extra or {}), "stopped": True}
        ctx.announce("game.stopped")

    return Move("game.end", stop, NoArgs, frozenset({"host"}))
