"""The omen count, the haunt roll and the start of the haunt (B3.1-B3.3)."""

from __future__ import annotations

from companion.core.contract import Ctx, State
from companion.games.betrayal import data, dice, flow, seating


def starts(total: int, omens: int) -> bool:
    """B3.1: a total lower than the number of omens drawn so far starts the haunt."""
    return total < omens


def number(s: State, omen: str, room: str) -> int:
    """B3.2: the haunt table, omen x room."""
    return data.of(s).haunts.table[omen][room]


def roll(ctx: Ctx, entered: list[int] | None, entered_total: int | None = None) -> None:
    """B3.1: six dice at the end of a turn in which an omen was drawn (seeded, or the table's real ones)."""
    s = ctx.state
    pid = s["pending"]["player"]
    faces, total = dice.read(ctx.rng(), dice.HAUNT_DICE, entered, entered_total)
    begins = starts(total, s["omens"])
    s["pending"] = None
    s["moment"] = {"kind": "haunt_roll", "player": pid, "dice": faces, "total": total, "omens": s["omens"],
                   "haunt": begins, "at": ctx.at}
    if faces is None:
        ctx.announce("betrayal.haunt_roll_real", player=pid, total=total, omens=s["omens"])
    else:
        ctx.announce("betrayal.haunt_roll", player=pid, dice=faces, total=total, omens=s["omens"])
    if not begins:
        ctx.announce("betrayal.haunt_not_yet")
        flow.advance(ctx)
        return
    begin(ctx, pid)


def begin(ctx: Ctx, revealer: str) -> None:
    """B3.2, B3.3: the haunt's number, the traitor, and the first hero's turn."""
    s = ctx.state
    omen, room = s["last_omen"]["card"], s["last_omen"]["room"]
    n = number(s, omen, room)
    h = data.of(s).haunt(n)
    traitor = seating.traitor(s, h.rule, revealer)
    s["haunt"] = {"number": n, "revealer": revealer, "traitor": traitor, "omen": omen, "room": room,
                  "rule": h.rule.kind, "monsters": bool(h.monsters)}
    s["moment"]["number"] = n
    ctx.announce("betrayal.haunt_revealed", number=n, haunt=f"kind.betrayal.haunt.{n}", player=revealer,
                 omen=f"kind.betrayal.card.{omen}", room=f"kind.betrayal.room.{room}")
    if traitor is None:
        ctx.announce("betrayal.no_traitor")
    else:
        ctx.announce("betrayal.traitor_named", player=traitor)
    first = flow.cycle(s)[0]
    flow.begin(ctx, first)
