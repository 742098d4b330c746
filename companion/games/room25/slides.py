"""Control: sliding a row or a column one step (R2.6), and the exit leaving the complex (R4.2)."""

from __future__ import annotations

from companion.core.contract import Ctx, State
from companion.core.rejection import Rejected
from companion.games.room25 import board, grid, outcome
from companion.games.room25.data import EXIT


def _exit_leaving(s: State, pid: str, off: int | None) -> bool | None:
    """Whether pushing `off` off the edge makes the exit leave (True), is refused (None) or is an
    ordinary slide (False). Only a player inside the exit takes it out (R4.2). A face-up exit pushed by
    anyone else is refused; a closed tile always wraps, whatever it is, as it would on the table, so
    nobody learns anything from a slide."""
    if off is None or not board.is_open(s, off) or s["tiles"][off]["kind"] != EXIT:
        return False
    return True if board.tile_of(s, pid) == off else None


def legal(s: State, pid: str) -> list[str]:
    """Every slide `pid` may make now, as ``row1-left`` names."""
    out = []
    for line in grid.LINES:
        lock = s["locks"].get(line)
        for direction in grid.line_directions(line):
            if lock not in (None, direction):
                continue
            if _exit_leaving(s, pid, grid.pushed_off(s["grid"], line, direction)) is None:
                continue
            out.append(grid.slide_name(line, direction))
    return out


def check(s: State, pid: str, text: str) -> tuple[str, str]:
    parsed = grid.parse_slide(text)
    if parsed is None:
        raise Rejected("reject.room25_bad_slide", slide=text[:16])
    line, direction = parsed
    if line not in grid.LINES:  # R2.6: never the start room's row or column
        raise Rejected("reject.room25_start_line")
    lock = s["locks"].get(line)
    if lock not in (None, direction):  # R2.6: the first slide fixed the direction
        raise Rejected("reject.room25_line_locked", direction=f"kind.room25.dir.{lock}")
    if _exit_leaving(s, pid, grid.pushed_off(s["grid"], line, direction)) is None:
        raise Rejected("reject.room25_exit_from_inside")
    return line, direction


def slide(ctx: Ctx, pid: str, text: str) -> None:
    """Make the slide; the tile pushed off comes back at the other end with its occupants, who enter it
    again (R3 "slide-in"), unless it is the exit taken out by a player inside (R4.2)."""
    s = ctx.state
    line, direction = check(s, pid, text)
    off = grid.pushed_off(s["grid"], line, direction)
    leaving = _exit_leaving(s, pid, off) is True
    s["locks"][line] = direction
    grid.slide(s["grid"], line, direction, drop=leaving)
    ctx.announce("room25.slid", player=pid, line=f"kind.room25.line.{line[:3]}", index=int(line[3]) + 1,
                 direction=f"kind.room25.dir.{direction}")
    assert off is not None
    if leaving:
        outcome.escape(ctx, off)
        return
    riders = board.occupants(s, off)
    s["pending"][0:0] = [{"kind": "enter", "player": p, "tile": off, "how": "slide"} for p in riders]
