"""Setting up the complex, the roles and the teams (R1).

The referee deals from the seeded source kept in the state, in the order the rule text lays the tiles
(R1.1): the eight rooms of the ring, then the four edge middles, then the exit shuffled in with the
eleven rooms left over the twelve remaining outer cells. With physical tiles the table lays them and
the referee learns each room only when it is turned up; the same groups then say where the exit can be.
"""

from __future__ import annotations

import random
from typing import Any

from companion.core.rejection import Rejected
from companion.games.room25 import grid
from companion.games.room25.data import EXIT, START, TileSet
from companion.parts import roles

Tiles = list[dict[str, Any]]


def tiles(tileset: TileSet, mode: str, rng: random.Random | None) -> Tiles:
    """Every tile by id: its kind (None while the table has not said, with physical tiles) and whether
    it is face up. `rng` None: physical tiles, laid by the table."""
    out: Tiles = [{"kind": None, "open": False} for _ in range(grid.SIZE * grid.SIZE)]
    out[grid.START] = {"kind": START, "open": True}
    if rng is None:
        return out
    deck = tileset.deck(mode)
    rng.shuffle(deck)
    inner, rest = deck[:12], [*deck[12:], EXIT]
    rng.shuffle(rest)
    for cell, kind in zip([*grid.RING, *grid.EDGE_MIDDLES], inner, strict=True):
        out[grid.tile_id(cell)]["kind"] = kind
    for cell, kind in zip(grid.OUTER, rest, strict=True):
        out[grid.tile_id(cell)]["kind"] = kind
    return out


def role_cards(tileset: TileSet, count: int) -> list[str]:
    """The suspicion role cards for `count` players (R1.3)."""
    cards = tileset.modes["suspicion"].roles[count]
    return [role for role in ("guard", "prisoner") for _ in range(cards.get(role, 0))]


def deal_roles(tileset: TileSet, players: list[str], rng: random.Random) -> dict[str, Any]:
    """R1.3: shuffle the card mix and give one card each; a spare card stays face down, unseen."""
    return roles.deal(players, role_cards(tileset, len(players)), rng)


def teams(players: list[str], chosen: list[list[str]] | None) -> list[list[str]]:
    """R1.4: two equal teams. The table may name them; by default, alternate seats (A B A B ...)."""
    if chosen is None:
        return [players[0::2], players[1::2]]
    flat = [p for team in chosen for p in team]
    if len(chosen) != 2 or sorted(flat) != sorted(players) or len(chosen[0]) != len(chosen[1]):
        raise Rejected("reject.room25_teams")
    return [list(team) for team in chosen]


def check_players(tileset: TileSet, mode: str, count: int) -> None:
    allowed = tileset.modes[mode].players  # type: ignore[index]
    if count not in allowed:
        raise Rejected("reject.room25_players", mode=f"kind.room25.mode.{mode}", allowed=allowed, got=count)
