"""What the hall's pages are given (docs/hall.md): the hall's model, its store and the organiser's actions.

The pages only read the model's public snapshot (`HallModel.snapshot()`, its shape in docs/hall.md) and
wait on its version; they never see a table's broker, a credential or the log.
"""

from __future__ import annotations

from typing import Any, Protocol


class Model(Protocol):
    def snapshot(self) -> dict[str, Any]:
        """The hall's public snapshot (JSON-able)."""

    def wait_changed(self, since: int, timeout: float) -> int:
        """The snapshot's version once it is not `since`, or as it is after `timeout` seconds."""


class Store(Protocol):
    def players(self) -> list[dict[str, str]]:
        """The league's roster: each player's id and name."""


class Actions(Protocol):
    def send_seating(self, game: str, present_ids: list[str], tables: list[str], **round_options: Any) -> Any:
        """Seat the next round of `game` for the players present at `tables` (ValueError: it cannot be);
        `round_options`: pods=(low, high), byes=True, minutes=N when the organiser chose them."""

    def add_player(self, name: str, who: str | None = None) -> str:
        """A player added to the roster (ValueError: not a name); their league id."""

    def standings_csv(self) -> str:
        """The league standings as CSV."""
