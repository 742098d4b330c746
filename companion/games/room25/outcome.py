"""Deaths, escapes and the end of the game in each mode (R3.4, R4.2, R5)."""

from __future__ import annotations

from companion.core.contract import Ctx, State
from companion.games.room25 import board, grid
from companion.parts import roles

GUARD = "guard"
PRISONER = "prisoner"


def seated(s: State) -> list[str]:
    return [p["id"] for p in s["players"]]


def finish(ctx: Ctx, winners: list[str], reason: str) -> None:
    """End the game: the winners share first place; everyone's role is shown."""
    s = ctx.state
    if s["finished"] is not None:
        return
    everyone = seated(s)
    winners = [p for p in everyone if p in winners]
    losers = [p for p in everyone if p not in winners]
    s["finished"] = {
        "ranking": [winners, losers] if winners and losers else ([winners] if winners else []),
        "winners": winners,
        "reason": reason,
    }
    if s["deal"] is not None:
        roles.reveal(s["deal"])
    s["current"] = None
    s["pending"] = []
    if s["timer"] is not None and s["timer"]["running"]:
        s["timer"].update(running=False, deadline=None)
    ctx.announce(reason, players=winners)


# -- deaths -----------------------------------------------------------------------------------------------


def kill(ctx: Ctx, pid: str) -> None:
    """R3.4: a dead player leaves the grid; the actions they programmed and have not played are void."""
    s = ctx.state
    p = board.person(s, pid)
    if p["status"] != board.ALIVE:
        return
    p.update(status=board.DEAD, tile=None, trap=None, flood=None)
    played = {i for who, i, _ in s["program"]["revealed"] if who == pid}
    mine = s["program"]["committed"].get(pid)
    if mine is not None:
        s["program"]["committed"][pid] = [a if i in played else None for i, a in enumerate(mine)]
    s["deaths"].append(pid)
    ctx.announce("room25.died", player=pid)
    if s["mode"] == "suspicion":
        _death_reveal(ctx)
    check(ctx)


def _death_reveal(ctx: Ctx) -> None:
    """R5.2: reveal the earliest unrevealed dead player while the dead could hold two prisoners."""
    s = ctx.state
    deal = s["deal"]
    while True:
        shown = [d for d in s["deaths"] if d in deal["revealed"]]
        hidden = [d for d in s["deaths"] if d not in deal["revealed"]]
        prisoners = [d for d in shown if deal["assigned"][d] == PRISONER]
        if len(prisoners) >= 2 or not hidden or len(prisoners) + len(hidden) < 2:
            return
        roles.reveal(deal, hidden[0])
        ctx.announce("room25.role_revealed", player=hidden[0], role=f"kind.room25.role.{deal['assigned'][hidden[0]]}")


def _by_role(s: State, role: str) -> list[str]:
    return [p for p in seated(s) if s["deal"]["assigned"][p] == role]


def _status(s: State, pid: str) -> str:
    status: str = s["people"][pid]["status"]
    return status


def check(ctx: Ctx) -> None:
    """End the game if deaths decided it."""
    s = ctx.state
    if s["finished"] is not None:
        return
    mode, everyone = s["mode"], seated(s)
    dead = [p for p in everyone if _status(s, p) == board.DEAD]
    alive = [p for p in everyone if _status(s, p) == board.ALIVE]
    if mode == "suspicion":
        deal = s["deal"]
        shown = [d for d in dead if d in deal["revealed"] and deal["assigned"][d] == PRISONER]
        if len(shown) >= 2:  # R5.1, R5.2
            finish(ctx, _by_role(s, GUARD), "room25.win.guards")
    elif mode == "competition":  # R5.3: the last one alive
        if len(alive) == 1 and len(everyone) > 1:
            finish(ctx, alive, "room25.win.last_alive")
        elif not alive:
            finish(ctx, [], "room25.lose.everyone")
    elif mode == "team":  # R5.4: the other team is dead
        standing = [team for team in s["teams"] if any(_status(s, p) == board.ALIVE for p in team)]
        if len(standing) == 1:
            finish(ctx, standing[0], "room25.win.team")
        elif not standing:
            finish(ctx, [], "room25.lose.everyone")
    else:  # R5.5: cooperation allows one death, solo none
        allowed = 1 if mode == "cooperation" else 0
        if len(dead) > allowed or not alive:
            finish(ctx, [], "room25.lose.cooperation")


# -- the exit leaves (R4.2) -------------------------------------------------------------------------------


def escape(ctx: Ctx, tile: int) -> None:
    """Everyone in the exit escapes, and the game is decided: nobody else can leave now."""
    s = ctx.state
    out = board.occupants(s, tile)
    for pid in out:
        board.person(s, pid).update(status=board.ESCAPED, tile=None, trap=None, flood=None)
    s["escaped"] = out
    s["exit_left"] = True
    ctx.announce("room25.escaped", players=out)
    everyone = seated(s)
    mode = s["mode"]
    if mode == "suspicion":  # R5.1
        prisoners = _by_role(s, PRISONER)
        missing = [p for p in prisoners if _status(s, p) != board.ESCAPED]
        if len(missing) <= 1:
            finish(ctx, prisoners, "room25.win.prisoners")
        else:
            finish(ctx, _by_role(s, GUARD), "room25.win.guards")
    elif mode == "competition":  # R5.3: the first to escape (together: they share)
        finish(ctx, out, "room25.win.escaped")
    elif mode == "team":  # R5.4
        winners = [
            team
            for team in s["teams"]
            if not any(_status(s, p) == board.ALIVE for p in team)
            and sum(_status(s, p) == board.DEAD for p in team) <= 1
        ]
        if winners:
            finish(ctx, [p for team in winners for p in team], "room25.win.team")
        else:  # no team got out whole: the team with more members out wins (docs/games/room25.md)
            counts = [sum(_status(s, p) == board.ESCAPED for p in team) for team in s["teams"]]
            best = max(counts)
            finish(ctx, [p for team, n in zip(s["teams"], counts, strict=True) if n == best for p in team],
                   "room25.win.team")
    else:  # R5.5
        allowed = 1 if mode == "cooperation" else 0
        dead = [p for p in everyone if _status(s, p) == board.DEAD]
        left = [p for p in everyone if _status(s, p) == board.ALIVE]
        if not left and len(dead) <= allowed:
            finish(ctx, everyone, "room25.win.cooperation")
        else:
            finish(ctx, [], "room25.lose.cooperation")


# -- the turns run out -------------------------------------------------------------------------------------


def needs_exit_located(s: State) -> bool:
    """At the end of a competition or team game the exit's place decides; with physical tiles the table
    must say where it is if nobody turned it up."""
    return s["mode"] in ("competition", "team") and board.exit_tile(s) is None and bool(board.living(s))


def time_out(ctx: Ctx) -> None:
    s = ctx.state
    mode = s["mode"]
    ctx.announce("room25.turns_over")
    if mode == "suspicion":  # R5.1
        finish(ctx, _by_role(s, GUARD), "room25.win.guards")
        return
    if mode in ("cooperation", "solo"):  # R5.5
        finish(ctx, [], "room25.lose.cooperation")
        return
    exit_tile = board.exit_tile(s)
    assert exit_tile is not None
    target = board.cell_of_tile(s, exit_tile)
    assert target is not None

    def far(pid: str) -> int:
        cell = board.cell_of(s, pid)
        assert cell is not None
        return grid.distance(cell, target)

    alive = board.living(s)
    if mode == "competition":  # R5.3: nearest to the exit; ties share
        if not alive:
            finish(ctx, [], "room25.lose.everyone")
            return
        best = min(far(p) for p in alive)
        finish(ctx, [p for p in alive if far(p) == best], "room25.win.nearest")
        return
    # R5.4: more living members, then the nearer team (sum of distances)
    keys = []
    for team in s["teams"]:
        members = [p for p in team if p in alive]
        keys.append((-len(members), sum(far(p) for p in members)))
    best_key = min(keys)
    finish(ctx, [p for team, k in zip(s["teams"], keys, strict=True) if k == best_key for p in team], "room25.win.team")
