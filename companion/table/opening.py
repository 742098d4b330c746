"""Opening a table from the config: the log, the game to resume or start, and the table around it."""

from __future__ import annotations

import secrets
import time

from companion.config import Config
from companion.core.contract import Player, Setup
from companion.core.eventlog import EventLog, LogError
from companion.core.referee import Referee
from companion.games import registry
from companion.statedir import make_private_dir
from companion.table.loop import Table


def open_table(cfg: Config, force_new: bool = False) -> tuple[Table, bool]:
    """The table and whether it resumed an unfinished game (True) or started a new one."""
    path = cfg.storage.path
    try:  # 0700 (companion/statedir.py); `companion run` has already claimed it
        make_private_dir(path.parent)
    except OSError as err:
        raise LogError(f"cannot create the state directory {path.parent}: {err.strerror}") from err
    log = EventLog(path, synchronous=cfg.storage.synchronous)
    games = registry()
    referee = None if force_new else Referee.resume(games, log)
    if referee is not None and not referee.state.get("ended"):
        return Table(referee), True
    setup = Setup(
        game=cfg.game.default,
        players=tuple(Player(pid, pid) for pid in cfg.game.players),
        options=dict(cfg.game.options),
        seed=secrets.randbits(63),
        moderator=cfg.game.moderator,
    )
    return Table(Referee.start(games, log, setup, created_at=time.time_ns() // 1_000_000)), False
