"""What the kiosk asks the phones' side about the seats (docs/phones.md): a seat's QR code, shown only
while no phone holds the seat; whether a phone holds it (never which); the host's release; and the
table's spectator page for the attract loop's QR code (a spectator's link: the public view only).

`companion run` hands the kiosk `companion.phones.serve.KioskSeats`; screenshots use `ShownSeats`.
A seat is a player id, or None for the host's seat.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol


class PhoneSeats(Protocol):
    def join_url(self, pid: str | None, game: int | None = None) -> str | None:
        """The URL the seat's QR code opens, or None once a phone holds the seat, and while the codes of
        game number `game` (the one on the screen) are on their way (`codes_coming`)."""

    def bound(self, pid: str | None) -> bool:
        """Whether a phone holds the seat."""

    def release(self, pid: str | None) -> bool:
        """Free the seat (its phone is dropped, its code changes); False if the table could not."""

    def codes_coming(self, game: int | None = None) -> bool:
        """Whether a new game's codes (game number `game`'s, if given) are on their way to the broker: for
        a moment no seat has a code to scan (one shown before its password reached the broker is refused)."""

    def watch_url(self, turn: int) -> str | None:
        """A spectator's link to the table's page (the public view only), or None when the host allows no
        spectators (`mqtt.spectators = 0`). `turn` picks one of the spectators' credentials in turn (each
        is one phone at a time: the broker takes the user name as the client id)."""


@dataclass
class ShownSeats:
    """Seats for screenshots: every seat's code from `url`, the seats in `taken` held by a phone."""

    url: Callable[[str | None], str]
    taken: set[str | None] = field(default_factory=set)
    watch: Callable[[int], str] | None = None  # a spectator's link (none: no spectators allowed)

    def join_url(self, pid: str | None, game: int | None = None) -> str | None:
        return None if pid in self.taken else self.url(pid)

    def bound(self, pid: str | None) -> bool:
        return pid in self.taken

    def codes_coming(self, game: int | None = None) -> bool:
        return False

    def release(self, pid: str | None) -> bool:
        self.taken.discard(pid)
        return True

    def watch_url(self, turn: int) -> str | None:
        return None if self.watch is None else self.watch(turn)
