"""Where the cards lie, when the table says so (E1.1, issue 31). The rule text: cards are joined "edge
to edge with the rooms' doors facing" (拼接版图时，需要卡牌的边缘相邻且房间门相对), and "a room is
adjacent if no blocked door lies between" (若两个房间之间不存在封锁的门则视为相邻); the access card
ignores blocked doors (E2.2).

The lab is a grid of rooms: the start card's Hall at (0, 0) and Dining room at (1, 0); x grows to the
east, y to the south. A card placed at (x, y) with rotation 0 has its first room (in the data) there and
its second to the east; 90 to the south, 180 to the west, 270 to the north. Blocked doors are the sides
(n, e, s, w, as they lie on the table) of the card's rooms the table says are shut. Two rooms with known
places are adjacent when their cells share a side and neither room's door on it is blocked; a step
between two rooms of which one has no known place is the table's to judge, as without geometry.
"""

from __future__ import annotations

from typing import Any, Literal

from companion.core.contract import Args, State
from companion.core.rejection import Rejected
from companion.games.lab_escape import data

Side = Literal["n", "e", "s", "w"]
Rotation = Literal[0, 90, 180, 270]
DIRECTIONS: dict[str, tuple[int, int]] = {"n": (0, -1), "e": (1, 0), "s": (0, 1), "w": (-1, 0)}
SECOND = {0: "e", 90: "s", 180: "w", 270: "n"}
OPPOSITE = {"n": "s", "s": "n", "e": "w", "w": "e"}
REACH = 9  # how far from the Hall a position may be


class Spot(Args):
    x: int
    y: int
    rotation: Rotation


class Door(Args):
    room: str
    side: Side


def fresh() -> dict[str, Any]:
    """The start card's place: the Hall at (0, 0), the Dining room east of it, no door blocked."""
    return {data.bundled().start.id: {"at": {"x": 0, "y": 0, "rotation": 0}, "blocked": []}}


def cells(card: str, at: dict[str, int]) -> dict[str, tuple[int, int]]:
    first, second = data.rooms_of_card()[card]
    dx, dy = DIRECTIONS[SECOND[at["rotation"]]]
    return {first: (at["x"], at["y"]), second: (at["x"] + dx, at["y"] + dy)}


def where(s: State) -> dict[str, tuple[int, int]]:
    """Every room of the lab with a known place, and its cell."""
    out: dict[str, tuple[int, int]] = {}
    for card, g in s["geometry"].items():
        out.update(cells(card, g["at"]))
    return out


def _touching(taken: dict[str, tuple[int, int]], mine: list[tuple[int, int]]) -> bool:
    occupied = set(taken.values())
    return any((x + dx, y + dy) in occupied for x, y in mine for dx, dy in DIRECTIONS.values())


def spot_free(s: State, card: str, at: dict[str, int]) -> str | None:
    """Why `card` cannot lie at `at` (a refusal code), or None: its cells are free and it touches the
    part of the lab whose places are known."""
    taken = where(s)
    mine = list(cells(card, at).values())
    if any(abs(v) > REACH for c in mine for v in c):
        return "reject.lab_escape_spot_apart"
    if set(mine) & set(taken.values()):
        return "reject.lab_escape_spot_taken"
    if not _touching(taken, mine):
        return "reject.lab_escape_spot_apart"
    return None


def free_spots(s: State, card: str) -> list[dict[str, int]]:
    """Every place `card` may lie now (for the forms), nearest the Hall first."""
    taken = where(s)
    near = {(x + dx, y + dy) for x, y in taken.values() for dx, dy in DIRECTIONS.values()}
    spots = []
    for x, y in sorted(near, key=lambda c: (abs(c[0]) + abs(c[1]), c[1], c[0])):
        for rot in (0, 90, 180, 270):
            for fx, fy in ((x, y), (x - DIRECTIONS[SECOND[rot]][0], y - DIRECTIONS[SECOND[rot]][1])):
                at = {"x": fx, "y": fy, "rotation": rot}
                if at not in spots and spot_free(s, card, at) is None:
                    spots.append(at)
    return spots


def place(s: State, card: str, at: Spot | None, blocked: list[Door] | None) -> None:
    """Record where `card` lies (E1.1), or nothing when the table gave no place."""
    if at is None:
        if blocked:
            raise Rejected("reject.lab_escape_spot_needed", card=data.card_word(card))
        return
    spot = at.model_dump()
    why = spot_free(s, card, spot)
    if why is not None:
        raise Rejected(why, card=data.card_word(card))
    rooms = data.rooms_of_card()[card]
    shut = []
    for door in blocked or []:
        if door.room not in rooms:
            raise Rejected("reject.lab_escape_blocked_room", room=data.room_word(door.room)
                           if door.room in data.room_index() else door.room[:32], card=data.card_word(card))
        if [door.room, door.side] not in shut:
            shut.append([door.room, door.side])
    s["geometry"][card] = {"at": spot, "blocked": shut}


def forget(s: State, card: str) -> None:
    """The Mechanism room moved `card`: its place is no longer known (the table judges its doors)."""
    s["geometry"].pop(card, None)


def _shut(s: State, room: str, side: str) -> bool:
    card = data.card_of_room()[room]
    g = s["geometry"].get(card)
    return g is not None and [room, side] in g["blocked"]


def check_step(s: State, here: str, there: str, access_card: bool) -> None:
    """A door step from `here` to `there` when both places are known: their cells share a side, and no
    door on it is blocked unless the player holds the access card (E2.2)."""
    known = where(s)
    if here not in known or there not in known:
        return  # E1.1: without geometry the table judges
    (x1, y1), (x2, y2) = known[here], known[there]
    side = next((d for d, (dx, dy) in DIRECTIONS.items() if (x1 + dx, y1 + dy) == (x2, y2)), None)
    if side is None:
        raise Rejected("reject.lab_escape_not_adjacent", room=data.room_word(there))
    if not access_card and (_shut(s, here, side) or _shut(s, there, OPPOSITE[side])):
        raise Rejected("reject.lab_escape_door_blocked", room=data.room_word(there))


def public(s: State, card: str) -> dict[str, Any]:
    g = s["geometry"].get(card)
    if g is None:
        return {"at": None, "blocked": []}
    return {"at": dict(g["at"]), "blocked": [{"room": r, "side": d} for r, d in g["blocked"]]}
