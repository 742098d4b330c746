"""Lockdown's options: what the host chooses before a game starts (`Game.Options`). A module of its
own that imports nothing else of the game, so the kiosk's options screen reads it without the rules
(`companion.games.box`).

Options: ``items`` (``digital``: the referee draws from the seeded source; ``physical``: players draw real
cards and tap them), ``map_file`` (another map, ruling L1.4), ``free_seconds`` and ``turn_seconds`` (the
free-phase and action-turn timers; 0 for none).
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from companion.core.contract import Args


class LockdownOptions(Args):
    items: Literal["digital", "physical"] = "digital"
    map_file: str | None = Field(default=None, max_length=400)
    free_seconds: int = Field(default=300, ge=0, le=3600)
    turn_seconds: int = Field(default=120, ge=0, le=1800)
