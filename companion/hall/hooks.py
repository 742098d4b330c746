"""The parts the hall process is made of, typed by what it calls (docs/hall.md): `HallStore`
(companion/hall/store.py), the league maths (companion/hall/league/) and the pages
(companion/hall/pages/server.py). The process (companion/hall/run.py) takes them as parameters.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from companion.hall.league import ratings, seating, standings
from companion.hall.pages.server import serve_pages
from companion.hall.store import HallStore

Seat = Callable[[list[tuple[str, float]], int, int, set[frozenset[str]]], list[list[str]]]


class Store(Protocol):
    """What the hall process asks of `companion.hall.store.HallStore` (the brief's API)."""

    def add_table(self, table_id: str) -> str: ...
    def table_passwords(self) -> dict[str, str]: ...
    def add_result(self, result: dict[str, Any]) -> bool: ...
    def results(self) -> list[dict[str, Any]]: ...
    def result_keys(self) -> set[tuple[str, str]]: ...
    def add_player(self, name: str) -> str: ...
    def players(self) -> list[dict[str, str]]: ...
    def save_seating(self, seating: dict[str, Any]) -> None: ...
    def last_seating(self) -> dict[str, Any] | None: ...
    def seatings(self) -> list[dict[str, Any]]: ...
    def setting(self, key: str, default: str) -> str: ...
    def set_setting(self, key: str, value: str) -> None: ...
    def add_correction(self, kind: str, args: dict[str, Any], who: str, at_ms: int) -> int: ...
    def corrections(self) -> list[dict[str, Any]]: ...
    def rename_player(self, player_id: str, name: str) -> None: ...
    def remove_player(self, player_id: str) -> None: ...
    def restore_player(self, player_id: str, name: str) -> None: ...


@dataclass(frozen=True)
class League:
    """companion/hall/league/: `seat`, `rate` (a Rating has `.ordinal`), `standings` and `to_csv`."""

    seat: Seat
    rate: Callable[[list[dict[str, Any]], list[str]], dict[str, Any]]
    standings: Callable[..., list[Any]]  # (results, roster, scoring=None)
    to_csv: Callable[[list[Any]], str]


def open_store(path: Path) -> Store:
    return HallStore(path)


def league() -> League:
    return League(seat=seating.seat, rate=ratings.rate, standings=standings.standings, to_csv=standings.to_csv)


PageServer = Callable[..., Any]


def page_server() -> PageServer:
    """`serve_pages(model, store, actions, port, host, organiser_key=...)` (companion/hall/pages/server.py)."""
    return serve_pages
