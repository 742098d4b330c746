"""Per-game credentials: a random password for each player, the host and the allowed spectators.

A `GameCredentials` is made when the mirror starts a game and handed to the broker, which refuses
every other user name (and so every credential of an earlier game). Passwords are never logged and
never published: they leave the process only in the join link (the QR code) and the broker's files.
"""

from __future__ import annotations

import contextlib
import hmac
import json
import os
import secrets
from dataclasses import dataclass, field
from pathlib import Path

from companion.phones.topics import Seat, host_user, parse_user, player_user, spectator_user

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
    players: dict[str, Credential]  # by player id
    host: Credential
    spectators: tuple[Credential, ...]
    referee_password: str = field(repr=False, default_factory=new_password)

    @classmethod
    def issue(cls, table: str, game: int, player_ids: list[str], spectators: int = 0) -> GameCredentials:
        return cls(
            table=table,
            game=game,
            players={pid: Credential(player_user(table, game, pid), new_password()) for pid in player_ids},
            host=Credential(host_user(table, game), new_password()),
            spectators=tuple(Credential(spectator_user(table, game, n), new_password())
                             for n in range(1, spectators + 1)),
        )

    def all(self) -> list[Credential]:
        return [*self.players.values(), self.host, *self.spectators]

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

    @classmethod
    def kept(cls, path: Path, table: str, game: int, player_ids: list[str], spectators: int = 0) -> GameCredentials:
        """This game's credentials from `path` if it holds them (a restart after a power cut: phones
        rejoin with the link they scanned), else freshly issued and written there, mode 0600."""
        try:
            obj = json.loads(path.read_text(encoding="utf-8"))
            kept = cls(
                table=obj["table"], game=int(obj["game"]),
                players={pid: Credential(u, pw) for pid, (u, pw) in obj["players"].items()},
                host=Credential(*obj["host"]),
                spectators=tuple(Credential(u, pw) for u, pw in obj["spectators"]),
                referee_password=obj["referee"],
            )
            if (kept.table, kept.game, list(kept.players), len(kept.spectators)) == (
                    table, game, player_ids, spectators):
                return kept
        except (OSError, ValueError, KeyError, TypeError):
            pass  # none kept, or unreadable: issue new ones
        fresh = cls.issue(table, game, player_ids, spectators)
        with contextlib.suppress(OSError):  # a read-only state directory: phones work until the next restart
            _write_private(path, {
                "table": table, "game": game,
                "players": {pid: [c.user, c.password] for pid, c in fresh.players.items()},
                "host": [fresh.host.user, fresh.host.password],
                "spectators": [[c.user, c.password] for c in fresh.spectators],
                "referee": fresh.referee_password,
            })
        return fresh

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
