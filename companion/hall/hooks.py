"""The parts of the hall that other modules provide, as the hall process uses them (docs/hall.md).

`HallStore` (companion/hall/store.py), the league maths (companion/hall/league/) and the pages
(companion/hall/pages/server.py) are looked up here, once, by module name, and typed by what the hall
process calls: the process (companion/hall/run.py) and its tests take them as parameters.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

Seat = Callable[[list[tuple[str, float]], int, int, set[frozenset[str]]], list[list[str]]]


class Store(Protocol):
    """What the hall process asks of `companion.hall.store.HallStore` (the brief's API)."""

    def add_table(self, table_id: str) -> str: ...
    def table_passwords(self) -> dict[str, str]: ...
    def add_result(self, result: dict[str, Any]) -> bool: ...
    def results(self) -> list[dict[str, Any]]: ...
    def add_player(self, name: str) -> str: ...
    def players(self) -> list[dict[str, str]]: ...
    def save_seating(self, seating: dict[str, Any]) -> None: ...
    def last_seating(self) -> dict[str, Any] | None: ...


@dataclass(frozen=True)
class League:
    """companion/hall/league/: `seat`, `rate` (a Rating has `.ordinal`), `standings` and `to_csv`."""

    seat: Seat
    rate: Callable[[list[dict[str, Any]], list[str]], dict[str, Any]]
    standings: Callable[[list[dict[str, Any]], list[dict[str, str]]], list[Any]]
    to_csv: Callable[[list[Any]], str]


def open_store(path: Path) -> Store:
    store: Store = importlib.import_module("companion.hall.store").HallStore(path)
    return store


def league() -> League:
    seating = importlib.import_module("companion.hall.league.seating")
    ratings = importlib.import_module("companion.hall.league.ratings")
    standings = importlib.import_module("companion.hall.league.standings")
    return League(seat=seating.seat, rate=ratings.rate, standings=standings.standings, to_csv=standings.to_csv)


PageServer = Callable[[Any, Store, Any, int], Any]


def page_server() -> PageServer | None:
    """`serve_pages(model, store, actions, port)` from companion/hall/pages/server.py, if it is there."""
    try:
        module = importlib.import_module("companion.hall.pages.server")
    except ModuleNotFoundError as err:
        if err.name not in ("companion.hall.pages", "companion.hall.pages.server"):
            raise  # the pages are there but something they import is not: say so
        return None
    serve: PageServer = module.serve_pages
    return serve
