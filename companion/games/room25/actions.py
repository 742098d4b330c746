"""The four actions (R2.3-R2.6): what each may do now, and doing it.

The referee offers only legal choices; an action that has no legal choice when its time comes is
forfeited (R2.1: forfeited, never changed).
"""

from __future__ import annotations

from companion.core.contract import Ctx, State
from companion.core.rejection import Rejected
from companion.games.room25 import board, grid, rooms, slides

ACTIONS = ("look", "move", "push", "control")


def look_directions(s: State, pid: str) -> list[str]:
    """R2.3: an adjacent closed room; never from the dark room (R3.2)."""
    if board.room_here(s, pid) == "dark":
        return []
    here = board.tile_of(s, pid)
    assert here is not None
    return [d for d, t in grid.adjacent(s["grid"], here).items() if not board.is_open(s, t)]


def way_out(s: State, pid: str) -> list[str]:
    """R2.4: the directions `pid` can leave their room by; the prison lets them out only towards
    another player or back to the start room (R3.2)."""
    here = board.tile_of(s, pid)
    assert here is not None
    near = grid.adjacent(s["grid"], here)
    if board.room(s, here) != "prison":
        return list(near)
    return [d for d, t in near.items() if t == grid.START or any(o != pid for o in board.occupants(s, t))]


def push_targets(s: State, pid: str) -> list[str]:
    """R2.5: the others in the pusher's room; nobody is pushed out of the start room."""
    here = board.tile_of(s, pid)
    if here is None or here == grid.START:
        return []
    return [o for o in board.occupants(s, here) if o != pid and way_out(s, o)]


def possible(s: State, pid: str, action: str) -> bool:
    if action == "look":
        return bool(look_directions(s, pid))
    if action == "move":
        return bool(way_out(s, pid))
    if action == "push":
        return bool(push_targets(s, pid))
    return bool(slides.legal(s, pid))


def _direction(choices: list[str], direction: str, refusal: str) -> None:
    if direction not in grid.DIRECTIONS:
        raise Rejected("reject.room25_bad_direction", direction=direction[:8])
    if direction not in choices:
        raise Rejected(refusal)


def look(ctx: Ctx, pid: str, direction: str) -> None:
    s = ctx.state
    if board.room_here(s, pid) == "dark":
        raise Rejected("reject.room25_dark")
    _direction(look_directions(s, pid), direction, "reject.room25_not_closed")
    here = board.tile_of(s, pid)
    assert here is not None
    target = grid.neighbour(s["grid"], here, direction)
    assert target is not None
    rooms.peek(ctx, pid, target)


def move(ctx: Ctx, pid: str, direction: str) -> None:
    s = ctx.state
    _direction(way_out(s, pid), direction, _blocked(s, pid))
    here = board.tile_of(s, pid)
    assert here is not None
    target = grid.neighbour(s["grid"], here, direction)
    assert target is not None
    ctx.announce("room25.moved", player=pid, direction=f"kind.room25.dir.{direction}")
    rooms.arrive(ctx, pid, target, "move")


def push(ctx: Ctx, pid: str, target: str, direction: str) -> None:
    s = ctx.state
    if board.tile_of(s, pid) == grid.START:
        raise Rejected("reject.room25_push_start")
    if target not in push_targets(s, pid):
        raise Rejected("reject.room25_push_target")
    _direction(way_out(s, target), direction, _blocked(s, target))
    here = board.tile_of(s, target)
    assert here is not None
    into = grid.neighbour(s["grid"], here, direction)
    assert into is not None
    ctx.announce("room25.pushed", player=pid, target=target, direction=f"kind.room25.dir.{direction}")
    rooms.arrive(ctx, target, into, "push")


def control(ctx: Ctx, pid: str, slide: str) -> None:
    slides.slide(ctx, pid, slide)


def _blocked(s: State, pid: str) -> str:
    return "reject.room25_prison" if board.room_here(s, pid) == "prison" else "reject.room25_no_room"
