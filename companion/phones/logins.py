"""Who the embedded broker lets in, and its cache of ACL verdicts (docs/mqtt.md, "The embedded broker's CPU").

`Logins` holds the referee's password and the current game's credentials as one `Admitted` snapshot,
replaced whole (a single assignment, safe across threads) whenever the credentials change; the broker's
event loop reads one snapshot per check, so a verdict and the credentials it was made for never mix.
"""

from __future__ import annotations

import hmac
import threading
from collections.abc import Callable
from dataclasses import dataclass, field

from amqtt.contexts import Action

from companion.phones.credentials import GameCredentials
from companion.phones.topics import REFEREE_USER, Seat, parse_user

ACL_CACHE_MAX = 4096  # cached ACL verdicts per set of credentials (9 players and 200 spectators need ~2,300)


@dataclass(frozen=True)
class Admitted:
    """One game's logins as the broker sees them, swapped whole when the credentials change.

    `users` is every user name the game issued (what `GameCredentials.seat_of` accepts), computed once
    per change instead of once per message; `verdicts` caches the ACL's answers (`access` is a pure
    function of user and topic) for these credentials only: a change of credentials starts a new,
    empty cache. Only the broker's event loop reads and fills `verdicts`.
    """

    game: GameCredentials | None = None
    users: frozenset[str] = frozenset()
    verdicts: dict[tuple[Action, str, str], bool] = field(default_factory=dict)

    @classmethod
    def of(cls, game: GameCredentials) -> Admitted:
        """`GameCredentials.seat_of` for every issued name, in one pass (seat_of builds the name table)."""
        def ours(seat: Seat | None) -> bool:
            return seat is not None and seat.table == game.table and seat.game == game.game

        return cls(game, frozenset(u for u in game.phone_users() if ours(parse_user(u))))

    def known(self, user: str | None) -> bool:
        return user == REFEREE_USER or user in self.users


class Logins:
    """The users the broker lets in: the referee and the current game's phones (thread-safe swap)."""

    def __init__(self, prefix: str, referee_password: str) -> None:
        self.prefix = prefix
        self._referee = referee_password
        self.now = Admitted()  # replaced whole (one assignment) on every change of credentials
        self._lock = threading.Lock()
        self._phones: set[str] = set()  # connected phone client ids (= user names)
        self.on_phones: Callable[[int], None] | None = None  # told the count when it changes

    def phone_connected(self, client_id: str, connected: bool) -> None:
        if client_id == REFEREE_USER:
            return
        with self._lock:
            (self._phones.add if connected else self._phones.discard)(client_id)
            count = len(self._phones)
        if self.on_phones is not None:
            self.on_phones(count)

    @property
    def phones(self) -> int:
        with self._lock:
            return len(self._phones)

    def set_game(self, game: GameCredentials) -> None:
        self.now = Admitted.of(game)

    def check(self, user: str | None, password: str | None, client_id: str | None) -> bool:
        if not user or password is None or client_id != user:
            return False
        if user == REFEREE_USER:
            return hmac.compare_digest(self._referee.encode(), password.encode())
        game = self.now.game
        return game is not None and game.check(user, password)

    def known(self, user: str | None) -> bool:
        return user is not None and self.now.known(user)
