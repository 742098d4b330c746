"""The game's data files: explorers (characters.toml), the house's rooms and cards (house.toml), and the
haunt table with each haunt's traitor rule, monsters and goals (haunts.toml).

Validated with `companion.core.gamedata`: a bad file names the file, the key and the problem, and
nothing starts. A table may bring its own set (the `data` option: a directory with the same three
files); the format is in docs/games/betrayal.md.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, model_validator

from companion.core import gamedata
from companion.core.contract import State
from companion.games.betrayal.options import is_day

GAME_ID = "betrayal"
TRAITS = ("speed", "might", "sanity", "knowledge")
PHYSICAL = ("speed", "might")
MENTAL = ("sanity", "knowledge")
FLOORS = ("basement", "ground", "upper")
Trait = Literal["speed", "might", "sanity", "knowledge"]
Floor = Literal["basement", "ground", "upper"]
CardKind = Literal["omen", "item", "event"]
Id = Field(min_length=1, max_length=24, pattern=r"^[a-z0-9_]+$")


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Track(Strict):
    """B1.1: a trait's values, lowest first; the skull lies below index 0."""

    values: list[int] = Field(min_length=2, max_length=12)
    start: int = Field(ge=0)

    @model_validator(mode="after")
    def _check(self) -> Track:
        if self.start >= len(self.values):
            raise ValueError(f"start {self.start} is past the track's {len(self.values)} values")
        if any(v < 0 for v in self.values) or self.values != sorted(self.values):
            raise ValueError("a track's values are 0 or more, lowest first")
        return self


class Character(Strict):
    id: str = Id
    card: str = Id
    birthday: str
    speed: Track
    might: Track
    sanity: Track
    knowledge: Track

    @model_validator(mode="after")
    def _check(self) -> Character:
        if not is_day(self.birthday):
            raise ValueError(f"birthday {self.birthday!r} must be MM-DD")
        return self

    def track(self, trait: str) -> Track:
        t: Track = getattr(self, trait)
        return t


class Characters(Strict):
    characters: list[Character] = Field(min_length=3)

    @model_validator(mode="after")
    def _unique(self) -> Characters:
        ids = [c.id for c in self.characters]
        if len(set(ids)) != len(ids):
            raise ValueError("two characters share an id")
        return self


class Room(Strict):
    id: str = Id
    floors: list[Floor] = Field(min_length=1)
    doors: int = Field(ge=1, le=4)
    card: CardKind | None = None
    start: bool = False


class Card(Strict):
    id: str = Id
    follows: bool = False  # B2.2, B4.3: the dog, the girl, the madman
    ranged: bool = False  # B4.1
    roll: Trait | None = None  # an event's forced roll


class Passage(Strict):
    """A special passage (the rule text: rooms join "through doorways, stairs or special passages"): from
    one room to another, both ways unless `one_way`; `monsters_climb` lets monsters go back against a
    one-way passage (the rule text: monsters climb back up the coal chute)."""

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)

    start: str = Field(alias="from", min_length=1, max_length=24)
    to: str = Field(min_length=1, max_length=24)
    one_way: bool = False
    monsters_climb: bool = False

    @model_validator(mode="after")
    def _check(self) -> Passage:
        if self.start == self.to:
            raise ValueError(f"passage {self.start}-{self.to} joins a room to itself")
        if self.monsters_climb and not self.one_way:
            raise ValueError(f"passage {self.start}-{self.to}: monsters_climb is for a one-way passage")
        return self


class House(Strict):
    rooms: list[Room] = Field(min_length=4)
    links: list[tuple[str, str]] = Field(default_factory=list)
    passages: list[Passage] = Field(default_factory=list)
    omens: list[Card] = Field(min_length=1)
    items: list[Card] = Field(min_length=1)
    events: list[Card] = Field(min_length=1)

    @model_validator(mode="after")
    def _check(self) -> House:
        ids = [r.id for r in self.rooms]
        cards = [c.id for c in (*self.omens, *self.items, *self.events)]
        if len(set(ids)) != len(ids):
            raise ValueError("two rooms share an id")
        if len(set(cards)) != len(cards):
            raise ValueError("two cards share an id")
        starts = [r for r in self.rooms if r.start]
        if {f for r in starts for f in r.floors} != set(FLOORS) or any(len(r.floors) != 1 for r in starts):
            raise ValueError("each floor needs its start room, each on one floor")
        for a, b in self.links:
            if a not in ids or b not in ids:
                raise ValueError(f"link {a}-{b} names an unknown room")
        for p in self.passages:
            for end in (p.start, p.to):
                if end not in ids:
                    raise ValueError(f"passage {p.start}-{p.to} names an unknown room: {end}")
        return self


class Rule(Strict):
    """B3.2: who the traitor is."""

    kind: Literal["named", "revealer", "highest", "lowest", "left", "none"]
    character: str | None = None
    trait: Trait | None = None
    fallback: Rule | None = None

    @model_validator(mode="after")
    def _check(self) -> Rule:
        if self.kind == "named" and (self.character is None or self.fallback is None):
            raise ValueError("a named traitor needs `character` and a `fallback` rule")
        if self.kind in ("highest", "lowest") and self.trait is None:
            raise ValueError(f"a {self.kind} rule needs `trait`")
        if self.fallback is not None and self.fallback.kind == "named":
            raise ValueError("a fallback cannot name a character again")
        return self


class Monster(Strict):
    """B5: a monster kind; a trait it lacks cannot be used to attack it."""

    kind: str = Id
    count: int = Field(ge=1, le=12)
    speed: int = Field(ge=0, le=8)
    might: int | None = Field(default=None, ge=0, le=8)
    sanity: int | None = Field(default=None, ge=0, le=8)
    knowledge: int | None = Field(default=None, ge=0, le=8)
    ranged: bool = False  # the rule text: some monsters attack at range (B4.1)

    def trait(self, name: str) -> int | None:
        v: int | None = getattr(self, name)
        return v


class Text(Strict):
    en: str = Field(min_length=1, max_length=600)
    zh: str = Field(min_length=1, max_length=600)
    th: str = Field(min_length=1, max_length=600)


class Goals(Strict):
    heroes: Text
    traitor: Text


class Haunt(Strict):
    number: int = Field(ge=1, le=999)
    rule: Rule
    monsters: list[Monster] = Field(default_factory=list)
    goals: Goals


class Haunts(Strict):
    table: dict[str, dict[str, int]]
    haunts: list[Haunt] = Field(min_length=1)

    @model_validator(mode="after")
    def _check(self) -> Haunts:
        numbers = [h.number for h in self.haunts]
        if len(set(numbers)) != len(numbers):
            raise ValueError("two haunts share a number")
        for omen, row in self.table.items():
            for room, n in row.items():
                if n not in numbers:
                    raise ValueError(f"table.{omen}.{room} points at haunt {n}, which is not listed")
        for h in self.haunts:
            kinds = [m.kind for m in h.monsters]
            if len(set(kinds)) != len(kinds):
                raise ValueError(f"haunt {h.number} lists a monster kind twice")
        return self


class DataSet(Strict):
    """The three files checked against each other."""

    characters: Characters
    house: House
    haunts: Haunts
    _chars: dict[str, Character] = PrivateAttr(default_factory=dict)
    _rooms: dict[str, Room] = PrivateAttr(default_factory=dict)
    _cards: dict[str, tuple[str, Card]] = PrivateAttr(default_factory=dict)
    _haunts: dict[int, Haunt] = PrivateAttr(default_factory=dict)

    def model_post_init(self, context: Any) -> None:
        """Indexes by id, so the rules look things up in constant time."""
        self._chars = {c.id: c for c in self.characters.characters}
        self._rooms = {r.id: r for r in self.house.rooms}
        for kind in ("omen", "item", "event"):
            self._cards.update({c.id: (kind, c) for c in self.cards(kind)})
        self._haunts = {h.number: h for h in self.haunts.haunts}

    @model_validator(mode="after")
    def _cross(self) -> DataSet:
        chars = {c.id for c in self.characters.characters}
        omens = {c.id for c in self.house.omens}
        omen_rooms = {r.id for r in self.house.rooms if r.card == "omen"}
        for omen in omens:
            missing = omen_rooms - set(self.haunts.table.get(omen, {}))
            if missing:
                raise ValueError(f"haunts table: omen {omen} has no number for {', '.join(sorted(missing))}")
        for omen, row in self.haunts.table.items():
            if omen not in omens:
                raise ValueError(f"haunts table: {omen} is not an omen of the house")
            stray = set(row) - omen_rooms
            if stray:
                raise ValueError(f"haunts table: {', '.join(sorted(stray))} show no omen")
        for h in self.haunts.haunts:
            if h.rule.kind == "named" and h.rule.character not in chars:
                raise ValueError(f"haunt {h.number} names {h.rule.character}, who is not a character")
        return self

    def character(self, cid: str) -> Character:
        return self._chars[cid]

    def room(self, rid: str) -> Room:
        return self._rooms[rid]

    def room_ids(self) -> list[str]:
        return [r.id for r in self.house.rooms]

    def cards(self, kind: str) -> list[Card]:
        return {"omen": self.house.omens, "item": self.house.items, "event": self.house.events}[kind]

    def card(self, cid: str) -> Card:
        return self._cards[cid][1]

    def card_kind(self, cid: str) -> str | None:
        found = self._cards.get(cid)
        return None if found is None else found[0]

    def haunt(self, number: int) -> Haunt:
        return self._haunts[number]


FILES = ("characters.toml", "house.toml", "haunts.toml")


def load(directory: Path) -> DataSet:
    """Read and check a data set: `directory` holds characters, house and haunts (.toml or .json)."""

    def one(stem: str, model: type[gamedata.M]) -> gamedata.M:
        for suffix in (".toml", ".json"):
            if (directory / f"{stem}{suffix}").exists():
                return gamedata.load(directory / f"{stem}{suffix}", model)
        raise gamedata.GameDataError(f"{directory}: no {stem}.toml or {stem}.json")

    chars, house, haunts = one("characters", Characters), one("house", House), one("haunts", Haunts)
    try:
        return DataSet(characters=chars, house=house, haunts=haunts)
    except ValueError as err:
        raise gamedata.GameDataError(f"{directory}: {err}") from None


@functools.cache
def cached(directory: str) -> DataSet:
    return load(Path(directory))


def bundled_dir() -> Path:
    return gamedata.bundled(GAME_ID, "characters.toml").parent


BUNDLED = str(bundled_dir())


def of(s: State) -> DataSet:
    """The data set a game was started with (the bundled one unless the table brought its own)."""
    return cached(s["data"] or BUNDLED)
