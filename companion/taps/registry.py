"""The token registry: which game token each NFC tag is (UID -> game, kind, id, label), in SQLite.

Its own file beside the game log (`registry_path`), so a box's tags outlive any game and can be copied
to another Pi with `export`/`import_` (a JSON file, `FORMAT`). A player's own figure is a token of kind
``player`` whose id is the player id. Kinds other than ``player`` are the game's (see its `on_token`).
"""

from __future__ import annotations

import contextlib
import sqlite3
import threading
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, StringConstraints, ValidationError

from companion.statedir import create_private_file

PLAYER = "player"
FORMAT = "companion-tokens"
VERSION = 1
UID_PATTERN = r"^(?:[0-9A-F]{8}|[0-9A-F]{14}|[0-9A-F]{20})$"  # 4-, 7- or 10-byte ISO 14443A UIDs
WORD = r"^[a-z0-9][a-z0-9_.:-]{0,63}$"
TOKEN_ID = r"^[A-Za-z0-9][A-Za-z0-9_.:-]{0,63}$"  # a game's own ids keep their case (lockdown rooms: B101)

Uid = Annotated[str, StringConstraints(pattern=UID_PATTERN)]
Word = Annotated[str, StringConstraints(pattern=WORD)]
TokenId = Annotated[str, StringConstraints(pattern=TOKEN_ID)]
Label = Annotated[str, StringConstraints(min_length=1, max_length=60, pattern=r"^[^\x00-\x1f]+$")]


class RegistryError(Exception):
    """A bad UID, token or import file: says what and where."""


class TokenModel(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)
    uid: Uid
    game: Word
    kind: Word
    id: TokenId
    label: Label


class ExportFile(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    format: Literal["companion-tokens"]
    version: Literal[1]
    tokens: list[TokenModel]


@dataclass(frozen=True)
class Token:
    uid: str
    game: str
    kind: str
    id: str
    label: str

    @property
    def is_player(self) -> bool:
        return self.kind == PLAYER


def normalize_uid(text: str) -> str:
    """A UID as the drivers write it: upper-case hex without separators (``04:a1:b2`` -> ``04A1B2``)."""
    return "".join(ch for ch in text if ch not in ":- ").upper()


def registry_path(log_path: Path) -> Path:
    """The registry file next to the game log: ``companion.sqlite3`` -> ``companion.tokens.sqlite3``."""
    return log_path.with_name(f"{log_path.stem}.tokens.sqlite3")


def check(uid: str, game: str, kind: str, token_id: str, label: str | None = None) -> Token:
    """A valid token, or RegistryError naming the bad field."""
    try:
        model = TokenModel(uid=normalize_uid(uid), game=game, kind=kind, id=token_id, label=label or token_id)
    except ValidationError as err:
        first = err.errors()[0]
        raise RegistryError(f"{'.'.join(map(str, first['loc']))}: {first['msg']} "
                            f"(got {first['input']!r})") from None
    return Token(**model.model_dump())


class Registry:
    """Thread-safe (one connection, one lock): the router reads on the main loop, enrollment writes."""

    def __init__(self, path: Path | str) -> None:
        self.path = path
        self._lock = threading.Lock()
        if str(path) != ":memory:":  # 0600 whatever the umask (its -wal and -shm follow); if it cannot be
            with contextlib.suppress(OSError):  # created, SQLite says why
                create_private_file(Path(path))
        self._db = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.execute(
            "CREATE TABLE IF NOT EXISTS tokens (uid TEXT PRIMARY KEY, game TEXT NOT NULL, kind TEXT NOT NULL,"
            " id TEXT NOT NULL, label TEXT NOT NULL)"
        )

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def __enter__(self) -> Registry:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def lookup(self, uid: str) -> Token | None:
        with self._lock:
            row = self._db.execute("SELECT uid, game, kind, id, label FROM tokens WHERE uid = ?",
                                   (normalize_uid(uid),)).fetchone()
        return Token(*row) if row else None

    def enroll(self, token: Token) -> Token | None:
        """Store `token` (checked), replacing what its UID was before; returns what it replaced."""
        token = check(token.uid, token.game, token.kind, token.id, token.label)
        with self._lock:
            row = self._db.execute("SELECT uid, game, kind, id, label FROM tokens WHERE uid = ?",
                                   (token.uid,)).fetchone()
            self._db.execute("INSERT OR REPLACE INTO tokens VALUES (?, ?, ?, ?, ?)", _row(token))
        return Token(*row) if row else None

    def forget(self, uid: str) -> bool:
        with self._lock:
            cur = self._db.execute("DELETE FROM tokens WHERE uid = ?", (normalize_uid(uid),))
        return cur.rowcount > 0

    def tokens(self, game: str | None = None) -> list[Token]:
        query = "SELECT uid, game, kind, id, label FROM tokens"
        params: tuple[str, ...] = ()
        if game is not None:
            query, params = query + " WHERE game = ?", (game,)
        with self._lock:
            rows = self._db.execute(query + " ORDER BY game, kind, id, uid", params).fetchall()
        return [Token(*row) for row in rows]

    # -- a box's tags as a file -----------------------------------------------------------------------

    def export(self, game: str | None = None) -> dict[str, Any]:
        return {"format": FORMAT, "version": VERSION, "tokens": [asdict(t) for t in self.tokens(game)]}

    def import_(self, data: Any, *, replace: bool = False) -> tuple[int, int, list[Token]]:
        """Add the tokens of an export; returns (added, unchanged, conflicts). A UID this registry knows
        as another token is a conflict: unless `replace`, any conflict (or a bad file) changes nothing."""
        tokens = parse_export(data)
        added, same, conflicts = 0, 0, []  # added counts what the file brings, even if rolled back
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                for token in tokens:
                    row = self._db.execute("SELECT uid, game, kind, id, label FROM tokens WHERE uid = ?",
                                           (token.uid,)).fetchone()
                    if row and Token(*row) == token:
                        same += 1
                        continue
                    if row and not replace:
                        conflicts.append(Token(*row))
                        continue
                    self._db.execute("INSERT OR REPLACE INTO tokens VALUES (?, ?, ?, ?, ?)", _row(token))
                    added += 1
                self._db.execute("ROLLBACK" if conflicts else "COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
        return added, same, conflicts


def parse_export(data: Any) -> list[Token]:
    """The tokens of an export file's JSON, or RegistryError naming the first bad entry."""
    try:
        parsed = ExportFile.model_validate(data)
    except ValidationError as err:
        first = err.errors()[0]
        where = ".".join(map(str, first["loc"])) or "the file"
        raise RegistryError(f"not a token export: {where}: {first['msg']}") from None
    uids = [t.uid for t in parsed.tokens]
    if len(set(uids)) != len(uids):
        raise RegistryError("not a token export: a UID appears twice")
    return [Token(**t.model_dump()) for t in parsed.tokens]


def _row(token: Token) -> tuple[str, str, str, str, str]:
    return (token.uid, token.game, token.kind, token.id, token.label)
