"""Betrayal's options: what the host chooses before a game starts (`Game.Options`). A module of its
own that imports nothing else of the game, so the kiosk's options screen reads it without the rules
(`companion.games.box`)."""

from __future__ import annotations

import datetime as dt
import re

from pydantic import Field, field_validator

from companion.core.contract import Args

BIRTHDAY = re.compile(r"^(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])$")


def is_day(text: str) -> bool:
    """Whether `text` is a day of the year as MM-DD (29 February included)."""
    if not BIRTHDAY.match(text):
        return False
    try:
        dt.date(2024, int(text[:2]), int(text[3:]))
    except ValueError:
        return False
    return True


class BetrayalOptions(Args):
    #: today's date (MM-DD) for the birthday start (B1.2); the referee reads no clock.
    today: str = "01-01"
    #: seconds for each turn; 0: no timer. The host can change it during the game.
    turn_seconds: int = Field(default=0, ge=0, le=3600)
    #: a directory with the table's own characters, house and haunts (docs/games/betrayal.md).
    data: str | None = None
    #: explorers chosen before the game (player id -> character id); else each player chooses.
    explorers: dict[str, str] | None = None

    @field_validator("today")
    @classmethod
    def _today(cls, v: str) -> str:
        if not is_day(v):
            raise ValueError("today must be a day as MM-DD")
        return v
