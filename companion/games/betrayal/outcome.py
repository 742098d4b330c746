"""The end (B3.3): the haunt's goals are the table's to judge; the host says which side met theirs, or
that neither can (both lose). With every explorer dead the game ends with both sides losing."""

from __future__ import annotations

from companion.core.contract import Ctx
from companion.parts import timers

WINNERS = ("heroes", "traitor", "none")


def finish(ctx: Ctx, winner: str) -> None:
    s = ctx.state
    seats: list[str] = s["seats"]
    traitor = s["haunt"]["traitor"] if s["haunt"] else None
    heroes = [p for p in seats if p != traitor]
    ranking: list[list[str]]
    if winner == "heroes":
        ranking = [heroes, [traitor]] if traitor else [heroes]
    elif winner == "traitor":
        assert traitor is not None
        ranking = [[traitor], heroes]
    else:
        ranking = [list(seats)]
    t = s["timer"]
    if t is not None and t["running"]:
        timers.pause(t, ctx.at)
    s["pending"] = None
    s["finished"] = {"ranking": ranking, "winner": winner,
                     "winners": [] if winner == "none" else ranking[0]}
    ctx.announce(f"betrayal.won.{winner}")
