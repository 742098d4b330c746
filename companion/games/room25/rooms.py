"""Entering a room: turning it up, and its effect (R3). Effects that need a choice wait for it.

Entering happens by move, push, a slide that brings a tile back in at the other end ("slide-in"), or a
teleport (passage, warp, vortex, smoke). What is still to happen waits in ``state["pending"]``: the
head is resolved first, and whatever it causes goes in front of the rest (a chain is followed to its
end before the next player's turn comes). Items:

- ``enter``: automatic; a player arrives in a tile (used when several arrive at once);
- ``reveal``: waits for the table to say which room a physical tile is;
- ``choice``: waits for the player's choice in a passage, camera, control or smoke room.
"""

from __future__ import annotations

from typing import Any

from companion.core.contract import Ctx, State
from companion.games.room25 import board, grid, outcome, slides
from companion.games.room25.data import EXIT

WAITING = frozenset({"reveal", "choice"})
#: Rooms whose effect is a choice; only smoke must be taken (R3.3), the others "may" (R3.1).
CHOICE_ROOMS = frozenset({"passage", "camera", "control", "smoke"})
OPTIONAL = frozenset({"passage", "camera", "control"})


def queue_front(s: State, items: list[dict[str, Any]]) -> None:
    s["pending"][0:0] = items


def arrive(ctx: Ctx, pid: str, tile: int, how: str) -> None:
    """`pid` enters `tile` (R2.4, R2.5, R3): turn it up if closed, then its effect."""
    s = ctx.state
    if board.person(s, pid)["status"] != board.ALIVE:
        return
    board.person(s, pid)["tile"] = tile
    if not board.is_open(s, tile):
        if s["physical"]:
            queue_front(s, [{"kind": "reveal", "player": pid, "tile": tile, "how": how}])
            return
        turn_up(ctx, tile, s["tiles"][tile]["kind"])
    effect(ctx, pid, tile, how)


def turn_up(ctx: Ctx, tile: int, kind: str) -> None:
    """The room is face up for good; the first sight of the exit may shorten the game (R4.1)."""
    s = ctx.state
    s["tiles"][tile].update(kind=kind, open=True)
    ctx.announce("room25.room_revealed", room=f"kind.room25.room.{kind}", **(board.place(s, tile) or {}))
    if kind == EXIT and not s["exit_found"]:
        s["exit_found"] = True
        if s["turns"] == 10 and s["turn"] < 5:  # R4.1: exactly five turns follow this one
            s["last_turn"] = s["turn"] + 5
            ctx.announce("room25.countdown_reset", last=s["last_turn"])


def process(ctx: Ctx, item: dict[str, Any]) -> None:
    """Resolve an automatic pending item."""
    if item["kind"] == "enter":
        arrive(ctx, item["player"], item["tile"], item["how"])


def effect(ctx: Ctx, pid: str, tile: int, how: str) -> None:
    """R3: what the room does to who enters it."""
    s = ctx.state
    p = board.person(s, pid)
    kind = s["tiles"][tile]["kind"]
    if kind in CHOICE_ROOMS:
        if choices(s, kind, pid):
            if kind == "smoke" and len(choices(s, kind, pid)) == 1:  # only one way to go: no need to ask
                smoke_to(ctx, pid, choices(s, kind, pid)[0])
                return
            queue_front(s, [{"kind": "choice", "player": pid, "room": kind, "tile": tile}])
        return
    if kind == "warp":  # R3.1: to the other warp room if it is face up, else nothing
        other = next((t for t, x in enumerate(s["tiles"]) if x["kind"] == "warp" and t != tile), None)
        if other is not None and board.is_open(s, other) and board.cell_of_tile(s, other) is not None:
            p["tile"] = other  # arriving by warp does not warp back (docs/games/room25.md)
            ctx.announce("room25.warped", player=pid)
    elif kind == "cold":  # R3.2: one action next turn
        p["one_action_turn"] = s["turn"] + 1
        ctx.announce("room25.cold", player=pid)
    elif kind == "vortex":  # R3.2: back to the start room at once
        p["tile"] = grid.START
        ctx.announce("room25.vortex", player=pid)
    elif kind == "flooded":  # R3.3: dies at the end of the next turn if still here
        p["flood"] = {"tile": tile, "turn": s["turn"]}
        ctx.announce("room25.flooded", player=pid)
    elif kind == "trap":  # R3.3: the next action must get them out
        current = s["current"]
        p["trap"] = {"tile": tile, "wait": current is not None and current["player"] == pid}
        ctx.announce("room25.trapped", player=pid)
    elif kind == "acid" and how != "slide":  # R3.3: a second arrival kills who was there
        for there in board.occupants(s, tile):
            if there != pid:
                outcome.kill(ctx, there)
    elif kind == "death":  # R3.3
        outcome.kill(ctx, pid)


def choices(s: State, kind: str, pid: str) -> list[int]:
    """The tiles a passage, camera or smoke room offers (a control room offers slides instead)."""
    here = board.tile_of(s, pid)
    if kind == "passage":  # R3.1: any face-up room with nobody in it
        taken = {board.tile_of(s, p) for p in board.living(s)}
        return sorted(t for t in board.on_grid(s) if board.is_open(s, t) and t not in taken)
    if kind == "camera":  # R3.1: any closed room
        return board.closed(s)
    if kind == "smoke":  # R3.3: an adjacent closed room, else any closed room, else nothing
        assert here is not None
        near = sorted(t for t in grid.adjacent(s["grid"], here).values() if not board.is_open(s, t))
        return near or board.closed(s)
    if kind == "control":  # R3.1: a free control, if any slide is possible (the choice is the slide)
        return [1] if slides.legal(s, pid) else []
    return []


def smoke_to(ctx: Ctx, pid: str, tile: int) -> None:
    ctx.announce("room25.smoke", player=pid, **(board.place(ctx.state, tile) or {}))
    arrive(ctx, pid, tile, "teleport")


def peek(ctx: Ctx, pid: str, tile: int) -> None:
    """A private look (R2.3, camera R3.1): the player learns the room; the table sees only which tile.
    With physical tiles the player lifts the tile themselves, so the referee notes the tile only."""
    s = ctx.state
    kind = None if s["physical"] else s["tiles"][tile]["kind"]
    board.person(s, pid)["peeks"].append([tile, kind])
    ctx.announce("room25.looked", player=pid, **(board.place(s, tile) or {}))
