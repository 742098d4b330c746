"""Items (E3.3, E3.4): taken from the supply, never two alike, cubes used up, weapons placed in rooms
whose items are all gone, and what lies on a room's floor picked up by the next player to enter."""

from __future__ import annotations

from companion.core.contract import Ctx, State
from companion.core.rejection import Rejected
from companion.games.lab_escape import board, data


def held(s: State, pid: str, item: str) -> bool:
    return item in board.person(s, pid)["items"]


def gain(ctx: Ctx, pid: str, item: str) -> None:
    """E3.3: a player never holds two alike; the second goes to the floor of their room."""
    p = board.person(ctx.state, pid)
    if item in p["items"]:
        ctx.state["floor"].setdefault(p["room"], []).append(item)
        ctx.announce("lab_escape.item_dropped", player=pid, item=data.item_word(item), room=data.room_word(p["room"]))
        return
    p["items"].append(item)
    p["items"].sort()
    ctx.announce("lab_escape.item_gained", player=pid, item=data.item_word(item))


def lose(s: State, pid: str, item: str) -> None:
    board.person(s, pid)["items"].remove(item)


def spend(ctx: Ctx, pid: str, item: str) -> None:
    """Use up a cube (E3.3): it leaves the game, never back to the supply."""
    if not held(ctx.state, pid, item):
        raise Rejected("reject.lab_escape_item_missing", item=data.item_word(item))
    lose(ctx.state, pid, item)
    ctx.state["spent"][item] = ctx.state["spent"].get(item, 0) + 1
    ctx.announce("lab_escape.item_used", player=pid, item=data.item_word(item))


def available(s: State, item: str) -> bool:
    return int(s["supply"].get(item, 0)) > 0


def take(ctx: Ctx, pid: str, item: str) -> None:
    """Take `item` from the supply; then any room whose items are all gone gets its weapon (E3.4)."""
    if not available(ctx.state, item):
        raise Rejected("reject.lab_escape_supply_empty", item=data.item_word(item))
    ctx.state["supply"][item] -= 1
    gain(ctx, pid, item)
    arm_empty_rooms(ctx)


def arm_empty_rooms(ctx: Ctx) -> None:
    """E3.4: when a room that hands out items has none left, a weapon is placed there at once (once per
    room, while the supply has weapons). Operating room and tool room share the keys, so both are armed
    when the last key goes; a room whose items ran out before its card was placed is armed on placing."""
    s = ctx.state
    for room in board.rooms_in_play(s):
        gives = data.kind_of(room).gives
        if not gives or room in s["armed"] or any(available(s, g) for g in gives):
            continue
        s["armed"].append(room)
        if available(s, data.WEAPON):
            s["supply"][data.WEAPON] -= 1
            s["floor"].setdefault(room, []).append(data.WEAPON)
            ctx.announce("lab_escape.weapon_placed", room=data.room_word(room))


def pick_up(ctx: Ctx, pid: str, room: str) -> None:
    """E3.4: a player entering a room takes what lies there (a weapon, dropped items), one of each kind
    they do not hold already; the rest stays for the next (E3.3)."""
    floor = ctx.state["floor"].get(room)
    if not floor:
        return
    for item in sorted(set(floor)):
        if not held(ctx.state, pid, item):
            floor.remove(item)
            gain(ctx, pid, item)
    if not floor:
        del ctx.state["floor"][room]


def drop_all(ctx: Ctx, pid: str) -> None:
    """E6.1: a stuck player leaves everything in the room they are in."""
    p = board.person(ctx.state, pid)
    if p["items"]:
        ctx.state["floor"].setdefault(p["room"], []).extend(p["items"])
    p["items"] = []
