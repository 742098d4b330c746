"""The house as laid on the table (B2.1): the rooms placed, which floor each is on, what joins them,
and the item piles dropped in them. The house is a graph (issue 31; the rule text: rooms join "through
doorways, stairs or special passages"): a laid tile joins the room it was explored from and every other
room whose doorway its doorways face, as the table states them (checked against both tiles' doorways);
the data's stairs (`links`, both ways) and special passages (`passages`, one way or both) join rooms as
soon as both are laid. `joins` are the ways out of a room (a one-way passage is in its start's only).
A room's open doorways are its doors not yet used by a doorway join; a floor with no open doorway left
is closed, which exploring must never do (the referee counts doorways, the table sees the geometry:
docs/games/betrayal.md)."""

from __future__ import annotations

from typing import Any

from companion.core.contract import State
from companion.core.rejection import Rejected
from companion.games.betrayal import data

Room = dict[str, Any]


def _join(rooms: dict[str, Room], a: str, b: str) -> None:
    if b not in rooms[a]["joins"]:
        rooms[a]["joins"].append(b)


def _connect(rooms: dict[str, Room], d: data.DataSet, new: str) -> None:
    """The data's stairs and passages between `new` and the rooms already laid."""
    for a, b in d.house.links:
        if new in (a, b) and a in rooms and b in rooms:
            _join(rooms, a, b)
            _join(rooms, b, a)
    for p in d.house.passages:
        if new in (p.start, p.to) and p.start in rooms and p.to in rooms:
            _join(rooms, p.start, p.to)
            if not p.one_way:
                _join(rooms, p.to, p.start)


def fresh(d: data.DataSet) -> dict[str, Room]:
    rooms: dict[str, Room] = {r.id: {"floor": r.floors[0], "joins": [], "pile": []} for r in d.house.rooms if r.start}
    for rid in list(rooms):
        _connect(rooms, d, rid)
    return rooms


def _not_doorways(d: data.DataSet) -> set[frozenset[str]]:
    return {frozenset(link) for link in d.house.links} | {frozenset((p.start, p.to)) for p in d.house.passages}


def start_room(d: data.DataSet) -> str:
    """Explorers start in the ground floor's start room (the entrance hall)."""
    return next(r.id for r in d.house.rooms if r.start and r.floors == ["ground"])


def doorway_joins(s: State, rid: str) -> int:
    """Joins of `rid` that used a doorway (data links are stairs and passages, not doorways)."""
    other_ways = _not_doorways(data.of(s))
    return sum(1 for other in s["rooms"][rid]["joins"] if frozenset((rid, other)) not in other_ways)


def open_doors(s: State, rid: str) -> int:
    return data.of(s).room(rid).doors - doorway_joins(s, rid)


def floor_open(s: State, floor: str) -> int:
    return sum(open_doors(s, r) for r, room in s["rooms"].items() if room["floor"] == floor)


def unplaced(s: State, floor: str) -> list[str]:
    """Room tiles not yet in the house that may be laid on `floor` (the stack's other tiles are
    discarded by the table: B2.1)."""
    return [r.id for r in data.of(s).house.rooms if r.id not in s["rooms"] and floor in r.floors]


def check_explore(s: State, here: str) -> None:
    if open_doors(s, here) <= 0:
        raise Rejected("reject.betrayal_no_doorway", room=f"kind.betrayal.room.{here}")
    if not unplaced(s, s["rooms"][here]["floor"]):
        raise Rejected("reject.betrayal_floor_full")


def closes_floor(s: State, here: str | None, new: str, floor: str | None = None) -> bool:
    """Whether laying `new` through a doorway of `here` (or, with `here` None, on its own on `floor`: an
    explorer placed in a new room) leaves its floor without an open doorway."""
    used = 0 if here is None else 2
    where = floor if here is None else s["rooms"][here]["floor"]
    return floor_open(s, str(where)) + data.of(s).room(new).doors - used <= 0


def joinable(s: State, here: str | None, floor: str) -> list[str]:
    """The laid rooms of `floor` with an open doorway a new tile laid beyond `here` may also join."""
    return [r for r, room in s["rooms"].items() if room["floor"] == floor and r != here and open_doors(s, r) > 0]


def _check_each_join(s: State, floor: str, joins: list[str], seen: list[str]) -> None:
    """Each of `joins` a laid room of `floor` with an open doorway, named once and not among `seen` (the
    rooms the tile already joins), which it extends."""
    for other in joins:
        if other not in s["rooms"]:
            raise Rejected("reject.betrayal_join_not_laid", room=f"kind.betrayal.room.{other}"
                           if other in data.of(s).room_ids() else other[:24])
        if s["rooms"][other]["floor"] != floor:
            raise Rejected("reject.betrayal_join_floor", room=f"kind.betrayal.room.{other}")
        if other in seen:
            raise Rejected("reject.betrayal_join_twice", room=f"kind.betrayal.room.{other}")
        if open_doors(s, other) <= 0:
            raise Rejected("reject.betrayal_join_closed", room=f"kind.betrayal.room.{other}")
        seen.append(other)


def check_joins(s: State, here: str | None, new: str, floor: str, joins: list[str]) -> None:
    """The other rooms whose doorways the new tile's doorways face (issue 31): laid, on its floor, each
    with an open doorway, each once, and no more than the tile's doorways left."""
    seen = [] if here is None else [here]
    _check_each_join(s, floor, joins, seen)
    if len(seen) > data.of(s).room(new).doors:
        raise Rejected("reject.betrayal_join_doorways", room=f"kind.betrayal.room.{new}",
                       doors=data.of(s).room(new).doors)


def lay(s: State, here: str | None, new: str, joins: list[str] | None = None, floor: str | None = None) -> None:
    """B2.1: lay `new` beyond a doorway of `here` (with `here` None: on `floor`, where an event or a
    collapse put an explorer), its other doorways joining `joins`. Refused if it belongs to another
    floor, or closes the floor while another tile left would not (when every tile left would, the table
    moves tiles a little to keep a doorway open: B2.1)."""
    d = data.of(s)
    if new not in d.room_ids():
        raise Rejected("reject.betrayal_unknown_room", room=new[:24])
    if new in s["rooms"]:
        raise Rejected("reject.betrayal_room_placed", room=f"kind.betrayal.room.{new}")
    on = str(floor if here is None else s["rooms"][here]["floor"])
    if on not in d.room(new).floors:
        raise Rejected("reject.betrayal_wrong_floor", room=f"kind.betrayal.room.{new}",
                       floor=f"kind.betrayal.floor.{on}")
    check_joins(s, here, new, on, joins or [])
    if closes_floor(s, here, new, on):
        others = [r for r in unplaced(s, on) if r != new and not closes_floor(s, here, r, on)]
        if others:
            raise Rejected("reject.betrayal_closes_floor", room=f"kind.betrayal.room.{new}")
    s["rooms"][new] = {"floor": on, "joins": [], "pile": []}
    for other in ([] if here is None else [here]) + (joins or []):
        _join(s["rooms"], new, other)
        _join(s["rooms"], other, new)
    _connect(s["rooms"], d, new)


def join_more(s: State, room: str, others: list[str]) -> None:
    """Issue 31: doorways of laid `room` facing open doorways of other laid rooms, stated after the tile
    was laid (a token's tap lays it with its first join only): checked as `check_joins`, against the
    doorways `room` has left."""
    floor = s["rooms"][room]["floor"]
    seen = [room, *s["rooms"][room]["joins"]]
    _check_each_join(s, floor, others, seen)
    if len(others) > open_doors(s, room):
        raise Rejected("reject.betrayal_join_doorways", room=f"kind.betrayal.room.{room}",
                       doors=data.of(s).room(room).doors)
    for other in others:
        _join(s["rooms"], room, other)
        _join(s["rooms"], other, room)


def more_joins(s: State, room: str) -> list[str]:
    """The laid rooms `join_more` accepts for `room` now."""
    if open_doors(s, room) <= 0:
        return []
    return [r for r in joinable(s, room, s["rooms"][room]["floor"]) if r not in s["rooms"][room]["joins"]]


def joined(s: State, a: str, b: str) -> bool:
    return b in s["rooms"][a]["joins"]


def monster_exits(s: State, room: str) -> list[str]:
    """Where a monster may go from `room`: its joins, and back up a one-way passage monsters climb (the
    rule text: monsters climb back up the coal chute)."""
    back = [p.start for p in data.of(s).house.passages
            if p.monsters_climb and p.to == room and p.start in s["rooms"]]
    return [*s["rooms"][room]["joins"], *(r for r in back if r not in s["rooms"][room]["joins"])]


def layable(s: State, here: str | None, floor: str | None = None) -> list[str]:
    """The tiles `lay` accepts beyond a doorway of `here` (or on `floor` for a placed explorer) now."""
    on = str(floor if here is None else s["rooms"][here]["floor"])
    tiles = unplaced(s, on)
    keep_open = [r for r in tiles if not closes_floor(s, here, r, on)]
    return keep_open or tiles
