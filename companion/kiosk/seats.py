"""What the kiosk asks the phones' side about the seats (docs/phones.md): a seat's QR code, shown only
while no phone holds the seat; whether a phone holds it (never which); and the host's release.

`companion run` hands the kiosk `companion.phones.serve.KioskSeats`; screenshots use `ShownSeats`.
A seat is a player id, or None for the host's seat.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol


class PhoneSeats(Protocol):
    def join_url(self, pid: str | None) -> str | None:
        """The URL the seat's QR code opens, or None once a phone holds the seat."""

    def bound(self, pid: str | None) -> bool:
        """Whether a phone holds the seat."""

    def release(self, pid: str | None) -> bool:
        """Free the seat (its phone is dropped, its code changes); False if the table could not."""


@dataclass
class ShownSeats:
    """Seats for screenshots: every seat's code from `url`, the seats in `taken` held by a phone."""

    url: Callable[[str | None], str]
    taken: set[str | None] = field(default_factory=set)

    def join_url(self, pid: str | None) -> str | None:
        return None if pid in self.taken else self.url(pid)

    def bound(self, pid: str | None) -> bool:
        return pid in self.taken

    def release(self, pid: str | None) -> bool:
        self.taken.discard(pid)
        return True
