"""The house as laid on the table (B2.1): the rooms placed, which floor each is on, what joins them,
and the item piles dropped in them. Rooms are joined by the doorway an explorer went through, or by the
data's stairs and passages. A room's open doorways are its doors not yet used by a join; a floor with
no open doorway left is closed, which exploring must never do (the referee counts doorways, the table
sees the geometry: docs/games/betrayal.md)."""

from __future__ import annotations

from typing import Any

from companion.core.contract import State
from companion.core.rejection import Rejected
from companion.games.betrayal import data

Room = dict[str, Any]


def fresh(d: data.DataSet) -> dict[str, Room]:
    rooms: dict[str, Room] = {r.id: {"floor": r.floors[0], "joins": [], "pile": []} for r in d.house.rooms if r.start}
    for a, b in d.house.links:
        if a in rooms and b in rooms:
            rooms[a]["joins"].append(b)
            rooms[b]["joins"].append(a)
    return rooms


def start_room(d: data.DataSet) -> str:
    """Explorers start in the ground floor's start room (the entrance hall)."""
    return next(r.id for r in d.house.rooms if r.start and r.floors == ["ground"])


def doorway_joins(s: State, rid: str) -> int:
    """Joins of `rid` that used a doorway (data links are stairs and passages, not doorways)."""
    links = {frozenset(link) for link in data.of(s).house.links}
    return sum(1 for other in s["rooms"][rid]["joins"] if frozenset((rid, other)) not in links)


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


def closes_floor(s: State, here: str, new: str) -> bool:
    """Whether laying `new` through a doorway of `here` leaves its floor without an open doorway."""
    floor = s["rooms"][here]["floor"]
    return floor_open(s, floor) - 1 + data.of(s).room(new).doors - 1 <= 0


def lay(s: State, here: str, new: str) -> None:
    """B2.1: lay `new` beyond a doorway of `here`. Refused if it belongs to another floor, or closes the
    floor while another tile left would not (when every tile left would, the table moves tiles a little
    to keep a doorway open: B2.1)."""
    d = data.of(s)
    if new not in d.room_ids():
        raise Rejected("reject.betrayal_unknown_room", room=new[:24])
    if new in s["rooms"]:
        raise Rejected("reject.betrayal_room_placed", room=f"kind.betrayal.room.{new}")
    floor = s["rooms"][here]["floor"]
    if floor not in d.room(new).floors:
        raise Rejected("reject.betrayal_wrong_floor", room=f"kind.betrayal.room.{new}",
                       floor=f"kind.betrayal.floor.{floor}")
    if closes_floor(s, here, new):
        others = [r for r in unplaced(s, floor) if r != new and not closes_floor(s, here, r)]
        if others:
            raise Rejected("reject.betrayal_closes_floor", room=f"kind.betrayal.room.{new}")
    s["rooms"][new] = {"floor": floor, "joins": [here], "pile": []}
    s["rooms"][here]["joins"].append(new)


def joined(s: State, a: str, b: str) -> bool:
    return b in s["rooms"][a]["joins"]


def layable(s: State, here: str) -> list[str]:
    """The tiles `lay` accepts beyond a doorway of `here` now."""
    tiles = unplaced(s, s["rooms"][here]["floor"])
    keep_open = [r for r in tiles if not closes_floor(s, here, r)]
    return keep_open or tiles
