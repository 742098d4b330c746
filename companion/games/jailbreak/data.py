"""The game's data files: the player-count table, the item deck and the prisoner characters.

Validated with `companion.core.gamedata`: a bad file names the key and the problem, and nothing starts.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from companion.core import gamedata

GAME_ID = "jailbreak"
#: Every card the text names (J2.5, J2.6), by use.
ATTACKS = ("knife", "bullet", "steel_pipe", "rope")
TRADES = ("cigarette", "cash", "vodka", "bible")
KEY = "key"
CARDS = (*ATTACKS, *TRADES, KEY)
#: Sheriff equipment (J1.1); the badge always goes to a sheriff and marks the role.
EQUIPMENT = ("badge", "pistol", "handcuffs", "baton")
ROLES = ("sheriff", "prisoner")
Card = Literal["knife", "bullet", "steel_pipe", "rope", "cigarette", "cash", "vodka", "bible", "key"]
SCENES = 6  # scene 1 is the start, scene 6 the last (the text's scene cards)
START_HAND = 4
DRAW = 2
HAND_LIMIT = 5


class Seats(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    sheriffs: int = Field(ge=1)
    prisoners: int = Field(ge=1)
    equipment: list[int] = Field(min_length=1)

    @model_validator(mode="after")
    def _pieces(self) -> Seats:
        if len(self.equipment) != self.sheriffs:
            raise ValueError("give each sheriff a number of equipment pieces")
        if any(n < 1 for n in self.equipment):
            raise ValueError("every sheriff holds at least one piece (the first holds the badge)")
        if sum(self.equipment) > len(EQUIPMENT):
            raise ValueError(f"there are only {len(EQUIPMENT)} pieces of sheriff equipment")
        return self


class Table(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    players: dict[int, Seats]

    @model_validator(mode="after")
    def _counts(self) -> Table:
        for n, seats in self.players.items():
            if seats.sheriffs + seats.prisoners != n:
                raise ValueError(f"{n} players: {seats.sheriffs} sheriffs + {seats.prisoners} prisoners differ")
        return self


class CardSpec(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    kind: Literal["attack", "trade", "move"]
    count: int = Field(ge=0, le=200)


class Deck(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    cards: dict[Card, CardSpec]

    @model_validator(mode="after")
    def _every_card(self) -> Deck:
        missing = set(CARDS) - set(self.cards)
        if missing:
            raise ValueError(f"the deck must list every card of the text; missing: {', '.join(sorted(missing))}")
        for name, spec in self.cards.items():
            want = "attack" if name in ATTACKS else "trade" if name in TRADES else "move"
            if spec.kind != want:
                raise ValueError(f"{name} is a {want} card, not {spec.kind}")
        return self

    @property
    def size(self) -> int:
        return sum(spec.count for spec in self.cards.values())


class Character(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str = Field(pattern=r"^[a-z0-9_]{1,24}$")
    skill: Literal["none"] = "none"


class Characters(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    characters: list[Character] = Field(min_length=1)

    @model_validator(mode="after")
    def _unique(self) -> Characters:
        ids = [c.id for c in self.characters]
        if len(set(ids)) != len(ids):
            raise ValueError("a character id is listed twice")
        return self


def load_table(path: Path) -> Table:
    return gamedata.load(path, Table)


def load_deck(path: Path) -> Deck:
    return gamedata.load(path, Deck)


def load_characters(path: Path) -> Characters:
    return gamedata.load(path, Characters)


@functools.cache
def table() -> Table:
    return load_table(gamedata.bundled(GAME_ID, "table.toml"))


@functools.cache
def deck() -> Deck:
    return load_deck(gamedata.bundled(GAME_ID, "deck.toml"))


@functools.cache
def characters() -> Characters:
    return load_characters(gamedata.bundled(GAME_ID, "characters.toml"))
