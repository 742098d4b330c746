"""Per-game credentials: a random password for each seat (player or host), each seat's join credential,
the allowed spectators, and which seats a phone has claimed.

A `GameCredentials` is made when the mirror starts a game and handed to the broker, which refuses
every other user name (and so every credential of an earlier game). It is immutable: claiming and
releasing a seat (`companion.phones.seating`) make a new one and hand that to the broker.

A seat's own password is known to no phone until one claims the seat: the QR code carries the seat's
**join** credential, and the first phone to use it sets the seat's password to one it made itself
(docs/phones.md). Passwords are never logged and never published: they leave the process only in the
join links (the QR codes), the kept file (mode 0600) and the broker's files.
"""

from __future__ import annotations

import contextlib
import dataclasses
import hmac
import json
import os
import secrets
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.phones.topics import Seat, host_user, join_user, parse_user, player_user, spectator_user

PASSWORD_BYTES = 18  # 144 bits, 24 URL-safe characters: fits a QR code that a phone camera reads at once


def new_password() -> str:
    return secrets.token_urlsafe(PASSWORD_BYTES)


@dataclass(frozen=True)
class Credential:
    user: str
    password: str = field(repr=False)

    @property
    def seat(self) -> Seat:
        seat = parse_user(self.user)
        assert seat is not None, self.user
        return seat


@dataclass(frozen=True)
class GameCredentials:
    """The phone credentials of one game at one table, and the referee's own login."""

    table: str
    game: int
    players: dict[str, Credential]  # by player id: each seat's own login
    host: Credential
    spectators: tuple[Credential, ...]
    referee_password: str = field(repr=False, default_factory=new_password)
    joins: dict[str, Credential] = field(default_factory=dict)  # by the user name of the seat it claims
    bound: frozenset[str] = frozenset()  # user names of the seats a phone has claimed

    @classmethod
    def issue(cls, table: str, game: int, player_ids: list[str], spectators: int = 0) -> GameCredentials:
        players = {pid: Credential(player_user(table, game, pid), new_password()) for pid in player_ids}
        joins = {c.user: Credential(join_user(table, game, pid), new_password()) for pid, c in players.items()}
        joins[host_user(table, game)] = Credential(join_user(table, game, None), new_password())
        return cls(
            table=table,
            game=game,
            players=players,
            host=Credential(host_user(table, game), new_password()),
            spectators=tuple(Credential(spectator_user(table, game, n), new_password())
                             for n in range(1, spectators + 1)),
            joins=joins,
        )

    def all(self) -> list[Credential]:
        return [*self.players.values(), self.host, *self.spectators, *self.joins.values()]

    def phone_users(self) -> dict[str, str]:
        """user -> password, for the broker's password file."""
        return {c.user: c.password for c in self.all()}

    def seat_of(self, user: str) -> Seat | None:
        """The seat of a user name this game issued, or None (unknown, or another table or game)."""
        seat = parse_user(user)
        if seat is None or seat.table != self.table or seat.game != self.game:
            return None
        return seat if user in self.phone_users() else None

    def check(self, user: str, password: str) -> bool:
        expected = self.phone_users().get(user)
        return expected is not None and hmac.compare_digest(expected.encode(), password.encode())

    # -- seats and phones -----------------------------------------------------------------------------

    def seat(self, user: str) -> Credential | None:
        """The login of a player's or the host's seat, by its user name."""
        if user == self.host.user:
            return self.host
        return next((c for c in self.players.values() if c.user == user), None)

    def join_of(self, user: str) -> Credential | None:
        """The join credential of a player's or the host's seat, by the seat's user name."""
        return self.joins.get(user)

    def bind(self, user: str, password: str) -> GameCredentials:
        """The seat `user` taken by a phone: its password is now the one the phone made."""
        return self._with_seat(user, password, bound=self.bound | {user})

    def release(self, user: str) -> GameCredentials:
        """The seat `user` free again (the host released it): a fresh seat password (the bound phone is
        out) and a new join user with a fresh password (a code photographed before no longer logs in,
        and the broker can drop every connection of the old join user by name)."""
        seat = parse_user(user)
        assert seat is not None, user
        join = Credential(join_user(self.table, self.game, seat.pid, secrets.token_hex(4)), new_password())
        fresh = dataclasses.replace(self, joins={**self.joins, user: join})
        return fresh._with_seat(user, new_password(), bound=self.bound - {user})

    def leave(self, user: str) -> GameCredentials:
        """The seat `user` free again because its own phone left it: a fresh seat password (no phone
        holds it), the same join credential, so the code that phone (or anyone at the table) has takes
        the seat back while it is free (docs/phones.md)."""
        return self._with_seat(user, new_password(), bound=self.bound - {user})

    def _with_seat(self, user: str, password: str, bound: frozenset[str]) -> GameCredentials:
        if user == self.host.user:
            return dataclasses.replace(self, host=Credential(user, password), bound=bound)
        pid = next(pid for pid, c in self.players.items() if c.user == user)
        return dataclasses.replace(self, players={**self.players, pid: Credential(user, password)}, bound=bound)

    def following(self, game: int, player_ids: list[str]) -> GameCredentials:
        """The credentials of the table's next game (the host's `table.new_game`): every user name is the
        new game's, so no credential of this game logs in any more. A seat a phone holds keeps that
        phone's password and stays bound if its player plays on (the host's seat always does), so the
        phone rejoins as the new game's seat on its own (docs/phones.md); every other seat gets a fresh
        password, and every seat a fresh join credential (a new QR code). Spectators keep theirs."""
        kept = {pid: c.password for pid, c in self.players.items() if c.user in self.bound}
        players = {pid: Credential(player_user(self.table, game, pid), kept.get(pid) or new_password())
                   for pid in player_ids}
        host = Credential(host_user(self.table, game),
                          self.host.password if self.host.user in self.bound else new_password())
        joins = {c.user: Credential(join_user(self.table, game, pid), new_password()) for pid, c in players.items()}
        joins[host.user] = Credential(join_user(self.table, game, None), new_password())
        bound = {players[pid].user for pid in kept if pid in players}
        if self.host.user in self.bound:
            bound.add(host.user)
        return GameCredentials(
            table=self.table, game=game, players=players, host=host,
            spectators=tuple(Credential(spectator_user(self.table, game, n), c.password)
                             for n, c in enumerate(self.spectators, start=1)),
            referee_password=self.referee_password, joins=joins, bound=frozenset(bound),
        )

    # -- kept across a restart ------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        return {
            "table": self.table, "game": self.game,
            "players": {pid: [c.user, c.password] for pid, c in self.players.items()},
            "host": [self.host.user, self.host.password],
            "spectators": [[c.user, c.password] for c in self.spectators],
            "referee": self.referee_password,
            "joins": {seat: [c.user, c.password] for seat, c in self.joins.items()},
            "bound": sorted(self.bound),
        }

    @classmethod
    def from_json(cls, obj: dict[str, Any]) -> GameCredentials:
        kept = cls(
            table=obj["table"], game=int(obj["game"]),
            players={pid: Credential(u, pw) for pid, (u, pw) in obj["players"].items()},
            host=Credential(*obj["host"]),
            spectators=tuple(Credential(u, pw) for u, pw in obj["spectators"]),
            referee_password=obj["referee"],
            joins={seat: Credential(u, pw) for seat, (u, pw) in obj["joins"].items()},
            bound=frozenset(obj["bound"]),
        )
        seats = {c.user for c in kept.players.values()} | {kept.host.user}
        if set(kept.joins) != seats or not kept.bound <= seats or not all(
                isinstance(c.user, str) and isinstance(c.password, str) for c in kept.all()):
            raise ValueError("kept credentials do not fit together")
        return kept

    @classmethod
    def kept(cls, path: Path, table: str, game: int, player_ids: list[str], spectators: int = 0) -> GameCredentials:
        """This game's credentials from `path` if it holds them (a restart after a power cut: bound phones
        rejoin with the password they made, the other seats' codes stay the same), else freshly issued
        and written there, mode 0600."""
        try:
            kept = cls.from_json(json.loads(path.read_text(encoding="utf-8")))
            if (kept.table, kept.game, list(kept.players), len(kept.spectators)) == (
                    table, game, player_ids, spectators):
                return kept
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            pass  # none kept, or unreadable, or from an older companion: issue new ones
        fresh = cls.issue(table, game, player_ids, spectators)
        with contextlib.suppress(OSError):  # a read-only state directory: phones work until the next restart
            fresh.keep(path)
        return fresh

    def keep(self, path: Path) -> None:
        """Write these credentials to `path` (mode 0600, replaced atomically, on disk when this returns)."""
        _write_private(path, self.to_json())

    def write_for_provisioning(self, path: Path) -> None:
        """The file an external broker's provisioning command reads (docs/mqtt.md), mode 0600."""
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            json.dump({"table": self.table, "game": self.game, "users": self.phone_users()}, fh, indent=1)
        os.replace(tmp, path)


def _write_private(path: Path, obj: object) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        json.dump(obj, fh)
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(tmp, path)
