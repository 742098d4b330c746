"""The game's data file: room kinds, items with their counts, and the nine two-room cards with vents.

Validated with `companion.core.gamedata`: a bad file names the key and the problem, and nothing starts.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from companion.core import gamedata

GAME_ID = "lab_escape"
HALL = "hall"
WEAPON = "weapon"
USB_KEY = "usb_key"
#: The rooms whose code the rules define (E5); a data file may pair and vent them as it likes.
KINDS = ("hall", "dining", "corridor", "garden", "kitchen", "pharmacy", "storage", "game_room", "telegraph",
         "darkroom", "dark_chamber", "mechanism", "operating", "secret_passage", "control", "archive")
#: Items the rooms and rules refer to by name.
ITEMS = ("cat", "food", "coffee", "adrenaline", "wrench", "access_card", "pipe_map", "key", "usb_key", "weapon")


class Kind(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    effect: Literal["trigger", "activate", "special", "none"]
    target: int | None = Field(default=None, ge=2, le=20)
    last_target: int | None = Field(default=None, ge=2, le=20)
    per_item: int = Field(default=0, ge=0, le=6)
    gives: list[str] = Field(default_factory=list)


class Item(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    shape: Literal["cube", "circle"]
    colour: str
    count: int = Field(ge=0, le=40)
    halved: bool = True


class Room(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str = Field(pattern=r"^[a-z][a-z0-9_]{0,31}$")
    kind: str
    vent: bool = False


class Card(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str = Field(pattern=r"^[a-z][a-z0-9_]{0,31}$")
    rooms: list[Room] = Field(min_length=2, max_length=2)
    start: bool = False


class LabSet(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    kinds: dict[str, Kind]
    items: dict[str, Item]
    cards: list[Card] = Field(min_length=2)

    @model_validator(mode="after")
    def _consistent(self) -> LabSet:
        missing = [k for k in KINDS if k not in self.kinds]
        if missing:
            raise ValueError(f"every room kind of the rules needs its entry: {', '.join(missing)}")
        unknown = sorted(set(self.kinds) - set(KINDS))
        if unknown:
            raise ValueError(f"the rules know no room kind {', '.join(unknown)}")
        lacking = [i for i in ITEMS if i not in self.items]
        if lacking:
            raise ValueError(f"every item of the rules needs its entry: {', '.join(lacking)}")
        if self.items[USB_KEY].count != 1 or self.items[USB_KEY].halved:
            raise ValueError("there is exactly one USB key, never halved (E6.2)")
        for name, kind in self.kinds.items():
            bad = [g for g in kind.gives if g not in self.items]
            if bad:
                raise ValueError(f"room kind {name} gives unknown items: {', '.join(bad)}")
        cards = [c.id for c in self.cards]
        if len(set(cards)) != len(cards):
            raise ValueError("two cards share an id")
        rooms = [r for c in self.cards for r in c.rooms]
        ids = [r.id for r in rooms]
        if len(set(ids)) != len(ids):
            raise ValueError("two rooms share an id")
        bad_kinds = sorted({r.kind for r in rooms} - set(self.kinds))
        if bad_kinds:
            raise ValueError(f"rooms of unknown kinds: {', '.join(bad_kinds)}")
        starts = [c for c in self.cards if c.start]
        if len(starts) != 1 or HALL not in [r.id for r in starts[0].rooms]:
            raise ValueError("exactly one card starts the lab, and it holds the hall")
        if [r.id for r in rooms if r.kind == HALL] != [HALL]:
            raise ValueError("there is one hall, with the id 'hall'")
        return self

    @property
    def start(self) -> Card:
        return next(c for c in self.cards if c.start)

    def card(self, card_id: str) -> Card:
        return next(c for c in self.cards if c.id == card_id)

    def rooms(self) -> dict[str, Room]:
        return {r.id: r for c in self.cards for r in c.rooms}

    def counts(self, players: int) -> dict[str, int]:
        """E1.2: the supply; with 2 players every halved count is halved, rounded down."""
        return {name: (i.count // 2 if players == 2 and i.halved else i.count) for name, i in self.items.items()}


def load(path: Path) -> LabSet:
    return gamedata.load(path, LabSet)


@functools.cache
def bundled() -> LabSet:
    """The shipped set (read and checked once)."""
    return load(gamedata.bundled(GAME_ID, "lab.toml"))


@functools.cache
def room_index() -> dict[str, Room]:
    return bundled().rooms()


@functools.cache
def rooms_of_card() -> dict[str, tuple[str, ...]]:
    return {c.id: tuple(r.id for r in c.rooms) for c in bundled().cards}


@functools.cache
def card_of_room() -> dict[str, str]:
    return {r.id: c.id for c in bundled().cards for r in c.rooms}


def kind_of(room: str) -> Kind:
    return bundled().kinds[room_index()[room].kind]


def is_cube(item: str) -> bool:
    return bundled().items[item].shape == "cube"


def room_word(room: str) -> str:
    """A room's name as a message param (translated on screen)."""
    return f"kind.lab_escape.room.{room}"


def card_word(card: str) -> str:
    return f"kind.lab_escape.card.{card}"


def item_word(item: str) -> str:
    return f"kind.lab_escape.item.{item}"
